// OpenAI's Responses API (POST /responses), an option of the OpenAI kind beside Chat Completions:
// input items instead of messages, function calls and their outputs as items of their own, and
// semantic stream events. https://platform.openai.com/docs/api-reference/responses
/** @import { ChatMessage, Provider, StreamEvent } from '../types/core' */
import { readSSE } from './sse.js';
import { createHttp, incomplete, badChunk, midStreamError, textOf } from './http.js';
import { finishProvider } from './base.js';

/**
 * @param {{ baseUrl: string, model: string, apiKey?: string, fetch: typeof fetch, timeoutMs?: number, label?: string }} opts
 * @returns {Provider}
 */
export function createResponsesProvider(opts) {
  const label = opts.label ?? `OpenAI Responses (${opts.baseUrl.replace(/\/+$/, '')})`;
  const http = createHttp({
    baseUrl: opts.baseUrl, label, fetch: opts.fetch, timeoutMs: opts.timeoutMs,
    headers: () => ({ 'content-type': 'application/json', ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) }),
  });

  return finishProvider({
    kind: 'openai',
    label,
    model: opts.model,

    async *chatStream(req) {
      const system = req.messages.filter((m) => m.role === 'system').map((m) => textOf(m.content)).join('\n\n');
      const body = {
        model: opts.model,
        ...(system ? { instructions: system } : {}),
        input: req.messages.filter((m) => m.role !== 'system').flatMap(toItems),
        stream: true,
        // Nothing is kept on OpenAI's side between calls: every request carries the conversation.
        store: false,
        ...(req.tools.length ? { tools: req.tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters, strict: false })), tool_choice: 'auto' } : {}),
        ...(req.maxTokens ? { max_output_tokens: req.maxTokens } : {}),
        ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      };
      yield* http.stream('/responses', body, req.signal, (stream) => parseStream(stream, label, req.signal));
    },

    async listModels(signal) {
      const body = await http.getJSON('/models', signal);
      return (body?.data ?? []).map((/** @type {{id: string}} */ m) => m.id).filter(Boolean).sort();
    },
  });
}

/**
 * The events Tabwright needs from the stream: text deltas, function calls (announced by
 * output_item.added, arguments in deltas), usage and the end (completed, incomplete, failed).
 * @param {ReadableStream<Uint8Array>} body @param {string} label @param {AbortSignal} [signal]
 * @returns {AsyncGenerator<StreamEvent>}
 */
async function* parseStream(body, label, signal) {
  /** output_index → the call's index among this answer's calls. @type {Map<number, number>} */
  const calls = new Map();
  let finished = false;
  for await (const { data } of readSSE(body)) {
    if (data === '[DONE]') break;
    let ev;
    try { ev = JSON.parse(data); } catch { throw badChunk(label, data); }
    switch (ev.type) {
      case 'response.output_text.delta':
        if (ev.delta) yield { type: 'text', text: String(ev.delta) };
        break;
      case 'response.output_item.added':
        if (ev.item?.type === 'function_call') {
          const index = calls.size;
          calls.set(ev.output_index, index);
          yield { type: 'tool_call_delta', index, id: ev.item.call_id, name: ev.item.name, argumentsDelta: ev.item.arguments || undefined };
        }
        break;
      case 'response.function_call_arguments.delta': {
        const index = calls.get(ev.output_index);
        if (index !== undefined && ev.delta) yield { type: 'tool_call_delta', index, argumentsDelta: String(ev.delta) };
        break;
      }
      case 'response.completed':
      case 'response.incomplete': {
        const u = ev.response?.usage;
        if (u) {
          const cached = u.input_tokens_details?.cached_tokens;
          yield { type: 'usage', usage: { inputTokens: u.input_tokens ?? 0, outputTokens: u.output_tokens ?? 0, ...(cached ? { cachedInputTokens: cached } : {}) } };
        }
        finished = true;
        const reason = ev.type === 'response.incomplete' ? (ev.response?.incomplete_details?.reason === 'max_output_tokens' ? 'length' : 'stop') : calls.size ? 'tool_calls' : 'stop';
        yield { type: 'finish', reason };
        return;
      }
      case 'response.failed':
        throw midStreamError(label, ev.response?.error?.message ?? 'the response failed');
      case 'error':
        throw midStreamError(label, ev.message ?? ev.error?.message ?? 'error');
      default:
        break;
    }
  }
  if (!finished) throw incomplete(label, signal);
}

/** One message as Responses input items. @param {ChatMessage} m @returns {unknown[]} */
function toItems(m) {
  if (m.role === 'tool') return [{ type: 'function_call_output', call_id: m.toolCallId, output: textOf(m.content) }];
  if (m.role === 'assistant') {
    const text = textOf(m.content);
    return [
      ...(text ? [{ role: 'assistant', content: [{ type: 'output_text', text }] }] : []),
      ...(m.toolCalls ?? []).map((c) => ({ type: 'function_call', call_id: c.id, name: c.name, arguments: c.arguments })),
    ];
  }
  /** @type {import('../types/core').ContentPart[]} */
  const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
  return [{
    role: 'user',
    content: parts.map((p) => (p.type === 'text' ? { type: 'input_text', text: p.text } : { type: 'input_image', image_url: `data:${p.mediaType};base64,${p.data}` })),
  }];
}
