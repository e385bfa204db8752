// OpenAI Chat Completions wire format (also spoken by OpenRouter, Groq, Mistral, DeepSeek, xAI,
// Together, Fireworks, Azure OpenAI, LM Studio, llama.cpp, vLLM, Jan, LocalAI: see presets.js).
// https://platform.openai.com/docs/api-reference/chat/create
/** @import { ChatMessage, Provider, StreamEvent, Capabilities } from '../types/core' */
import { readSSE } from './sse.js';
import { createHttp, incomplete, badChunk, midStreamError } from './http.js';
import { textOf } from './message-parts.js';
import { finishProvider } from './base.js';
import { count } from './limits.js';

/**
 * @typedef {object} OpenAIOptions
 * @property {string} baseUrl e.g. http://localhost:11434/v1
 * @property {string} model
 * @property {string} [apiKey]
 * @property {typeof fetch} fetch injected so Node tests and the extension share this code
 * @property {string} [label]
 * @property {string} [kind] the preset id, reported as Provider.kind
 * @property {number} [timeoutMs] time allowed for the response headers
 * @property {'bearer' | 'api-key'} [auth] Azure OpenAI sends the key in an `api-key` header
 * @property {string} [query] appended to every URL (Azure: api-version=…)
 * @property {boolean} [streamUsage] send stream_options.include_usage (default true; some local servers reject it)
 * @property {Record<string, string>} [extraHeaders] e.g. OpenRouter's HTTP-Referer / X-Title
 * @property {string[]} [models] the service lists no models (Perplexity, Workers AI): these instead
 * @property {Partial<Capabilities>} [caps]
 */

/**
 * @param {OpenAIOptions} opts
 * @returns {Provider}
 */
export function createOpenAIProvider(opts) {
  const label = opts.label ?? `OpenAI-compatible (${opts.baseUrl.replace(/\/+$/, '')})`;
  const http = createHttp({
    baseUrl: opts.baseUrl, label, fetch: opts.fetch, timeoutMs: opts.timeoutMs, query: opts.query,
    headers() {
      /** @type {Record<string, string>} */
      const h = { 'content-type': 'application/json', ...(opts.extraHeaders ?? {}) };
      if (opts.apiKey) {
        if (opts.auth === 'api-key') h['api-key'] = opts.apiKey;
        else h.authorization = `Bearer ${opts.apiKey}`;
      }
      return h;
    },
  });

  return finishProvider({
    kind: opts.kind ?? 'openai',
    label,
    model: opts.model,
    caps: opts.caps,

    async *chatStream(req) {
      const body = {
        model: opts.model,
        messages: req.messages.map(toWireMessage),
        stream: true,
        ...(opts.streamUsage === false ? {} : { stream_options: { include_usage: true } }),
        ...(req.tools.length ? { tools: req.tools.map((t) => ({ type: 'function', function: t })), tool_choice: 'auto' } : {}),
        ...(req.maxTokens ? { max_tokens: req.maxTokens } : {}),
        ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      };
      yield* http.stream('/chat/completions', body, req.signal, (stream) => parseStream(stream, label, req.signal));
    },

    // OpenRouter, Together and Groq list a context length per model, vLLM its max_model_len, LM Studio
    // the length it loaded the model with; OpenAI itself says nothing (the table answers).
    async modelInfo(signal) {
      if (opts.auth === 'api-key' || opts.models) return null;
      const body = await http.getJSON('/models', signal);
      const m = (body?.data ?? []).find((/** @type {any} */ x) => x?.id === opts.model);
      if (!m) return null;
      return {
        contextWindow: count(m.loaded_context_length ?? m.context_length ?? m.context_window ?? m.max_model_len ?? m.max_context_length ?? m.top_provider?.context_length),
        maxOutput: count(m.max_completion_tokens ?? m.top_provider?.max_completion_tokens ?? m.max_output_tokens),
      };
    },

    async listModels(signal) {
      if (opts.auth === 'api-key') return [opts.model]; // Azure: the deployment is the model
      if (opts.models) return [...opts.models];
      const body = await http.getJSON('/models', signal);
      return (body?.data ?? []).map((/** @type {{id: string}} */ m) => m.id).filter(Boolean).sort();
    },
  });
}

/**
 * @param {ReadableStream<Uint8Array>} body
 * @param {string} label
 * @param {AbortSignal} [signal]
 * @returns {AsyncGenerator<StreamEvent>}
 */
async function* parseStream(body, label, signal) {
  let finished = false;
  let sawDone = false;
  for await (const { data } of readSSE(body)) {
    if (data === '[DONE]') { sawDone = true; break; }
    let chunk;
    try { chunk = JSON.parse(data); } catch { throw badChunk(label, data); }
    if (chunk.error) throw midStreamError(label, typeof chunk.error === 'string' ? chunk.error : chunk.error.message);
    if (chunk.usage) {
      const cached = chunk.usage.prompt_tokens_details?.cached_tokens;
      yield { type: 'usage', usage: { inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0, ...(cached ? { cachedInputTokens: cached } : {}) } };
    }
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string' && delta.content) yield { type: 'text', text: delta.content };
    for (const tc of delta.tool_calls ?? []) {
      yield {
        type: 'tool_call_delta',
        index: tc.index ?? 0,
        id: tc.id || undefined,
        name: tc.function?.name || undefined,
        // Some servers (llama.cpp, older vLLM) send arguments as an object rather than text.
        argumentsDelta: typeof tc.function?.arguments === 'object' && tc.function.arguments !== null
          ? JSON.stringify(tc.function.arguments) : tc.function?.arguments ?? undefined,
      };
    }
    if (choice.finish_reason) {
      finished = true;
      yield { type: 'finish', reason: choice.finish_reason };
    }
  }
  if (!finished && !sawDone) throw incomplete(label, signal);
}

/** @param {ChatMessage} m */
function toWireMessage(m) {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: textOf(m.content) };
  if (m.role === 'assistant') {
    return {
      role: 'assistant',
      content: textOf(m.content) || null,
      ...(m.toolCalls?.length ? {
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
      } : {}),
    };
  }
  if (typeof m.content === 'string') return { role: m.role, content: m.content };
  return {
    role: m.role,
    content: m.content.map((p) => p.type === 'text'
      ? { type: 'text', text: p.text }
      : { type: 'image_url', image_url: { url: `data:${p.mediaType};base64,${p.data}` } }),
  };
}
