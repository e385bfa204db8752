// How a run ends, each way in one place: with an answer (done or text, judged into a verdict), an
// error from the provider, a second empty answer, the step cap, a loop, or the user's Stop. Every
// call the model made gets an answer, so the conversation stays well-formed.
/** @import { DoneCheck, RunOutcome, ToolCall } from '../../types/core' */
/** @import { Run } from './prepare.js' */
import { ProviderError } from '../../providers/errors.js';
import { ABORTED, SKIPPED, toolMessage } from './messages.js';
import { errorOf } from '../error-codes.js';

/**
 * The run ends with an answer (done or text): what the page sends in the settle period after it is
 * held and counted, then the verdict is judged and goes out with the final answer.
 * @param {Run} run @param {'done' | 'answered'} status @param {string} text @param {number} steps @param {DoneCheck} [check]
 * @returns {Promise<RunOutcome>}
 */
export async function finishRun(run, status, text, steps, check) {
  const judged = await run.completion.finish(status, check);
  run.emit({ type: 'final', text, ...(judged.check ? { check: judged.check } : {}), outcome: judged.outcome });
  return { status, text, steps, outcome: judged.outcome };
}

/** The model could not be reached or failed: its error, said in the panel. @param {Run} run @param {unknown} err @param {number} steps @returns {RunOutcome} */
export function providerFailed(run, err, steps) {
  const e = err instanceof ProviderError
    ? { code: err.code, message: err.message }
    : errorOf('INTERNAL_ERROR', `talking to ${run.provider.label}: ${err instanceof Error ? err.message : err}`);
  run.emit({ type: 'error', ...e });
  return { status: 'error', error: e, steps };
}

/**
 * An empty answer (no text, no tool call) is asked for again once; a second one ends the run with
 * an error rather than a blank answer. @param {Run} run @param {number} steps
 * @returns {RunOutcome | null} the end, or null to ask again
 */
export function emptyAnswer(run, steps) {
  if (!run.emptyRetried) { run.emptyRetried = true; return null; }
  const e = errorOf('EMPTY_COMPLETION', run.provider.label);
  run.emit({ type: 'error', ...e });
  return { status: 'error', error: e, steps };
}

/** A budget was reached and nobody raised it: the run ends before the call, saying why. @param {Run} run @param {string} message @param {number} steps @returns {RunOutcome} */
export function budgetReached(run, message, steps) {
  const e = errorOf('BUDGET_REACHED', message);
  run.emit({ type: 'error', ...e });
  return { status: 'error', error: e, steps };
}

/** @param {Run} run @returns {RunOutcome} */
export function stepLimit(run) {
  const e = errorOf('STEP_LIMIT', `${run.maxSteps} steps`);
  run.emit({ type: 'error', ...e });
  return { status: 'step_limit', error: e, steps: run.maxSteps };
}

/** The loop detector stopped the run. @param {Run} run @param {string} why @param {number} steps @returns {RunOutcome} */
export function loopStopped(run, why, steps) {
  const e = errorOf('LOOP_DETECTED', why);
  run.emit({ type: 'error', ...e });
  return { status: 'loop', error: e, steps };
}

/** Keep the conversation well-formed: every call gets an answer. @param {Run} run @param {ToolCall[]} calls */
export function skipRest(run, calls) {
  for (const c of calls) run.messages.push(toolMessage(c, SKIPPED));
}

/** Stop pressed during a batch: the calls not run are answered as stopped. @param {Run} run @param {ToolCall[]} calls @param {number} steps */
export function abortBatch(run, calls, steps) {
  for (const c of calls) run.messages.push(toolMessage(c, ABORTED));
  return stopped(run, steps);
}

/**
 * The person pressed Cancel on the "Your turn" card: the run ends there, kept like a Stop.
 * @param {Run} run @param {import('../../types/handoff').HandoffMoment} m @param {number} steps @returns {RunOutcome}
 */
export function handoffCancelled(run, m, steps) {
  const e = errorOf('HANDOFF_CANCELLED', `${m.site}, ${m.kind.replace('_', ' ')}`);
  run.emit({ type: 'error', ...e });
  return { status: 'aborted', error: e, steps };
}

/** @param {Run} run @param {number} steps @returns {RunOutcome} */
export function stopped(run, steps) {
  run.emit({ type: 'error', ...errorOf('ABORTED') });
  return { status: 'aborted', steps };
}
