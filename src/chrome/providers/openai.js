// OpenAI Chat Completions wire format (also spoken by Ollama's /v1, LM Studio, vLLM, OpenRouter, …).
// https://platform.openai.com/docs/api-reference/chat/create
/** @import { ChatMessage, ChatRequest, Provider, StreamEvent, ContentPart } from '../types/core' */
import { ProviderError, httpError, networkError } from './errors.js';
import { readSSE } from './sse.js';

/**
 * @typedef {object} OpenAIOptions
 * @property {string} baseUrl e.g. http://localhost:11434/v1
 * @property {string} model
 * @property {string} [apiKey]
 * @property {typeof fetch} fetch injected so Node tests and the extension share this code
 * @property {string} [label]
 * @property {number} [timeoutMs] time allowed for the response headers and between stream chunks
 */

/**
 * @param {OpenAIOptions} opts
 * @returns {Provider}
 */
export function createOpenAIProvider(opts) {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const label = opts.label ?? `OpenAI-compatible (${baseUrl})`;
  const timeoutMs = opts.timeoutMs ?? 90_000;

  /** @returns {Record<string, string>} */
  function headers() {
    /** @type {Record<string, string>} */
    const h = { 'content-type': 'application/json' };
    if (opts.apiKey) h.authorization = `Bearer ${opts.apiKey}`;
    return h;
  }

  /**
   * @param {string} path
   * @param {RequestInit} init
   * @param {AbortSignal} [signal]
   */
  async function request(path, init, signal) {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
    let res;
    try {
      res = await opts.fetch(`${baseUrl}${path}`, { ...init, headers: headers(), signal: combined });
    } catch (err) {
      if (timeout.signal.aborted && !signal?.aborted) {
        throw new ProviderError('TIMEOUT', `${label} did not answer within ${Math.round(timeoutMs / 1000)} s. Try again, or raise the time-out in Settings.`, { retryable: true });
      }
      throw networkError(label, err, signal);
    } finally {
      clearTimeout(timer);
    }
    if (!res.ok) throw httpError(label, res.status, await res.text().catch(() => ''), res.headers);
    return res;
  }

  return {
    kind: 'openai',
    label,
    model: opts.model,

    async *chatStream(req) {
      const body = {
        model: opts.model,
        messages: req.messages.map(toWireMessage),
        stream: true,
        stream_options: { include_usage: true },
        ...(req.tools.length ? { tools: req.tools.map((t) => ({ type: 'function', function: t })), tool_choice: 'auto' } : {}),
        ...(req.maxTokens ? { max_tokens: req.maxTokens } : {}),
        ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      };
      const res = await request('/chat/completions', { method: 'POST', body: JSON.stringify(body) }, req.signal);
      if (!res.body) throw new ProviderError('BAD_RESPONSE', `${label} sent an empty response.`, { retryable: true });
      yield* parseStream(res.body, label, req.signal);
    },

    async listModels(signal) {
      const res = await request('/models', { method: 'GET' }, signal);
      const body = await res.json();
      return (body?.data ?? []).map((/** @type {{id: string}} */ m) => m.id).filter(Boolean).sort();
    },
  };
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
  try {
    for await (const { data } of readSSE(body)) {
      if (data === '[DONE]') { sawDone = true; break; }
      let chunk;
      try { chunk = JSON.parse(data); } catch {
        throw new ProviderError('BAD_RESPONSE', `${label} sent a stream chunk that is not JSON.`, { retryable: true, detail: data.slice(0, 200) });
      }
      if (chunk.error) {
        const msg = typeof chunk.error === 'string' ? chunk.error : chunk.error.message;
        throw new ProviderError('SERVER_ERROR', `${label} reported an error mid-stream: "${msg}". Try again.`, { retryable: true, detail: msg });
      }
      if (chunk.usage) {
        yield { type: 'usage', usage: { inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 } };
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
          argumentsDelta: tc.function?.arguments ?? undefined,
        };
      }
      if (choice.finish_reason) {
        finished = true;
        yield { type: 'finish', reason: choice.finish_reason };
      }
    }
  } catch (err) {
    if (err instanceof ProviderError) throw err;
    if (signal?.aborted) throw new ProviderError('ABORTED', 'The run was stopped.');
    throw new ProviderError('STREAM_CUT', `The connection to ${label} broke mid-answer. Try again.`, { retryable: true, detail: String(err) });
  }
  if (!finished && !sawDone) {
    if (signal?.aborted) throw new ProviderError('ABORTED', 'The run was stopped.');
    throw new ProviderError('STREAM_CUT', `${label} ended the answer before it was complete. Try again.`, { retryable: true });
  }
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

/** @param {string | ContentPart[]} content */
function textOf(content) {
  if (typeof content === 'string') return content;
  return content.filter((p) => p.type === 'text').map((p) => /** @type {{text: string}} */ (p).text).join('\n');
}
