// Turns a tool result into the text the model reads. Page content is untrusted data: it is fenced
// so the model can tell it apart from the user's words (see prompts.js).
/** @import { ToolResult } from '../types/core' */

export const UNTRUSTED_OPEN = '<untrusted_page_content>';
export const UNTRUSTED_CLOSE = '</untrusted_page_content>';
const MAX_RESULT_CHARS = 12_000;

/**
 * @param {ToolResult} result
 * @param {{ pageContent?: boolean }} [opts] pageContent: the data came from the page
 */
export function formatToolResult(result, opts = {}) {
  if (!result.ok) return `Error ${result.code}: ${result.message}`;
  const data = result.data;
  let text = typeof data === 'string' ? data : JSON.stringify(data);
  if (text === undefined) text = 'ok';
  if (text.length > MAX_RESULT_CHARS) {
    text = `${text.slice(0, MAX_RESULT_CHARS)}\n[… truncated ${text.length - MAX_RESULT_CHARS} characters]`;
  }
  if (opts.pageContent) {
    // Neutralise a closing fence inside the page so a page cannot end the fence early.
    text = text.split(UNTRUSTED_CLOSE).join('</untrusted_page_content_>');
    return `${UNTRUSTED_OPEN}\n${text}\n${UNTRUSTED_CLOSE}`;
  }
  return text;
}
