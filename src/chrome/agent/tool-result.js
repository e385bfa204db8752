// Turns a tool result into the text the model reads. Page content is untrusted data: it is fenced
// (agent/untrusted.js) so the model can tell it apart from the user's words, errors included.
/** @import { ToolResult } from '../types/core' */
/** @import { Fence } from './untrusted.js' */
import { ERROR_CODES, isErrorCode, detailOf } from './error-codes.js';
import { RESULT_BUDGET_CHARS } from './budget.js';

/**
 * @param {ToolResult} result
 * @param {{ fence?: Fence, pageContent?: boolean, maxChars?: number }} [opts] pageContent: the result (or the error's message) came from the page, through fence;
 *   maxChars: this call's budget (agent/budget.js resultBudget), default the one budget
 */
export function formatToolResult(result, opts = {}) {
  const fenced = opts.pageContent && opts.fence ? opts.fence : null;
  if (!result.ok) {
    if (!fenced) return `Error ${result.code}: ${result.message}`;
    // The code and its catalog sentence are Tabwright's; the specifics may quote the page.
    const sentence = isErrorCode(result.code) ? ERROR_CODES[result.code] : '';
    return `Error ${result.code}:${sentence ? ` ${sentence}` : ''} Details:\n${fenced.wrap(detailOf(result.code, result.message))}`;
  }
  const data = result.data;
  let text = typeof data === 'string' ? data : JSON.stringify(data);
  if (text === undefined) text = 'ok';
  const max = opts.maxChars ?? RESULT_BUDGET_CHARS;
  if (text.length > max) {
    text = `${text.slice(0, max)}\n[… truncated ${text.length - max} characters: ask for less at a time (a narrower request, a page range, a subtree)]`;
  }
  return fenced ? fenced.wrap(text) : text;
}
