// Anthropic Messages API, natively: tool_use / tool_result blocks, streamed events, images, and
// prompt caching (cache_control on the system prompt and the tool list, which repeat every turn).
// https://docs.anthropic.com/en/api/messages  https://docs.anthropic.com/en/api/messages-streaming
// https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
/** @import { ChatMessage, Provider, ContentPart } from '../types/core' */
import { createHttp } from './http.js';
import { parseAnthropicStream } from './anthropic-stream.js';
import { textOf, argsObject } from './message-parts.js';
import { finishProvider } from './base.js';

export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * @param {{ baseUrl: string, model: string, apiKey?: string, fetch: typeof fetch, timeoutMs?: number, label?: string, maxTokens?: number }} opts
 * @returns {Provider}
 */
export function createAnthropicProvider(opts) {
  const label = opts.label ?? `Anthropic (${opts.baseUrl.replace(/\/+$/, '')})`;
  const http = createHttp({
    baseUrl: opts.baseUrl, label, fetch: opts.fetch, timeoutMs: opts.timeoutMs,
    headers: () => ({
      'content-type': 'application/json',
      'x-api-key': opts.apiKey ?? '',
      'anthropic-version': ANTHROPIC_VERSION,
      // Required for calls carrying a browser Origin (an extension's is one).
      'anthropic-dangerous-direct-browser-access': 'true',
    }),
  });

  return finishProvider({
    kind: 'anthropic',
    label,
    model: opts.model,

    async *chatStream(req) {
      const system = req.messages.filter((m) => m.role === 'system').map((m) => textOf(m.content)).join('\n\n');
      const tools = req.tools.map((t, i) => ({
        name: t.name, description: t.description, input_schema: t.parameters,
        // One breakpoint after the last tool caches tools + system together (the stable prefix).
        ...(i === req.tools.length - 1 ? { cache_control: { type: 'ephemeral' } } : {}),
      }));
      const body = {
        model: opts.model,
        // Required by the Messages API; the model's own maximum unless the caller asks for less.
        max_tokens: req.maxTokens ?? opts.maxTokens ?? 8192,
        ...(system ? { system: [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }] } : {}),
        messages: withTailBreakpoint(toWireMessages(req.messages)),
        ...(tools.length ? { tools, tool_choice: { type: 'auto' } } : {}),
        ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
        stream: true,
      };
      yield* http.stream('/messages', body, req.signal, (stream) => parseAnthropicStream(stream, label, req.signal));
    },

    async listModels(signal) {
      const body = await http.getJSON('/models?limit=1000', signal);
      return (body?.data ?? []).map((/** @type {{id: string}} */ m) => m.id).filter(Boolean).sort();
    },
  });
}

/**
 * Tabwright messages → Anthropic's alternating user/assistant turns. Tool results are user
 * content blocks, and consecutive same-role messages are merged, as the API requires.
 * @param {ChatMessage[]} messages
 */
function toWireMessages(messages) {
  /** @type {{ role: 'user' | 'assistant', content: any[] }[]} */
  const out = [];
  /** @param {'user' | 'assistant'} role @param {any[]} blocks */
  const push = (role, blocks) => {
    if (!blocks.length) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (m.role === 'tool') {
      push('user', [{ type: 'tool_result', tool_use_id: m.toolCallId, content: textOf(m.content) }]);
    } else if (m.role === 'assistant') {
      const text = textOf(m.content);
      push('assistant', [
        ...(text ? [{ type: 'text', text }] : []),
        ...(m.toolCalls ?? []).map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: argsObject(c.arguments) })),
      ]);
    } else {
      push('user', blocksOf(m.content));
    }
  }
  return out;
}

/**
 * A cache breakpoint on the last block: an agent run re-sends the whole conversation every step,
 * so each step reads the previous step's prefix from the cache (0.1× input price) instead of
 * paying for it again. System + tools alone (~650 tokens here) are below the 1024-token minimum
 * a cached prefix needs, so this breakpoint is the one that saves money. Up to 4 are allowed.
 * @param {{ role: string, content: any[] }[]} messages
 */
function withTailBreakpoint(messages) {
  const last = messages[messages.length - 1];
  const block = last?.content[last.content.length - 1];
  if (block) last.content[last.content.length - 1] = { ...block, cache_control: { type: 'ephemeral' } };
  return messages;
}

/** @param {string | ContentPart[]} content */
function blocksOf(content) {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  return content.map((p) => p.type === 'text'
    ? { type: 'text', text: p.text }
    : { type: 'image', source: { type: 'base64', media_type: p.mediaType, data: p.data } });
}
