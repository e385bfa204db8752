// Ollama's native /api/chat: NDJSON streaming, tools, images as base64 beside the text.
// https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
/** @import { ChatMessage, Provider, StreamEvent } from '../types/core' */
import { createHttp, incomplete, badChunk, midStreamError, readLines } from './http.js';
import { textOf, argsObject } from './message-parts.js';
import { finishProvider } from './base.js';
import { count } from './limits.js';

/** Ollama's calls carry no id; ours must be unique across the conversation (the panel keys on it). */
let callSeq = 0;

/**
 * @param {{ baseUrl: string, model: string, apiKey?: string, fetch: typeof fetch, timeoutMs?: number, label?: string, window?: () => Promise<number> }} opts
 *   window: the context window Tabwright assumes (providers/limits.js), asked of Ollama as num_ctx so both agree
 * @returns {Provider}
 */
export function createOllamaProvider(opts) {
  // People paste the OpenAI-compatible URL (…/v1); the native API lives at the root.
  const baseUrl = opts.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '').replace(/\/api$/, '');
  const label = opts.label ?? `Ollama (${baseUrl})`;
  const http = createHttp({
    baseUrl, label, fetch: opts.fetch, timeoutMs: opts.timeoutMs,
    headers: () => ({ 'content-type': 'application/json', ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) }),
  });

  return finishProvider({
    kind: 'ollama',
    label,
    model: opts.model,
    caps: { price: undefined },

    async *chatStream(req) {
      // Ollama's default context (2–4k tokens) silently truncates a page snapshot: ask for the
      // window Tabwright plans with.
      const numCtx = opts.window ? await opts.window() : undefined;
      const options = {
        ...(req.maxTokens ? { num_predict: req.maxTokens } : {}),
        ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
        ...(numCtx ? { num_ctx: numCtx } : {}),
      };
      const body = {
        model: opts.model,
        messages: toWireMessages(req.messages),
        ...(req.tools.length ? { tools: req.tools.map((t) => ({ type: 'function', function: t })) } : {}),
        stream: true,
        ...(Object.keys(options).length ? { options } : {}),
      };
      yield* http.stream('/api/chat', body, req.signal, (stream) => parseStream(stream, label, req.signal));
    },

    /**
     * /api/show: the num_ctx the model was set up with (a Modelfile parameter), else the length it
     * was trained for, capped: a 128k window would not fit most machines' memory.
     */
    async modelInfo(signal) {
      const res = await http.request('/api/show', { method: 'POST', body: { model: opts.model } }, signal);
      const body = await res.json();
      const set = count(/(?:^|\n)\s*num_ctx\s+(\d+)/.exec(String(body?.parameters ?? ''))?.[1]);
      const trained = count(Object.entries(body?.model_info ?? {}).find(([k]) => k.endsWith('.context_length'))?.[1]);
      const contextWindow = set ?? (trained ? Math.min(trained, 16_384) : undefined);
      return contextWindow ? { contextWindow } : null;
    },

    async listModels(signal) {
      const body = await http.getJSON('/api/tags', signal);
      return (body?.models ?? []).map((/** @type {{name: string}} */ m) => m.name).filter(Boolean).sort();
    },
  });
}

/**
 * @param {ReadableStream<Uint8Array>} body @param {string} label @param {AbortSignal} [signal]
 * @returns {AsyncGenerator<StreamEvent>}
 */
async function* parseStream(body, label, signal) {
  let calls = 0;
  let done = false;
  for await (const line of readLines(body)) {
    let chunk;
    try { chunk = JSON.parse(line); } catch { throw badChunk(label, line); }
    if (chunk.error) throw midStreamError(label, String(chunk.error));
    const msg = chunk.message ?? {};
    if (typeof msg.content === 'string' && msg.content) yield { type: 'text', text: msg.content };
    for (const tc of msg.tool_calls ?? []) {
      const n = calls++;
      const args = tc.function?.arguments;
      yield { type: 'tool_call_delta', index: n, id: tc.id ?? `ocall_${(++callSeq).toString(36)}`, name: tc.function?.name, argumentsDelta: typeof args === 'string' ? args : JSON.stringify(args ?? {}) };
    }
    if (chunk.done) {
      done = true;
      yield { type: 'usage', usage: { inputTokens: chunk.prompt_eval_count ?? 0, outputTokens: chunk.eval_count ?? 0 } };
      yield { type: 'finish', reason: calls ? 'tool_calls' : (chunk.done_reason ?? 'stop') };
      break;
    }
  }
  if (!done) throw incomplete(label, signal);
}

/** @param {ChatMessage[]} messages */
function toWireMessages(messages) {
  return messages.map((m) => {
    if (m.role === 'tool') return { role: 'tool', content: textOf(m.content), ...(m.name ? { tool_name: m.name } : {}) };
    const images = typeof m.content === 'string' ? [] : m.content.flatMap((p) => p.type === 'image' ? [p.data] : []);
    return {
      role: m.role,
      content: textOf(m.content),
      ...(images.length ? { images } : {}),
      ...(m.toolCalls?.length ? { tool_calls: m.toolCalls.map((c) => ({ function: { name: c.name, arguments: argsObject(c.arguments) } })) } : {}),
    };
  });
}
