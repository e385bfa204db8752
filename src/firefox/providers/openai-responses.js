// OpenAI's Responses API (POST /responses), an option of the OpenAI kind beside Chat Completions:
// input items instead of messages, function calls and their outputs as items of their own, and
// semantic stream events. https://platform.openai.com/docs/api-reference/responses
/** @import { ChatMessage, Provider } from '../types/core' */
import { createHttp } from './http.js';
import { parseResponsesStream } from './openai-responses-stream.js';
import { textOf } from './message-parts.js';
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
      yield* http.stream('/responses', body, req.signal, (stream) => parseResponsesStream(stream, label, req.signal));
    },

    async listModels(signal) {
      const body = await http.getJSON('/models', signal);
      return (body?.data ?? []).map((/** @type {{id: string}} */ m) => m.id).filter(Boolean).sort();
    },
  });
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
