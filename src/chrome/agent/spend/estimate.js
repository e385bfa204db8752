// Tokens a request will cost before it is sent, and a call's usage when the provider reports none.
// A rough rule (four characters a token, a fixed count per image) is enough to decide whether the
// next call would pass a budget; a usage built from it is marked estimated so nobody takes it for
// what the provider counted. Browser-free.
/** @import { ChatRequest, ContentPart, Usage } from '../../types/core' */

/** Characters per token for English and code; other scripts run denser, so this errs high on them. */
export const CHARS_PER_TOKEN = 4;
/** What one image costs as input: OpenAI's and Anthropic's counts for a screenshot-sized image are in the hundreds to low thousands. */
export const IMAGE_TOKENS = 1_000;

/** @param {string | ContentPart[]} content */
function contentChars(content) {
  if (typeof content === 'string') return { chars: content.length, images: 0 };
  let chars = 0;
  let images = 0;
  for (const part of content) {
    if (part.type === 'text') chars += part.text.length;
    else images++;
  }
  return { chars, images };
}

/**
 * The input tokens a request will be counted for: its messages, tool calls and the tools offered.
 * @param {Pick<ChatRequest, 'messages' | 'tools'>} req @returns {number}
 */
export function estimateInputTokens(req) {
  let chars = 0;
  let images = 0;
  for (const m of req.messages) {
    const c = contentChars(m.content);
    chars += c.chars + 4;
    images += c.images;
    for (const call of m.toolCalls ?? []) chars += call.name.length + call.arguments.length;
  }
  for (const t of req.tools ?? []) chars += JSON.stringify(t).length;
  return Math.ceil(chars / CHARS_PER_TOKEN) + images * IMAGE_TOKENS;
}

/**
 * A call's usage when the provider said nothing of it: the request's estimate in, what came back out.
 * @param {Pick<ChatRequest, 'messages' | 'tools'>} req @param {number} outputChars @returns {Usage}
 */
export function estimatedUsage(req, outputChars) {
  return { inputTokens: estimateInputTokens(req), outputTokens: Math.ceil(outputChars / CHARS_PER_TOKEN), estimated: true };
}
