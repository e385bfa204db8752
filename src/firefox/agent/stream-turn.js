// One model turn, streamed: text goes to the panel as it arrives, tool calls are assembled from
// their deltas. Each chunk wait races the abort signal, so Stop ends a stream within a second.
/** @import { AgentEvent, ChatRequest, Provider, ToolCall, Usage } from '../types/core' */
import { raceAbort } from './abort.js';
import { addToolCallDelta, assembledCalls } from '../providers/tool-calls.js';

/**
 * @param {Provider} provider
 * @param {ChatRequest} req
 * @param {string} messageId
 * @param {(e: AgentEvent) => void} emit
 * @returns {Promise<{ text: string, calls: ToolCall[], usage: Usage | null }>}
 */
export async function streamTurn(provider, req, messageId, emit) {
  let text = '';
  /** @type {Usage | null} */
  let usage = null;
  /** @type {Map<number, ToolCall>} */
  const calls = new Map();
  const it = provider.chatStream(req)[Symbol.asyncIterator]();
  try {
    while (true) {
      const { value: ev, done } = await raceAbort(it.next(), req.signal);
      if (done) break;
      if (ev.type === 'text') {
        text += ev.text;
        emit({ type: 'text_delta', messageId, text: ev.text });
      } else if (ev.type === 'tool_call_delta') {
        addToolCallDelta(calls, ev);
      } else if (ev.type === 'usage') {
        usage = ev.usage;
        emit({ type: 'usage', usage: ev.usage });
      }
    }
  } finally {
    if (req.signal?.aborted) it.return?.(undefined)?.catch(() => {});
  }
  return { text, calls: assembledCalls(calls, `call_${messageId}_`), usage };
}

/**
 * A whole answer without tools and without showing it, for internal requests (the summary
 * written at compaction, the planner's fallback).
 * @param {Provider} provider @param {ChatRequest} req
 */
export async function collectText(provider, req) {
  let text = '';
  const it = provider.chatStream(req)[Symbol.asyncIterator]();
  while (true) {
    const { value: ev, done } = await raceAbort(it.next(), req.signal);
    if (done) break;
    if (ev.type === 'text') text += ev.text;
  }
  return text;
}
