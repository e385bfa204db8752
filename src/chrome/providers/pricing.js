// The prices the person entered for a provider (Settings → provider → prices) over the model table's
// list price: the provider's capabilities say them, and every usage it reports is priced with them.
/** @import { Capabilities, Provider } from '../types/core' */
import { costOf } from './models.js';

/**
 * @param {Provider} provider @param {{ input: number, output: number }} pricing US dollars per million tokens
 * @returns {Provider}
 */
export function withPrice(provider, pricing) {
  /** @returns {Capabilities} */
  const caps = () => ({ ...(provider.capabilities?.() ?? { tools: true, vision: false, contextWindow: 32_768, maxOutput: 4_096 }), price: { input: pricing.input, output: pricing.output } });
  return {
    ...provider,
    capabilities: caps,
    async *chatStream(req) {
      for await (const ev of provider.chatStream(req)) {
        yield ev.type === 'usage' ? { type: 'usage', usage: { ...ev.usage, costUsd: costOf(caps(), ev.usage) } } : ev;
      }
    },
  };
}
