// The person's controls on one job: pause, resume, Run now and delete.
/** @import { Job } from '../../types/jobs' */
/** @import { JobBook } from './job-book.js' */
/** @import { JobControls, Reply } from './scheduler.js' */
import { clone, notFound } from './job-book.js';
import { nextRunAt } from './schedule.js';
import { transition } from './states.js';
import { fail } from '../error-codes.js';

/**
 * @typedef {object} ControlDeps
 * @property {JobBook} book
 * @property {{ now(): number }} clock
 * @property {() => Promise<JobControls>} controls
 * @property {() => Promise<string[]>} tick
 */

/** @param {JobBook} book @param {Omit<ControlDeps, 'book'>} deps */
export function createJobControls(book, deps) {
  const c = { book, ...deps };
  return {
    /** @param {string} id */
    pause: (id) => pauseJob(c, id),
    /** @param {string} id */
    resume: (id) => resumeJob(c, id),
    /** @param {string} id */
    runNow: (id) => runJobNow(c, id),
    /** @param {string} id */
    remove: (id) => removeJob(c, id),
  };
}

/** A running job pauses when its run ends. @param {ControlDeps} c @param {string} id @returns {Promise<Reply<Job>>} */
export async function pauseJob({ book, clock }, id) {
  await book.loaded();
  const job = book.find(id);
  if (!job) return notFound(id);
  if (book.inFlight.has(id)) {
    job.pauseAfterRun = true;
  } else if (job.state !== 'paused') {
    const r = transition(job, 'paused', clock.now());
    if (!r.ok) return r;
    job.nextRunAt = null;
    job.deferrals = 0;
  }
  await book.persist();
  return { ok: true, data: clone(job) };
}

/** Back on its schedule; a once job whose time passed while paused runs now. @param {ControlDeps} c @param {string} id @returns {Promise<Reply<Job>>} */
export async function resumeJob({ book, clock, tick }, id) {
  await book.loaded();
  const job = book.find(id);
  if (!job) return notFound(id);
  if (book.inFlight.has(id)) {
    delete job.pauseAfterRun;
    await book.persist();
    return { ok: true, data: clone(job) };
  }
  const now = clock.now();
  const next = nextRunAt(job.schedule, now, { hasRun: job.schedule.kind === 'once' && job.hasRun });
  if (next === null) return fail('NOTHING_TO_RESUME', 'this one-time job has already run; use Run now to run it again, or edit its time');
  if (job.state !== 'pending') {
    const r = transition(job, 'pending', now);
    if (!r.ok) return r;
  }
  job.nextRunAt = next;
  job.deferrals = 0;
  await book.persist();
  if (next <= now) await tick();
  return { ok: true, data: clone(/** @type {Job} */ (book.find(id))) };
}

/** Runs the job now, whatever its schedule; a paused job stays paused afterwards. @param {ControlDeps} c @param {string} id @returns {Promise<Reply<Job>>} */
export async function runJobNow({ book, clock, controls, tick }, id) {
  await book.loaded();
  const job = book.find(id);
  if (!job) return notFound(id);
  if (book.inFlight.has(id)) return fail('RUNNING', 'the job is already running');
  if ((await controls().catch(() => ({ off: true }))).off) return fail('FEATURE_OFF', 'scheduled jobs, so no job runs');
  const now = clock.now();
  const wasPaused = job.state === 'paused';
  const r = transition(job, 'queued', now);
  if (!r.ok) return r;
  if (wasPaused) job.pauseAfterRun = true;
  // The person's own click: it runs even while every job is paused or runs ask first.
  job.approved = true;
  job.nextRunAt = now;
  job.deferrals = 0;
  await tick();
  return { ok: true, data: clone(/** @type {Job} */ (book.find(id))) };
}

/** Deletes the job; a run in progress is stopped. @param {ControlDeps} c @param {string} id @returns {Promise<Reply<{ deleted: string }>>} */
export async function removeJob({ book }, id) {
  await book.loaded();
  if (!book.remove(id)) return notFound(id);
  book.inFlight.get(id)?.controller.abort();
  await book.persist();
  return { ok: true, data: { deleted: id } };
}
