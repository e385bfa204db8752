// Settings, kept in storage.local. The API key stays there: it is never logged or sent to pages.
/** @import { Settings } from '../types/messages' */

/** @type {Settings} */
export const DEFAULT_SETTINGS = Object.freeze({
  provider: Object.freeze({ kind: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1', apiKey: '' }),
  defaultMode: 'act',
  maxSteps: 100,
  sites: Object.freeze({ allow: [], confirm: [] }),
  strictSecrets: false,
});

/**
 * @typedef {{ get(key: string): Promise<Record<string, any>>, set(items: Record<string, any>): Promise<void> }} StorageArea
 */

/** @param {StorageArea} area */
export function createSettingsStore(area) {
  return {
    /** @returns {Promise<Settings>} */
    async get() {
      const { settings } = await area.get('settings');
      return merge(DEFAULT_SETTINGS, settings ?? {});
    },
    /** @param {Partial<Settings>} patch @returns {Promise<Settings>} */
    async set(patch) {
      const next = merge(await this.get(), patch);
      await area.set({ settings: next });
      return next;
    },
  };
}

/**
 * @param {Settings} base
 * @param {Partial<Settings>} patch
 * @returns {Settings}
 */
function merge(base, patch) {
  return {
    ...base,
    ...patch,
    // A provider from the options page's list arrives whole (id and key resolved): it replaces the
    // old one, so fields it lacks (prices, name) do not linger from the previous provider.
    provider: patch.provider?.id !== undefined && patch.provider.apiKey !== undefined
      ? /** @type {Settings['provider']} */ (patch.provider)
      : { ...base.provider, ...(patch.provider ?? {}) },
  };
}

/** Settings as they may be shown or exported: each key is replaced by whether one is set. */
export { redactAll as redactSettings } from './settings-io.js';

/** The stored providers, including a lone provider saved before the list existed. @param {Settings} conf */
export function storedProviders(conf) {
  return [...(conf.providers ?? []), { ...conf.provider, id: conf.provider.id ?? 'default' }];
}
