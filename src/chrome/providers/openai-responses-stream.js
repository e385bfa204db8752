// The Responses API's semantic stream events as Tabwright's stream events: text deltas, function
// calls (announced by output_item.added, arguments in deltas), usage and the end (completed,
// incomplete, failed). One small reader per event type.
// https://platform.openai.com/docs/api-reference/responses-streaming
/** @import { StreamEvent } from '../types/core' */
import { readSSE } from './sse.js';
import { incomplete, badChunk, midStreamError } from './http.js';

/**
 * What the stream remembers between events.
 * @typedef {{ calls: Map<number, number>, finished: boolean }} ResponsesStream calls: output_index → the call's index among this answer's calls
 */

/** @returns {ResponsesStream} */
export function newResponsesStream() {
  return { calls: new Map(), finished: false };
}

/** The answer's end: its usage, and why it ended. @param {any} ev @param {ResponsesStream} st @returns {StreamEvent[]} */
function ended(ev, st) {
  /** @type {StreamEvent[]} */
  const out = [];
  const u = ev.response?.usage;
  if (u) {
    const cached = u.input_tokens_details?.cached_tokens;
    out.push({ type: 'usage', usage: { inputTokens: u.input_tokens ?? 0, outputTokens: u.output_tokens ?? 0, ...(cached ? { cachedInputTokens: cached } : {}) } });
  }
  st.finished = true;
  const reason = ev.type === 'response.incomplete' ? (ev.response?.incomplete_details?.reason === 'max_output_tokens' ? 'length' : 'stop') : st.calls.size ? 'tool_calls' : 'stop';
  out.push({ type: 'finish', reason });
  return out;
}

/** @type {Record<string, (ev: any, st: ResponsesStream, label: string) => StreamEvent[]>} */
const READERS = {
  'response.output_text.delta': (ev) => (ev.delta ? [{ type: 'text', text: String(ev.delta) }] : []),
  'response.output_item.added'(ev, st) {
    if (ev.item?.type !== 'function_call') return [];
    const index = st.calls.size;
    st.calls.set(ev.output_index, index);
    return [{ type: 'tool_call_delta', index, id: ev.item.call_id, name: ev.item.name, argumentsDelta: ev.item.arguments || undefined }];
  },
  'response.function_call_arguments.delta'(ev, st) {
    const index = st.calls.get(ev.output_index);
    return index !== undefined && ev.delta ? [{ type: 'tool_call_delta', index, argumentsDelta: String(ev.delta) }] : [];
  },
  'response.completed': ended,
  'response.incomplete': ended,
  'response.failed'(ev, _st, label) { throw midStreamError(label, ev.response?.error?.message ?? 'the response failed'); },
  error(ev, _st, label) { throw midStreamError(label, ev.message ?? ev.error?.message ?? 'error'); },
};

/**
 * The stream events one Responses event stands for (none for the types this does not use).
 * @param {any} ev @param {ResponsesStream} st @param {string} label @returns {StreamEvent[]}
 */
export function responsesEvents(ev, st, label) {
  const type = String(ev?.type);
  return Object.hasOwn(READERS, type) ? READERS[type](ev, st, label) : [];
}

/**
 * @param {ReadableStream<Uint8Array>} body @param {string} label @param {AbortSignal} [signal]
 * @returns {AsyncGenerator<StreamEvent>}
 */
export async function* parseResponsesStream(body, label, signal) {
  const st = newResponsesStream();
  for await (const { data } of readSSE(body)) {
    if (data === '[DONE]') break;
    let ev;
    try { ev = JSON.parse(data); } catch { throw badChunk(label, data); }
    yield* responsesEvents(ev, st, label);
    if (st.finished) break;
  }
  if (!st.finished) throw incomplete(label, signal);
}
