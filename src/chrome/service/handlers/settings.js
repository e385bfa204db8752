// settings.* and provider.models: what the options page reads, saves (validated by the one schema,
// service/settings-schema.js) and tests.
/** @import { Handler } from './index.js' */
import { createProvider } from '../../providers/index.js';
import { redactSettings, storedProviders } from '../settings.js';
import { mergeProviderKeys, REDACTED } from '../settings-io.js';
import { required, optional, object } from './request-fields.js';

/** @type {Handler[]} */
export const SETTINGS_HANDLERS = [
  {
    type: 'settings.get',
    fields: {},
    handle: async (_msg, d) => ({ ok: true, data: redactSettings(await d.settings.get()) }),
  },
  {
    type: 'settings.set',
    fields: { settings: required(object) },
    async handle(msg, d) {
      const patch = { ...msg.settings };
      // Choosing a provider (first run or the options page) ends the first run.
      if (patch.provider && patch.onboarded === undefined) patch.onboarded = true;
      if (Array.isArray(patch.providers)) {
        const merged = mergeProviderKeys(patch.providers, storedProviders(await d.settings.get()));
        patch.providers = merged;
        // The active provider is one of the list: take its key from there, not from the old active one.
        const same = patch.provider?.id ? merged.find((p) => p.id === patch.provider?.id) : undefined;
        if (same) patch.provider = same;
      }
      // The options page shows a redacted key; saving it back unchanged must not overwrite the real one.
      if (patch.provider?.apiKey === REDACTED) {
        const { apiKey: _drop, ...rest } = patch.provider;
        patch.provider = /** @type {any} */ (rest);
      }
      const saved = await d.settings.set(patch);
      if (!saved.ok) return saved;
      await d.syncLocalEndpoints(saved.settings);
      return { ok: true, data: redactSettings(saved.settings) };
    },
  },
  {
    type: 'provider.models',
    fields: { provider: optional(object) },
    async handle(msg, d) {
      const conf = await d.settings.get();
      // The options page may test a provider before saving it; a redacted key means the stored one.
      const target = msg.provider ? mergeProviderKeys([msg.provider], storedProviders(conf))[0] : conf.provider;
      try {
        await d.syncLocalEndpoints(conf, target);
        const models = await createProvider(target, { fetch: globalThis.fetch.bind(globalThis), languageModel: d.platform.languageModel() }).listModels();
        return { ok: true, data: models };
      } catch (err) {
        const e = /** @type {{code?: string, message?: string}} */ (err);
        return { ok: false, code: e.code ?? 'PROVIDER_ERROR', message: e.message ?? String(err) };
      }
    },
  },
];
