// What every provider offers on top of its own chatStream: chat (the stream collected),
// testConnection (listModels as a value), capabilities, and usage events priced per token.
/** @import { Capabilities, ChatRequest, ChatResult, ModelLimits, Provider, StreamEvent, ToolCall } from '../types/core' */
import { capabilitiesFor, costOf } from './models.js';
import { addToolCallDelta, assembledCalls } from './tool-calls.js';

/**
 * @typedef {object} ProviderCore
 * @property {string} kind
 * @property {string} label
 * @property {string} model
 * @property {(req: ChatRequest) => AsyncIterable<StreamEvent>} chatStream
 * @property {(signal?: AbortSignal) => Promise<string[]>} listModels
 * @property {Partial<Capabilities>} [caps]
 * @property {(signal: AbortSignal) => Promise<{ contextWindow?: number, maxOutput?: number } | null>} [modelInfo] what the provider's API says of the model's limits
 */

/** @param {ProviderCore} core @returns {Provider} */
export function finishProvider(core) {
  const caps = capabilitiesFor(core.model, core.caps);
  return {
    kind: core.kind,
    label: core.label,
    model: core.model,
    capabilities: () => caps,
    async *chatStream(req) {
      for await (const ev of core.chatStream(req)) {
        if (ev.type === 'usage' && ev.usage.costUsd === undefined) {
          const cost = costOf(caps, ev.usage);
          yield cost === undefined ? ev : { type: 'usage', usage: { ...ev.usage, costUsd: cost } };
        } else yield ev;
      }
    },
    listModels: core.listModels,
    ...(core.modelInfo ? { modelInfo: core.modelInfo } : {}),
    chat(req) { return collect(this.chatStream(req)); },
    async testConnection(signal) {
      try {
        const models = await core.listModels(signal);
        return { ok: true, models };
      } catch (err) {
        const e = /** @type {{ code?: string, message?: string }} */ (err);
        return { ok: false, code: e.code ?? 'PROVIDER_ERROR', message: e.message ?? String(err) };
      }
    },
  };
}

/**
 * A whole answer from a stream: text, assembled tool calls, usage summed.
 * @param {AsyncIterable<StreamEvent>} stream
 * @returns {Promise<ChatResult>}
 */
export async function collect(stream) {
  let text = '';
  let finish = '';
  /** @type {Map<number, ToolCall>} */
  const calls = new Map();
  /** @type {import('../types/core').Usage} */
  const usage = { inputTokens: 0, outputTokens: 0 };
  for await (const ev of stream) {
    if (ev.type === 'text') text += ev.text;
    else if (ev.type === 'tool_call_delta') addToolCallDelta(calls, ev);
    else if (ev.type === 'usage') {
      usage.inputTokens += ev.usage.inputTokens;
      usage.outputTokens += ev.usage.outputTokens;
      if (ev.usage.costUsd !== undefined) usage.costUsd = (usage.costUsd ?? 0) + ev.usage.costUsd;
    } else if (ev.type === 'finish') finish = ev.reason;
  }
  return { text, toolCalls: assembledCalls(calls, 'call_'), usage, finish };
}
