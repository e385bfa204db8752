// The job state machine: which state may follow which. Every change of Job.state goes through
// transition(), so an impossible move (a deleted run "completing", a paused job starting) is caught.
/** @import { Job, JobState } from '../../types/jobs' */

/** @type {Readonly<Record<JobState, readonly JobState[]>>} */
export const TRANSITIONS = Object.freeze({
  // waiting for its time (an alarm is set)
  pending: ['queued', 'paused', 'cancelled'],
  // due: starts as soon as its tab is free; a busy tab defers it (queued again) until retries run out
  queued: ['running', 'queued', 'pending', 'paused', 'cancelled', 'failed'],
  // a recurring job goes back to pending after each run; a restart or a busy tab sends it back to queued
  running: ['completed', 'failed', 'needs_user_input', 'cancelled', 'pending', 'queued', 'paused'],
  // the run is waiting for the user (a confirmation gate, a question); it goes on or ends from here
  needs_user_input: ['running', 'completed', 'failed', 'cancelled', 'pending', 'queued', 'paused'],
  paused: ['pending', 'queued', 'cancelled'],
  // the ends of a once job's life; "run now", resume or an edit brings it back
  completed: ['queued', 'pending', 'paused'],
  failed: ['queued', 'pending', 'paused'],
  cancelled: ['queued', 'pending'],
});

/** States in which a job runs again without the user: an alarm is set for it. */
export const SCHEDULED_STATES = new Set(['pending', 'queued']);

/** @param {JobState} from @param {JobState} to */
export function canTransition(from, to) {
  return TRANSITIONS[from]?.includes(to) ?? false;
}

/**
 * @param {Job} job @param {JobState} to @param {number} now
 * @returns {{ ok: true } | { ok: false, code: 'INVALID_TRANSITION', message: string }}
 */
export function transition(job, to, now) {
  if (!canTransition(job.state, to)) {
    return { ok: false, code: 'INVALID_TRANSITION', message: `A ${job.state.replace(/_/g, ' ')} job cannot become ${to.replace(/_/g, ' ')}.` };
  }
  job.state = to;
  job.updatedAt = now;
  return { ok: true };
}
