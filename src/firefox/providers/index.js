// Builds the configured provider. Browser-free: fetch is passed in.
/** @import { Provider } from '../types/core' */
/** @import { ProviderSettings } from '../types/messages' */
import { createOpenAIProvider } from './openai.js';

/**
 * @param {ProviderSettings} settings
 * @param {{ fetch: typeof fetch }} deps
 * @returns {Provider}
 */
export function createProvider(settings, deps) {
  switch (settings.kind) {
    case 'openai':
      return createOpenAIProvider({ baseUrl: settings.baseUrl, model: settings.model, apiKey: settings.apiKey, fetch: deps.fetch });
    default:
      throw new Error(`Unknown provider kind "${/** @type {{kind: string}} */ (settings).kind}"`);
  }
}
