// The one budget for what a tool result may put before the model, in characters. A tool that fits
// its own output to it (the snapshot summarises regions and names follow-up calls instead of
// cutting) says how much it may return with resultChars(args); every other result is capped at it
// with a note of what was left out. Issue 16 makes it follow the model's context window.
/** @import { Tool } from '../types/core' */

/** Characters of one tool result the model receives by default (about 7,500 tokens). */
export const RESULT_BUDGET_CHARS = 30_000;

/** Room for what a tool puts around its budgeted text (the snapshot's page line, the fence). */
const FRAME_CHARS = 1_000;

/**
 * How many characters of this call's result may reach the model.
 * @param {Tool | undefined} tool @param {Record<string, any> | undefined} args
 */
export function resultBudget(tool, args) {
  const own = tool?.resultChars?.(args ?? {});
  return typeof own === 'number' && own > 0 ? own + FRAME_CHARS : RESULT_BUDGET_CHARS;
}
