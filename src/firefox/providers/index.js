// Builds the configured provider: the native wire format for its kind, the prompt-based tool
// protocol when the model has no native tools, and bounded retries. Browser-free: fetch, the
// clock and Chrome's LanguageModel are passed in.
/** @import { Provider } from '../types/core' */
/** @import { ProviderSettings } from '../types/messages' */
/** @import { Clock } from './retry.js' */
/** @import { LanguageModelAPI } from './builtin.js' */
import { createOpenAIProvider } from './openai.js';
import { createResponsesProvider } from './openai-responses.js';
import { createAnthropicProvider } from './anthropic.js';
import { createGeminiProvider } from './gemini.js';
import { createOllamaProvider } from './ollama.js';
import { createBuiltinProvider } from './builtin.js';
import { kindInfo, localOrigins } from './presets.js';
import { resolveLimits, probeOnce } from './limits.js';
import { withPromptTools } from './tool-protocol.js';
import { withRetries } from './retry.js';
import { withPrice } from './pricing.js';

/**
 * @typedef {object} ProviderDeps
 * @property {typeof fetch} fetch
 * @property {Clock} [clock]
 * @property {LanguageModelAPI | null} [languageModel] Chrome's Prompt API, where the browser has it
 * @property {(w: { ms: number, attempt: number, reason: string, message: string }) => void} [onWaiting]
 */

/**
 * @param {ProviderSettings} settings
 * @param {ProviderDeps} deps
 * @returns {Provider}
 */
export function createProvider(settings, deps) {
  const info = kindInfo(settings.kind);
  if (!info) throw new Error(`Unknown provider kind "${settings.kind}"`);
  const common = {
    baseUrl: settings.baseUrl || info.baseUrl,
    model: settings.model || info.model,
    apiKey: settings.apiKey,
    fetch: deps.fetch,
    timeoutMs: settings.timeoutMs,
  };
  /** @type {Provider} */
  let p;
  const local = Boolean(info.local) || localOrigins({ baseUrl: common.baseUrl }).length > 0;
  /** @type {Promise<import('../types/core').ModelLimits> | null} */
  let known = null;
  /** The limits once known: capabilities() reports them from then on. @type {{ contextWindow: number, maxOutput: number } | null} */
  let settled = null;
  // The model's real limits, asked of the provider once (providers/limits.js).
  const limits = () => (known ??= (async () => {
    const reported = p.modelInfo ? await probeOnce(`${info.format} ${common.baseUrl} ${common.model}`, (signal) => /** @type {NonNullable<Provider['modelInfo']>} */ (p.modelInfo)(signal)) : null;
    const l = resolveLimits({ model: common.model, format: info.format, local, override: { contextWindow: settings.contextWindow, maxOutput: settings.maxOutput }, reported });
    settled = { contextWindow: l.contextWindow, maxOutput: l.maxOutput };
    return l;
  })());
  switch (info.format) {
    case 'anthropic': p = createAnthropicProvider(common); break;
    case 'gemini': p = createGeminiProvider(common); break;
    case 'ollama': p = createOllamaProvider({ ...common, window: async () => (await limits()).contextWindow }); break;
    case 'builtin': p = createBuiltinProvider({ languageModel: deps.languageModel ?? null }); break;
    default:
      if (settings.kind === 'openai' && settings.api === 'responses') { p = createResponsesProvider(common); break; }
      p = createOpenAIProvider({
        ...common,
        kind: settings.kind,
        // The foundation's label for the generic kind stays; presets are named.
        ...(settings.kind === 'openai' ? {} : { label: `${info.label} (${common.baseUrl.replace(/\/+$/, '')})` }),
        auth: info.auth, query: info.query, streamUsage: info.streamUsage, extraHeaders: info.extraHeaders, models: info.models,
      });
  }
  const base = p;
  p = { ...base, limits, capabilities: () => ({ ...(base.capabilities?.() ?? { tools: true, vision: false, contextWindow: 32_768, maxOutput: 4_096 }), ...(settled ?? {}) }) };
  if (info.format === 'builtin' || settings.toolMode === 'prompt' || (info.noTools && settings.toolMode !== 'native')) p = withPromptTools(p);
  // Prices the person entered win over the table's: the run's cost and its money budget use them.
  if (settings.pricing) p = withPrice(p, settings.pricing);
  return withRetries(p, { clock: deps.clock, maxRetries: settings.maxRetries, onWaiting: deps.onWaiting });
}
