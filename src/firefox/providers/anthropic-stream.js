// Anthropic's streamed Messages events as Tabwright's stream events, one small reader per event type.
// https://docs.anthropic.com/en/api/messages-streaming
/** @import { StreamEvent } from '../types/core' */
import { readSSE } from './sse.js';
import { incomplete, badChunk, midStreamError } from './http.js';

/**
 * What the stream remembers between events.
 * @typedef {{ toolIndex: Map<number, number>, stopped: boolean, input: number, cached: number }} AnthropicStream
 *   toolIndex: content block index → tool ordinal, so tool calls are numbered 0, 1, … whatever text blocks sit between
 */

/** @returns {AnthropicStream} */
export function newAnthropicStream() {
  return { toolIndex: new Map(), stopped: false, input: 0, cached: 0 };
}

/** @type {Record<string, (ev: any, st: AnthropicStream, label: string) => StreamEvent[]>} */
const READERS = {
  message_start(ev, st) {
    const u = ev.message?.usage ?? {};
    st.cached = u.cache_read_input_tokens ?? 0;
    // input_tokens excludes cached and cache-written tokens; Usage.inputTokens counts all input.
    st.input = (u.input_tokens ?? 0) + st.cached + (u.cache_creation_input_tokens ?? 0);
    return [];
  },
  content_block_start(ev, st) {
    const b = ev.content_block ?? {};
    if (b.type === 'tool_use') {
      st.toolIndex.set(ev.index, st.toolIndex.size);
      return [{ type: 'tool_call_delta', index: /** @type {number} */ (st.toolIndex.get(ev.index)), id: b.id, name: b.name }];
    }
    return b.type === 'text' && b.text ? [{ type: 'text', text: b.text }] : [];
  },
  content_block_delta(ev, st) {
    const d = ev.delta ?? {};
    if (d.type === 'text_delta' && d.text) return [{ type: 'text', text: d.text }];
    if (d.type === 'input_json_delta' && st.toolIndex.has(ev.index)) {
      return [{ type: 'tool_call_delta', index: /** @type {number} */ (st.toolIndex.get(ev.index)), argumentsDelta: d.partial_json ?? '' }];
    }
    return [];
  },
  message_delta(ev, st) {
    /** @type {StreamEvent[]} */
    const out = [{ type: 'usage', usage: { inputTokens: st.input, outputTokens: ev.usage?.output_tokens ?? 0, ...(st.cached ? { cachedInputTokens: st.cached } : {}) } }];
    if (ev.delta?.stop_reason) out.push({ type: 'finish', reason: ev.delta.stop_reason === 'tool_use' ? 'tool_calls' : ev.delta.stop_reason });
    return out;
  },
  message_stop(_ev, st) { st.stopped = true; return []; },
  error(ev, _st, label) { throw midStreamError(label, ev.error?.message ?? 'unknown error'); },
};

/**
 * The stream events one Anthropic event stands for (none for ping, content_block_stop and types
 * this does not know).
 * @param {any} ev @param {AnthropicStream} st @param {string} label @returns {StreamEvent[]}
 */
export function anthropicEvents(ev, st, label) {
  const type = String(ev?.type);
  return Object.hasOwn(READERS, type) ? READERS[type](ev, st, label) : [];
}

/**
 * @param {ReadableStream<Uint8Array>} body @param {string} label @param {AbortSignal} [signal]
 * @returns {AsyncGenerator<StreamEvent>}
 */
export async function* parseAnthropicStream(body, label, signal) {
  const st = newAnthropicStream();
  for await (const { data } of readSSE(body)) {
    let ev;
    try { ev = JSON.parse(data); } catch { throw badChunk(label, data); }
    yield* anthropicEvents(ev, st, label);
    if (st.stopped) break;
  }
  if (!st.stopped) throw incomplete(label, signal);
}
