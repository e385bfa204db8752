import { errorOf } from '../error-codes.js';
// How an agent run's outcome maps onto a job run's result.
/** @import { RunOutcome } from '../../types/core' */
/** @import { JobRunResult } from '../../types/jobs' */

/**
 * done/answered → completed; aborted (the user pressed Stop) → cancelled; error/step_limit → failed.
 * The confirmation-gate hook: a run that ends because it waits for the user reports the
 * status 'needs_user_input' (or sets `waitingForUser: true`) and the job becomes needs_user_input.
 * @param {RunOutcome | (Omit<RunOutcome, 'status'> & { status: string, waitingForUser?: boolean })} outcome
 * @returns {JobRunResult}
 */
export function resultFromOutcome(outcome) {
  const o = /** @type {{ status: string, text?: string, error?: { code: string, message: string }, waitingForUser?: boolean }} */ (outcome);
  const text = o.text;
  if (o.status === 'needs_user_input' || o.waitingForUser) {
    return { status: 'needs_user_input', ...(text ? { text } : {}), ...(o.error ? { error: o.error } : {}) };
  }
  switch (o.status) {
    case 'done':
    case 'answered':
      return { status: 'completed', ...(text !== undefined ? { text } : {}) };
    case 'aborted':
      return { status: 'cancelled', error: o.error ?? errorOf('ABORTED', 'before it finished') };
    default:
      return { status: 'failed', error: o.error ?? errorOf('RUN_FAILED', `status ${o.status}`) };
  }
}
