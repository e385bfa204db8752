// Builds the configured provider: the native wire format for its kind, the prompt-based tool
// protocol when the model has no native tools, and bounded retries. Browser-free: fetch, the
// clock and Chrome's LanguageModel are passed in.
/** @import { Provider } from '../types/core' */
/** @import { ProviderSettings } from '../types/messages' */
/** @import { Clock } from './retry.js' */
/** @import { LanguageModelAPI } from './builtin.js' */
import { createOpenAIProvider } from './openai.js';
import { createAnthropicProvider } from './anthropic.js';
import { createGeminiProvider } from './gemini.js';
import { createOllamaProvider } from './ollama.js';
import { createBuiltinProvider } from './builtin.js';
import { kindInfo } from './presets.js';
import { withPromptTools } from './tool-protocol.js';
import { withRetries } from './retry.js';

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
  switch (info.format) {
    case 'anthropic': p = createAnthropicProvider(common); break;
    case 'gemini': p = createGeminiProvider(common); break;
    case 'ollama': p = createOllamaProvider(common); break;
    case 'builtin': p = createBuiltinProvider({ languageModel: deps.languageModel ?? null }); break;
    default:
      p = createOpenAIProvider({
        ...common,
        kind: settings.kind,
        // The foundation's label for the generic kind stays; presets are named.
        ...(settings.kind === 'openai' ? {} : { label: `${info.label} (${common.baseUrl.replace(/\/+$/, '')})` }),
        auth: info.auth, query: info.query, streamUsage: info.streamUsage, extraHeaders: info.extraHeaders,
      });
  }
  if (info.format === 'builtin' || settings.toolMode === 'prompt') p = withPromptTools(p);
  return withRetries(p, { clock: deps.clock, maxRetries: settings.maxRetries, onWaiting: deps.onWaiting });
}
