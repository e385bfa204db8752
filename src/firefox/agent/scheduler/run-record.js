// What a run leaves on its job: the history entry, and the state the job moves to when the run
// ends, waits for the person, or was cut short by a restart. Pure: the caller saves and notifies.
/** @import { Job, JobRun, JobRunResult, JobWaitReason } from '../../types/jobs' */
import { nextRunAt } from './schedule.js';
import { transition } from './states.js';
import { errorOf } from '../error-codes.js';

/** @typedef {{ maxDeferrals: number, retryDelayMs: number, historyLimit: number, maxRecoveries: number }} RunLimits */

/** Adds a run to the job's history (the newest `limit` kept) and makes it the last result. @param {Job} job @param {JobRun} run @param {number} limit */
export function record(job, run, limit) {
  job.history = [...(job.history ?? []), run].slice(-limit);
  job.lastResult = run;
  return run;
}

/**
 * A job that was running (or waiting for the user inside a run) when the background stopped has no
 * run any more: it goes back to queued and runs again, so no run is silently lost; after too many
 * restarts in a row it fails instead of looping.
 * @param {Job} job @param {number} now @param {RunLimits} limits
 * @returns {JobRun | null} the failed run to tell the person about, if it failed
 */
export function recoverRun(job, now, limits) {
  if (job.runStartedAt === undefined) return null;
  record(job, { startedAt: job.runStartedAt, finishedAt: now, status: 'interrupted', error: errorOf('RESTARTED', 'it runs again') }, limits.historyLimit);
  delete job.runStartedAt;
  job.recoveries = (job.recoveries ?? 0) + 1;
  if (job.recoveries > limits.maxRecoveries) {
    transition(job, 'failed', now);
    job.nextRunAt = null;
    return record(job, { startedAt: now, finishedAt: now, status: 'failed', error: errorOf('RESTART_LOOP', `${job.recoveries} restarts in a row, so it was stopped; use Run now to try again`) }, limits.historyLimit);
  }
  transition(job, 'queued', now);
  job.nextRunAt = now;
  return null;
}

/**
 * A run ended: it is recorded on its job and the job moves on (see deferBusy and moveOn).
 * @param {Job} job @param {JobRunResult} result @param {number} startedAt @param {number} now @param {RunLimits} limits
 * @returns {JobRun | null} the run to tell the person about (none for a cancelled run or a busy tab tried again)
 */
export function settleRun(job, result, startedAt, now, limits) {
  delete job.runStartedAt;
  if (result.status !== 'needs_user_input') delete job.waitingFor;
  if (result.status === 'busy') return deferBusy(job, startedAt, now, limits);
  const run = record(job, {
    startedAt, finishedAt: now, status: result.status,
    ...(result.text !== undefined ? { text: result.text } : {}),
    ...(result.error ? { error: result.error } : {}),
    ...(result.outcome ? { outcome: result.outcome } : {}),
  }, limits.historyLimit);
  job.deferrals = 0;
  job.recoveries = 0;
  job.hasRun = true;
  moveOn(job, result, now);
  return result.status === 'cancelled' ? null : run;
}

/**
 * The job's tab was busy with another run: it is tried again after a delay, and given up (failed)
 * once it has waited longer than the deferrals allow.
 * @param {Job} job @param {number} startedAt @param {number} now @param {RunLimits} limits @returns {JobRun | null}
 */
export function deferBusy(job, startedAt, now, limits) {
  job.deferrals = (job.deferrals ?? 0) + 1;
  if (job.deferrals <= limits.maxDeferrals) {
    transition(job, 'queued', now);
    job.nextRunAt = now + limits.retryDelayMs;
    return null;
  }
  transition(job, 'failed', now);
  job.nextRunAt = null;
  return record(job, { startedAt, finishedAt: now, status: 'failed', error: errorOf('TAB_BUSY', `another run held it for ${Math.round(limits.maxDeferrals * limits.retryDelayMs / 60_000)} minutes, so this run was given up; use Run now when the tab is free`) }, limits.historyLimit);
}

/**
 * Where a job goes after a run: paused when the person paused it mid-run; a once job ends in its
 * run's state; a recurring one is pending for its next time unless it cannot go on by itself.
 * @param {Job} job @param {JobRunResult} result @param {number} now
 */
export function moveOn(job, result, now) {
  const next = job.schedule.kind === 'once' ? null : nextRunAt(job.schedule, now);
  if (job.pauseAfterRun) {
    delete job.pauseAfterRun;
    transition(job, 'paused', now);
    job.nextRunAt = null;
  } else if (next === null || result.permanent || result.status === 'needs_user_input') {
    // A once job ends in its run's state (never busy here: a busy tab was deferred before).
    const ended = /** @type {import('../../types/jobs').JobState} */ (result.status);
    transition(job, result.status === 'needs_user_input' ? 'needs_user_input' : next === null ? ended : 'failed', now);
    job.nextRunAt = null;
  } else {
    transition(job, 'pending', now);
    job.nextRunAt = next;
  }
}

/**
 * A running job's run waits for the person (waiting, and why when it says) or goes on.
 * @param {Job} job @param {boolean} waiting @param {JobWaitReason | undefined} why @param {number} now
 * @returns {{ changed: boolean, run?: JobRun }} whether the job changed, and the moment to tell the person about when it starts waiting
 */
export function applyWaiting(job, waiting, why, now) {
  if (waiting && job.state === 'running') {
    transition(job, 'needs_user_input', now);
    // The reason stays on the job while it waits, so the jobs page can say it (a budget reached, a sign-in).
    if (why) job.waitingFor = why; else delete job.waitingFor;
    return { changed: true, run: { startedAt: job.runStartedAt ?? now, finishedAt: now, status: 'needs_user_input', ...(why?.message ? { text: why.message } : {}) } };
  }
  if (waiting && job.state === 'needs_user_input' && why && JSON.stringify(why) !== JSON.stringify(job.waitingFor)) {
    // Still waiting, for something else now (a sign-in led to a second factor).
    job.waitingFor = why;
    job.updatedAt = now;
    return { changed: true };
  }
  if (!waiting && job.state === 'needs_user_input') {
    transition(job, 'running', now);
    delete job.waitingFor;
    return { changed: true };
  }
  return { changed: false };
}
