// Chrome's built-in on-device model (the Prompt API: the global `LanguageModel`), no key needed.
// providers/ stays browser-free: the platform hands in the LanguageModel object, or null where
// the browser has none. https://developer.chrome.com/docs/ai/prompt-api
// It has no native tool calling, so index.js wraps it in the prompt-based tool protocol.
/** @import { ChatMessage, Provider, StreamEvent } from '../types/core' */
import { ProviderError, builtinMissing, stopped } from './errors.js';
import { textOf } from './message-parts.js';
import { finishProvider } from './base.js';

/**
 * The part of the Prompt API we use.
 * @typedef {object} LanguageModelSession
 * @property {(input: string, opts?: { signal?: AbortSignal }) => AsyncIterable<string>} promptStreaming
 * @property {() => void} destroy
 * @property {number} [inputUsage]
 * @typedef {object} LanguageModelAPI
 * @property {() => Promise<'unavailable' | 'downloadable' | 'downloading' | 'available'>} availability
 * @property {(opts: { initialPrompts?: { role: string, content: string }[], signal?: AbortSignal }) => Promise<LanguageModelSession>} create
 */

const LABEL = "Chrome's built-in model";

/**
 * @param {{ languageModel: LanguageModelAPI | null }} opts
 * @returns {Provider}
 */
export function createBuiltinProvider(opts) {
  const lm = opts.languageModel;
  async function ready() {
    if (!lm) throw builtinMissing(LABEL, false);
    const state = await lm.availability();
    if (state === 'unavailable') throw builtinMissing(LABEL, true);
    return { lm, state };
  }

  return finishProvider({
    kind: 'builtin',
    label: LABEL,
    model: 'gemini-nano',
    caps: { tools: false, vision: false, contextWindow: 6144, maxOutput: 1024 },

    async *chatStream(req) {
      const { lm: api } = await ready();
      const { initial, last } = split(req.messages);
      const session = await api.create({ initialPrompts: initial, signal: req.signal });
      try {
        let out = 0;
        for await (const chunk of session.promptStreaming(last, { signal: req.signal })) {
          out += chunk.length;
          yield { type: 'text', text: chunk };
        }
        // The Prompt API reports input use in tokens, output not at all: estimated at 4 chars a token.
        /** @type {StreamEvent} */
        const usage = { type: 'usage', usage: { inputTokens: session.inputUsage ?? 0, outputTokens: Math.ceil(out / 4), costUsd: 0 } };
        yield usage;
        yield { type: 'finish', reason: 'stop' };
      } catch (err) {
        if (err instanceof ProviderError) throw err;
        if (req.signal?.aborted) throw stopped();
        throw new ProviderError('SERVER_ERROR', `${LABEL} failed: ${err instanceof Error ? err.message : err}.`, { detail: String(err) });
      } finally {
        session.destroy();
      }
    },

    async listModels() {
      const { state } = await ready();
      return [state === 'available' ? 'gemini-nano' : `gemini-nano (${state})`];
    },
  });
}

/** History as initial prompts; the last user message is the prompt. @param {ChatMessage[]} messages */
function split(messages) {
  const initial = messages.map((m) => ({ role: m.role === 'tool' ? 'user' : m.role, content: textOf(m.content) }));
  const lastUser = initial.map((m) => m.role).lastIndexOf('user');
  const last = lastUser >= 0 ? initial.splice(lastUser, 1)[0].content : '';
  return { initial, last };
}
