import { fail } from '../error-codes.js';
// The job state machine: which state may follow which. Every change of Job.state goes through
// transition(), so an impossible move (a deleted run "completing", a paused job starting) is caught.
/** @import { Job, JobState } from '../../types/jobs' */

/** @type {Readonly<Record<JobState, readonly JobState[]>>} */
export const TRANSITIONS = Object.freeze({
  // waiting for its time (an alarm is set)
  pending: ['queued', 'paused'],
  // due: starts as soon as its tab is free; an edit of its schedule puts it back to pending; with
  // "ask before every scheduled run" it waits for the person's Run now instead
  queued: ['running', 'pending', 'paused', 'needs_user_input'],
  // a recurring job goes back to pending after each run; a busy tab or a restart sends it back to queued;
  // a retry limit reached (busy tab) fails it
  running: ['completed', 'failed', 'needs_user_input', 'cancelled', 'pending', 'queued', 'paused'],
  // the run is waiting for the user (a confirmation gate, a question): it goes on, ends, or the user
  // resumes, reruns or pauses the job
  needs_user_input: ['running', 'completed', 'failed', 'cancelled', 'pending', 'queued', 'paused'],
  paused: ['pending', 'queued'],
  // the ends of a once job's life (and of a recurring job that cannot go on): Run now, resume or an
  // edit brings it back
  completed: ['queued', 'pending'],
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
  // Staying put is no move (Run now on a job already queued, a run that ends still waiting for the user).
  if (job.state === to) { job.updatedAt = now; return { ok: true }; }
  if (!canTransition(job.state, to)) {
    return fail('INVALID_TRANSITION', `a ${job.state.replace(/_/g, ' ')} job cannot become ${to.replace(/_/g, ' ')}`);
  }
  job.state = to;
  job.updatedAt = now;
  return { ok: true };
}
