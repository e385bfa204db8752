// Settings leaving or entering the extension: redaction for pages, export and import as a file.
// Secrets (API keys) never leave: exports drop them and imports keep the keys already stored.
/** @import { Settings, ProviderSettings } from '../types/messages' */

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
 * Parse an export file. Keys are never imported: a provider with the same id keeps its stored key.
 * @param {string} text @param {Settings} current
 * @returns {{ ok: true, settings: Partial<Settings> } | { ok: false, code: string, message: string }}
 */
export function parseImport(text, current) {
  /** @type {any} */
  let doc;
  try { doc = JSON.parse(text); } catch {
    return { ok: false, code: 'BAD_IMPORT', message: 'The file is not JSON. Choose a file exported from Tabwright\'s settings.' };
  }
  if (!doc || doc.format !== FORMAT || typeof doc.settings !== 'object' || !doc.settings) {
    return { ok: false, code: 'BAD_IMPORT', message: 'The file is not a Tabwright settings export. Choose a file exported from Tabwright\'s settings.' };
  }
  const s = doc.settings;
  /** @type {Partial<Settings>} */
  const out = {};
  const isProvider = (/** @type {any} */ p) => p && typeof p.baseUrl === 'string' && typeof p.model === 'string';
  const keyOf = (/** @type {any} */ p) => {
    const same = [current.provider, ...(current.providers ?? [])].find((c) => (p.id && c.id === p.id) || (!p.id && c.baseUrl === p.baseUrl));
    return same?.apiKey ?? '';
  };
  const clean = (/** @type {any} */ p) => /** @type {ProviderSettings} */ ({ ...p, kind: p.kind ?? 'openai', apiKey: keyOf(p) });
  if (isProvider(s.provider)) out.provider = clean(s.provider);
  if (Array.isArray(s.providers)) out.providers = s.providers.filter(isProvider).map(clean);
  if (s.defaultMode === 'ask' || s.defaultMode === 'act') out.defaultMode = s.defaultMode;
  if (Number.isInteger(s.maxSteps) && s.maxSteps >= 1 && s.maxSteps <= 1000) out.maxSteps = s.maxSteps;
  if (['auto', 'always', 'never'].includes(s.screenshotPolicy)) out.screenshotPolicy = s.screenshotPolicy;
  if (s.roles && typeof s.roles === 'object') out.roles = s.roles;
  if (s.sites && Array.isArray(s.sites.allow) && Array.isArray(s.sites.confirm)) {
    out.sites = { allow: s.sites.allow.map(String), confirm: s.sites.confirm.map(String) };
  }
  if (typeof s.strictSecrets === 'boolean') out.strictSecrets = s.strictSecrets;
  return { ok: true, settings: out };
}
