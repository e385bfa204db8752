// Context management: keeps a long run inside the model's context window (seed 002, WebBrain's
// _manageContext). Compaction replaces older turns with a model-written summary and keeps the
// system prompt, the original task and the last turns verbatim; images are pruned to the last few
// and old tool results capped on every request; a context-overflow error trims hard once.
/** @import { ChatMessage, CompactionReason, ContentPart } from '../types/core' */

export const SUMMARY_PREFIX = '[Summary of the earlier part of this task, written when the conversation was compacted]';

/**
 * @typedef {object} CompactionConfig
 * @property {number} maxMessages compact above this many messages
 * @property {number} maxChars compact above this many characters of message text
 * @property {number} windowShare compact when the prompt reaches this share of the context window
 * @property {number} contextWindow tokens, when the provider does not say
 * @property {number} keepLast messages kept verbatim at the end
 * @property {number} keepImages messages that keep their images, counted from the end
 * @property {number} toolResultCap characters kept of each tool result but the latest
 * @property {number} overflowKeep messages kept after a context-overflow error
 */
/** @type {CompactionConfig} */
export const COMPACTION_DEFAULTS = Object.freeze({
  maxMessages: 50, maxChars: 80_000, windowShare: 0.75, contextWindow: 128_000,
  keepLast: 30, keepImages: 4, toolResultCap: 8_000, overflowKeep: 6,
});

/** @param {ChatMessage['content']} content */
export function textOf(content) {
  return typeof content === 'string' ? content : content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}

/** @param {ChatMessage[]} messages */
export function charCount(messages) {
  let n = 0;
  for (const m of messages) n += textOf(m.content).length + (m.toolCalls ?? []).reduce((s, c) => s + c.name.length + c.arguments.length, 0);
  return n;
}

/**
 * Which trigger fires, if any. Tokens come from the provider's reported usage of the last
 * request when there is one (it includes the system prompt and tool schemas), else chars / 4.
 * @param {ChatMessage[]} messages
 * @param {CompactionConfig} cfg
 * @param {number | null} [reportedTokens]
 * @returns {CompactionReason | null}
 */
export function compactionReason(messages, cfg, reportedTokens) {
  if (messages.length > cfg.maxMessages) return 'messages';
  const chars = charCount(messages);
  if (chars > cfg.maxChars) return 'chars';
  const tokens = reportedTokens ?? Math.ceil(chars / 4);
  if (tokens >= cfg.windowShare * cfg.contextWindow) return 'tokens';
  return null;
}

/** Where the kept head ends: the system prompt and the original task. @param {ChatMessage[]} messages */
function headLength(messages) {
  const task = messages.findIndex((m) => m.role === 'user');
  return task < 0 ? (messages[0]?.role === 'system' ? 1 : 0) : task + 1;
}

/**
 * The start of the verbatim tail: at most `keep` messages, never starting with a tool result
 * whose call would be cut off (wire formats reject an orphan tool message).
 * @param {ChatMessage[]} messages @param {number} keep @param {number} head
 */
function tailStart(messages, keep, head) {
  let start = Math.max(head, messages.length - keep);
  while (start < messages.length && messages[start].role === 'tool') start++;
  return start;
}

/**
 * Replace the middle of the conversation with a summary, in place (the session persists the result).
 * @param {ChatMessage[]} messages
 * @param {CompactionConfig} cfg
 * @param {(older: ChatMessage[]) => Promise<string>} summarize writes the summary (a model call)
 * @returns {Promise<{ before: number, after: number } | null>} null when there is nothing old enough to fold
 */
export async function compact(messages, cfg, summarize) {
  const head = headLength(messages);
  const start = tailStart(messages, cfg.keepLast, head);
  if (start - head < 2) return null;
  const older = messages.slice(head, start);
  const summary = await summarize(older);
  const before = messages.length;
  messages.splice(head, start - head, { role: 'user', content: `${SUMMARY_PREFIX}\n${summary}` });
  return { before, after: messages.length };
}

/**
 * The hard fallback after the provider still rejects the request as too long: head, the last
 * summary if any, and the last few messages. In place.
 * @param {ChatMessage[]} messages @param {number} keep
 */
export function trimHard(messages, keep) {
  const head = headLength(messages);
  const start = tailStart(messages, keep, head);
  const summary = messages.slice(head, start).filter((m) => m.role === 'user' && textOf(m.content).startsWith(SUMMARY_PREFIX)).slice(-1);
  const before = messages.length;
  messages.splice(head, start - head, ...summary.map((m) => ({ ...m, content: textOf(m.content).slice(0, 4_000) })));
  return { before, after: messages.length };
}

/**
 * What is sent on each request: images only in the last `keepImages` messages that have them,
 * and every tool result but the latest capped. The stored conversation is not changed.
 * @param {ChatMessage[]} messages @param {CompactionConfig} cfg @returns {ChatMessage[]}
 */
export function prepareForRequest(messages, cfg) {
  let imagesLeft = cfg.keepImages;
  const lastTool = messages.findLastIndex((m) => m.role === 'tool');
  const out = new Array(messages.length);
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (Array.isArray(m.content) && m.content.some((p) => p.type === 'image')) {
      if (imagesLeft > 0) { imagesLeft--; out[i] = m; continue; }
      out[i] = { ...m, content: m.content.map((p) => (p.type === 'image' ? /** @type {ContentPart} */ ({ type: 'text', text: '[image removed to save context]' }) : p)) };
      continue;
    }
    if (m.role === 'tool' && i !== lastTool && typeof m.content === 'string' && m.content.length > cfg.toolResultCap) {
      out[i] = { ...m, content: `${m.content.slice(0, cfg.toolResultCap)}\n[… ${m.content.length - cfg.toolResultCap} older characters cut to save context]` };
      continue;
    }
    out[i] = m;
  }
  return out;
}

/**
 * The older turns as text for the summarizer, bounded so the summary request itself fits.
 * @param {ChatMessage[]} older @param {number} [max]
 */
export function transcriptForSummary(older, max = 24_000) {
  const lines = [];
  for (const m of older) {
    const text = textOf(m.content);
    if (m.role === 'assistant') {
      if (text) lines.push(`assistant: ${text.slice(0, 1_000)}`);
      for (const c of m.toolCalls ?? []) lines.push(`assistant called ${c.name} ${c.arguments.slice(0, 300)}`);
    } else if (m.role === 'tool') {
      lines.push(`result of ${m.name ?? 'tool'}: ${text.slice(0, 600)}`);
    } else {
      lines.push(`${m.role}: ${text.slice(0, 2_000)}`);
    }
  }
  const all = lines.join('\n');
  return all.length > max ? `[… earliest part cut]\n${all.slice(-max)}` : all;
}

/** When the summarizer fails, a mechanical summary still keeps the run going. @param {ChatMessage[]} older */
export function fallbackSummary(older) {
  const calls = older.flatMap((m) => m.toolCalls ?? []).map((c) => `${c.name} ${c.arguments.slice(0, 80)}`);
  return `(automatic summary: the model could not write one) ${calls.length} tool calls were made, the last ones: ${calls.slice(-10).join('; ')}`;
}
