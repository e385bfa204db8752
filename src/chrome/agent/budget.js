// The one budget for what a tool result may put before the model, in characters. A tool that fits
// its own output to it (the snapshot summarises regions and names follow-up calls instead of
// cutting) says how much it may return with resultChars(args); every other result is capped at it
// with a note of what was left out. The budget follows the model's context window (budgetsFor).
/** @import { Tool } from '../types/core' */

/** Characters of one tool result the model receives by default (about 7,500 tokens). */
export const RESULT_BUDGET_CHARS = 30_000;

/** Room for what a tool puts around its budgeted text (the snapshot's page line, the fence). */
const FRAME_CHARS = 1_000;

/** Characters per token assumed when a budget in tokens becomes one in characters (outlines run 3.4–4). */
export const CHARS_PER_TOKEN = 3.5;

/**
 * The run's budgets for a context window: one tool result may take a quarter of the window (at
 * most RESULT_BUDGET_CHARS), and an older result is cut to a quarter of that (at most 8,000).
 * @param {number} contextWindow tokens
 * @returns {{ result: number, oldResult: number }}
 */
export function budgetsFor(contextWindow) {
  const result = Math.max(2_000, Math.min(RESULT_BUDGET_CHARS, Math.floor(contextWindow * 0.25 * CHARS_PER_TOKEN)));
  return { result, oldResult: Math.max(800, Math.min(8_000, Math.floor(result / 4))) };
}

/**
 * How many characters of this call's result may reach the model.
 * @param {Tool | undefined} tool @param {Record<string, any> | undefined} args
 * @param {number} [budget] the run's result budget (budgetsFor)
 */
export function resultBudget(tool, args, budget = RESULT_BUDGET_CHARS) {
  const own = tool?.resultChars?.(args ?? {}, budget);
  return typeof own === 'number' && own > 0 ? own + FRAME_CHARS : budget;
}
