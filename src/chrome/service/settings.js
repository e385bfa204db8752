// Settings, kept in storage.local. The API key stays there: it is never logged or sent to pages.
// Nothing is stored that the one schema (service/settings-schema.js) refuses.
/** @import { Settings } from '../types/messages' */
import { validateSettings, settingsErrorMessage } from './settings-schema.js';
import { applyPolicy, checkPatch, readPolicy } from './settings-managed.js';
import { fail } from '../agent/error-codes.js';

/** @type {Settings} */
export const DEFAULT_SETTINGS = Object.freeze({
  // Kind, URL and model agree: a local Ollama until the user picks something (first run or Settings).
  provider: Object.freeze({ kind: 'ollama', baseUrl: 'http://localhost:11434', model: 'llama3.1', apiKey: '' }),
  // Automation is opted into: a person who skips the first run's choice starts in Ask (reads, changes nothing).
  defaultMode: 'ask',
  maxSteps: 100,
  sites: Object.freeze({ allow: [], confirm: [] }),
  strictSecrets: false,
  devTools: false,
  recorder: Object.freeze({ maxSeconds: 300, maxMB: 200, audio: false }),
});

/**
 * @typedef {{ get(key: string): Promise<Record<string, any>>, set(items: Record<string, any>): Promise<void> }} StorageArea
 */

/**
 * @param {StorageArea} area the person's settings (storage.local)
 * @param {{ get(): Promise<Record<string, any>> }} [managed] what an administrator set (storage.managed);
 *   absent or unreadable (Firefox without a policy for the extension throws) means no policy
 */
export function createSettingsStore(area, managed) {
  /** The person's own settings, as stored. @returns {Promise<Settings>} */
  async function personal() {
    const { settings } = await area.get('settings');
    return merge(DEFAULT_SETTINGS, settings ?? {});
  }
  async function policy() {
    if (!managed) return readPolicy(null);
    return readPolicy(await managed.get().catch(() => null));
  }
  return {
    /** The settings in force: the person's, with the organization's policy over them. @returns {Promise<Settings>} */
    async get() {
      const [mine, p] = await Promise.all([personal(), policy()]);
      return applyPolicy(mine, p);
    },
    /**
     * The patch merged into what is stored, validated whole; on any bad field nothing is stored and
     * the reply names each one. Fields the schema does not know are left out. A locked field is never
     * stored as the person's: the policy is laid over again on every read.
     * @param {Partial<Settings>} patch
     * @returns {Promise<{ ok: true, settings: Settings, dropped: string[] } | { ok: false, code: 'INVALID_SETTINGS' | 'SET_BY_ORGANIZATION' | 'PROVIDER_NOT_ALLOWED', message: string }>}
     */
    async set(patch) {
      const [mine, p] = await Promise.all([personal(), policy()]);
      const allowed = checkPatch(patch, applyPolicy(mine, p));
      if (!allowed.ok) return allowed;
      patch = allowed.patch;
      const next = merge(mine, patch);
      const checked = validateSettings(next);
      if (checked.ok) {
        await area.set({ settings: checked.settings });
        return { ...checked, settings: applyPolicy(checked.settings, p) };
      }
      // Only what this save changes is judged: a bad value stored by an older version (or written
      // behind Tabwright's back) must not block saving the fix. It stays as it was, and a run that
      // trips on it says so (RUN_NOT_STARTED).
      const touched = new Set(Object.keys(patch));
      const errors = checked.errors.filter((e) => touched.has(e.path.split(/[.[]/)[0]));
      if (errors.length) return fail('INVALID_SETTINGS', settingsErrorMessage(errors, 'were not saved'));
      await area.set({ settings: next });
      return { ok: true, settings: applyPolicy(next, p), dropped: checked.dropped };
    },
  };
}

/**
 * @param {Settings} base
 * @param {Partial<Settings>} patch
 * @returns {Settings}
 */
function merge(base, patch) {
  return withoutNulls({
    ...base,
    ...patch,
    // A provider from the options page's list arrives whole (id and key resolved): it replaces the
    // old one, so fields it lacks (prices, name) do not linger from the previous provider.
    provider: patch.provider?.id !== undefined && patch.provider.apiKey !== undefined
      ? /** @type {Settings['provider']} */ (withoutNulls(patch.provider))
      : withoutNulls({ ...base.provider, ...(patch.provider ?? {}) }),
  });
}

/**
 * A field saved as null is cleared (the options page clears prices so).
 * @template {object} T @param {T} o @returns {T}
 */
function withoutNulls(o) {
  return /** @type {T} */ (Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null)));
}

/** Settings as they may be shown or exported: each key is replaced by whether one is set. */
export { redactAll as redactSettings } from './settings-io.js';

/** The stored providers, including a lone provider saved before the list existed. @param {Settings} conf */
export function storedProviders(conf) {
  return [...(conf.providers ?? []), { ...conf.provider, id: conf.provider.id ?? 'default' }];
}
