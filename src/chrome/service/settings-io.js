// Settings leaving or entering the extension: redaction for pages, export and import as a file.
// Secrets (API keys) never leave: exports drop them and imports keep the keys already stored.
/** @import { Settings, ProviderSettings } from '../types/messages' */
import { validateSettings, settingsErrorMessage, MAX_IMPORT_BYTES } from './settings-schema.js';
import { fail } from '../agent/error-codes.js';

/** What the options page shows instead of a stored key. */
export const REDACTED = '••••';
const FORMAT = 'tabwright-settings';

/** @param {ProviderSettings} p @param {string} replacement */
const withKey = (p, replacement) => ({ ...p, apiKey: p.apiKey ? replacement : '' });

/**
 * Keys the page sent back redacted (or left out) are taken from the stored provider with the same id.
 * @param {ProviderSettings[]} incoming @param {ProviderSettings[]} stored
 * @returns {ProviderSettings[]}
 */
export function mergeProviderKeys(incoming, stored) {
  return incoming.map((p) => {
    if (p.apiKey && p.apiKey !== REDACTED) return p;
    const old = stored.find((s) => s.id && s.id === p.id);
    return { ...p, apiKey: p.apiKey === REDACTED ? old?.apiKey ?? '' : '' };
  });
}

/** Settings as a page may see them: each key replaced by whether one is set. @param {Settings} s @returns {Settings} */
export function redactAll(s) {
  return {
    ...s,
    provider: withKey(s.provider, REDACTED),
    ...(s.providers ? { providers: s.providers.map((p) => withKey(p, REDACTED)) } : {}),
  };
}

/** The export file's content: everything but the keys. @param {Settings} s */
export function exportSettings(s) {
  const { onboarded: _onboarded, ...rest } = s;
  const settings = {
    ...rest,
    provider: withKey(s.provider, ''),
    ...(s.providers ? { providers: s.providers.map((p) => withKey(p, '')) } : {}),
  };
  return JSON.stringify({ format: FORMAT, version: 1, settings }, null, 2);
}

/**
 * Parse an export file and validate it with the one schema (service/settings-schema.js) as it
 * would be stored: any bad field refuses the whole file, naming each; fields Tabwright does not
 * know are left out and listed. Keys are never imported: a provider with the same id (or address)
 * keeps its stored key.
 * @param {string} text @param {Settings} current
 * @returns {{ ok: true, settings: Partial<Settings>, dropped: string[] } | { ok: false, code: 'BAD_IMPORT' | 'INVALID_SETTINGS', message: string }}
 */
export function parseImport(text, current) {
  if (text.length > MAX_IMPORT_BYTES) {
    return fail('BAD_IMPORT', `the file is ${(text.length / 1e6).toFixed(1)} MB; a settings export is a few kilobytes, and at most 1 MB is read`);
  }
  /** @type {any} */
  let doc;
  try { doc = JSON.parse(text); } catch {
    return fail('BAD_IMPORT', 'the file is not JSON');
  }
  if (!doc || doc.format !== FORMAT || typeof doc.settings !== 'object' || !doc.settings || Array.isArray(doc.settings)) {
    return fail('BAD_IMPORT', 'the file is not a Tabwright settings export');
  }
  const s = /** @type {Record<string, any>} */ ({ ...doc.settings });
  delete s.onboarded;
  const keyOf = (/** @type {any} */ p) => {
    const same = [current.provider, ...(current.providers ?? [])].find((c) => (p?.id && c.id === p.id) || (!p?.id && c.baseUrl === p?.baseUrl));
    return same?.apiKey ?? '';
  };
  // Older exports had no kind: they were OpenAI-compatible.
  const withKey = (/** @type {any} */ p) => (p && typeof p === 'object' && !Array.isArray(p) ? { kind: 'openai', ...p, apiKey: keyOf(p) } : p);
  if (s.provider !== undefined) s.provider = withKey(s.provider);
  if (Array.isArray(s.providers)) s.providers = s.providers.map(withKey);
  const checked = validateSettings({ ...current, ...s });
  if (!checked.ok) return fail('INVALID_SETTINGS', settingsErrorMessage(checked.errors, 'in the file were not imported'));
  const imported = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (checked.settings));
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const key of Object.keys(s)) if (Object.hasOwn(imported, key)) out[key] = imported[key];
  return { ok: true, settings: /** @type {Partial<Settings>} */ (out), dropped: checked.dropped };
}
