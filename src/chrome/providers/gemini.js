// Google Gemini API, natively: streamGenerateContent with alt=sse, functionCall/functionResponse
// parts, inline images, systemInstruction. https://ai.google.dev/api/generate-content
// https://ai.google.dev/gemini-api/docs/function-calling
/** @import { ChatMessage, Provider, StreamEvent, ContentPart, JSONSchema } from '../types/core' */
import { readSSE } from './sse.js';
import { createHttp, incomplete, badChunk, midStreamError } from './http.js';
import { textOf, argsObject } from './message-parts.js';
import { finishProvider } from './base.js';
import { count } from './limits.js';

/** Separates our call number from Gemini's thoughtSignature inside a tool-call id (see below). */
const SIG = '~sig~';
/** Gemini's calls carry no id (before Gemini 3); ours must be unique across the conversation. */
let callSeq = 0;

/**
 * @param {{ baseUrl: string, model: string, apiKey?: string, fetch: typeof fetch, timeoutMs?: number, label?: string }} opts
 * @returns {Provider}
 */
export function createGeminiProvider(opts) {
  const label = opts.label ?? `Google Gemini (${opts.baseUrl.replace(/\/+$/, '')})`;
  const http = createHttp({
    baseUrl: opts.baseUrl, label, fetch: opts.fetch, timeoutMs: opts.timeoutMs,
    headers: () => ({ 'content-type': 'application/json', 'x-goog-api-key': opts.apiKey ?? '' }),
  });
  const model = opts.model.replace(/^models\//, '');

  return finishProvider({
    kind: 'gemini',
    label,
    model,

    async *chatStream(req) {
      const system = req.messages.filter((m) => m.role === 'system').map((m) => textOf(m.content)).join('\n\n');
      const body = {
        contents: toContents(req.messages),
        ...(system ? { systemInstruction: { parts: [{ text: system }] } } : {}),
        ...(req.tools.length ? {
          tools: [{ functionDeclarations: req.tools.map((t) => ({ name: t.name, description: t.description, parameters: toGeminiSchema(t.parameters) })) }],
          toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
        } : {}),
        ...(req.maxTokens || req.temperature !== undefined ? {
          generationConfig: { ...(req.maxTokens ? { maxOutputTokens: req.maxTokens } : {}), ...(req.temperature !== undefined ? { temperature: req.temperature } : {}) },
        } : {}),
      };
      yield* http.stream(`/models/${encodeURIComponent(model)}:streamGenerateContent?alt=sse`, body, req.signal, (stream) => parseStream(stream, label, req.signal));
    },

    /** The model resource says both limits (inputTokenLimit, outputTokenLimit). */
    async modelInfo(signal) {
      const m = await http.getJSON(`/models/${encodeURIComponent(model)}`, signal);
      return { contextWindow: count(m?.inputTokenLimit), maxOutput: count(m?.outputTokenLimit) };
    },

    async listModels(signal) {
      const body = await http.getJSON('/models?pageSize=1000', signal);
      return (body?.models ?? [])
        .filter((/** @type {any} */ m) => !m.supportedGenerationMethods || m.supportedGenerationMethods.includes('generateContent'))
        .map((/** @type {{name: string}} */ m) => m.name.replace(/^models\//, '')).sort();
    },
  });
}

/**
 * Each SSE event is a whole GenerateContentResponse; function calls arrive whole, never split.
 * @param {ReadableStream<Uint8Array>} body @param {string} label @param {AbortSignal} [signal]
 * @returns {AsyncGenerator<StreamEvent>}
 */
async function* parseStream(body, label, signal) {
  let calls = 0;
  let finished = false;
  /** @type {any} */
  let usage = null;
  for await (const { data } of readSSE(body)) {
    let chunk;
    try { chunk = JSON.parse(data); } catch { throw badChunk(label, data); }
    if (chunk.error) throw midStreamError(label, chunk.error.message ?? String(chunk.error));
    if (chunk.usageMetadata) usage = chunk.usageMetadata;
    const cand = chunk.candidates?.[0];
    for (const part of cand?.content?.parts ?? []) {
      if (part.thought) continue; // thought summaries are not the answer
      if (typeof part.text === 'string' && part.text) yield { type: 'text', text: part.text };
      if (part.functionCall) {
        const n = calls++;
        // Gemini 2.5+/3 require the thoughtSignature of a function call to come back with it on
        // the next turn; the tool-call id is the one field that round-trips through the loop.
        const id = `${part.functionCall.id ?? `gcall_${(++callSeq).toString(36)}`}${part.thoughtSignature ? SIG + part.thoughtSignature : ''}`;
        yield { type: 'tool_call_delta', index: n, id, name: part.functionCall.name, argumentsDelta: JSON.stringify(part.functionCall.args ?? {}) };
      }
    }
    if (cand?.finishReason) {
      finished = true;
      if (usage) yield usageEvent(usage);
      usage = null;
      yield { type: 'finish', reason: calls ? 'tool_calls' : String(cand.finishReason).toLowerCase() };
    }
  }
  if (usage) yield usageEvent(usage);
  if (!finished) throw incomplete(label, signal);
}

/** @param {any} u @returns {StreamEvent} */
function usageEvent(u) {
  const cached = u.cachedContentTokenCount ?? 0;
  return { type: 'usage', usage: { inputTokens: u.promptTokenCount ?? 0, outputTokens: (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0), ...(cached ? { cachedInputTokens: cached } : {}) } };
}

/** @param {ChatMessage[]} messages */
function toContents(messages) {
  /** @type {{ role: 'user' | 'model', parts: any[] }[]} */
  const out = [];
  /** @param {'user' | 'model'} role @param {any[]} parts */
  const push = (role, parts) => {
    if (!parts.length) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  };
  /** tool-call id → function name, for functionResponse parts */
  const names = new Map();
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (m.role === 'assistant') {
      const text = textOf(m.content);
      push('model', [
        ...(text ? [{ text }] : []),
        ...(m.toolCalls ?? []).map((c) => {
          names.set(c.id, c.name);
          const [callId, signature] = c.id.split(SIG);
          return {
            functionCall: { ...(callId.startsWith('gcall_') ? {} : { id: callId }), name: c.name, args: argsObject(c.arguments) },
            ...(signature ? { thoughtSignature: signature } : {}),
          };
        }),
      ]);
    } else if (m.role === 'tool') {
      const name = m.name ?? names.get(m.toolCallId ?? '') ?? 'tool';
      // Gemini 3 gives calls an id and matches responses by it; older models match by name.
      const callId = (m.toolCallId ?? '').split(SIG)[0];
      push('user', [{ functionResponse: { ...(callId && !callId.startsWith('gcall_') ? { id: callId } : {}), name, response: { content: textOf(m.content) } } }]);
    } else {
      push('user', partsOf(m.content));
    }
  }
  return out;
}

/** @param {string | ContentPart[]} content */
function partsOf(content) {
  if (typeof content === 'string') return content ? [{ text: content }] : [];
  return content.map((p) => p.type === 'text' ? { text: p.text } : { inlineData: { mimeType: p.mediaType, data: p.data } });
}

/** Gemini's function parameters accept an OpenAPI subset; unknown keywords are a 400. @param {JSONSchema} s @returns {JSONSchema} */
export function toGeminiSchema(s) {
  /** @type {JSONSchema} */
  const out = {};
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type) out.type = type;
  if (Array.isArray(s.type) && s.type.includes('null')) out.nullable = true;
  for (const k of ['description', 'enum', 'format', 'minimum', 'maximum', 'required']) if (s[k] !== undefined) out[k] = s[k];
  if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, toGeminiSchema(v)]));
  if (s.items) out.items = toGeminiSchema(s.items);
  if (out.type === 'object' && !out.properties) out.properties = {};
  return out;
}
