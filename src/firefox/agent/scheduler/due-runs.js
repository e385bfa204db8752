// Due jobs become runs: each tick starts what is due (unless the controls hold it), a run's end is
// written on its job, and a run that waits for the person says so on its job.
/** @import { Job, JobRun, JobRunResult, JobWaitReason } from '../../types/jobs' */
/** @import { JobBook } from './job-book.js' */
/** @import { JobControls, RunHooks } from './scheduler.js' */
import { clone } from './job-book.js';
import { applyWaiting, record, settleRun } from './run-record.js';
import { SCHEDULED_STATES, transition } from './states.js';
import { errorOf } from '../error-codes.js';

/** The message a job waiting for the person's go-ahead shows. */
export const ASK_FIRST_TEXT = 'Waiting for your go-ahead (Settings → Ask before every scheduled run): use Run now to run it.';

/** What a failed controls read means: everything held, so nothing runs that the person did not allow. */
const HOLD_ALL = Object.freeze({ paused: true, askFirst: true, off: true });

/**
 * @param {JobBook} book
 * @param {object} deps
 * @param {{ now(): number }} deps.clock
 * @param {(job: Job, hooks: RunHooks) => Promise<JobRunResult>} deps.runJob
 * @param {(job: Job, run: JobRun) => void} deps.notify
 * @param {() => Promise<JobControls>} deps.controls
 * @param {typeof import('./scheduler.js').DEFAULTS} deps.opts
 */
export function createDueRuns(book, { clock, runJob, notify, controls, opts }) {
  /**
   * Starts every job that is due and not already running, unless the controls hold it: paused, every
   * job waits where it is; asking first, a due job waits for the person's Run now.
   * @returns {Promise<string[]>} the ids started
   */
  async function tick() {
    await book.loaded();
    const c = await controls().catch(() => HOLD_ALL);
    book.heldAll = c.paused || c.off === true;
    const now = clock.now();
    const due = book.jobs.filter((j) => SCHEDULED_STATES.has(j.state) && j.nextRunAt !== null && j.nextRunAt <= now && !book.inFlight.has(j.id));
    /** @type {string[]} */
    const started = [];
    for (const job of due) {
      if (c.off || (c.paused && !job.approved)) continue;
      if (job.state === 'pending') transition(job, 'queued', now);
      if (c.askFirst && !job.approved) { notify(clone(job), askFirst(job, now, opts.historyLimit)); continue; }
      delete job.approved;
      begin(job, now);
      started.push(job.id);
    }
    await book.persist();
    return started;
  }

  /** Starts the job's run without waiting for it; its end is written by finish(). @param {Job} job @param {number} now */
  function begin(job, now) {
    transition(job, 'running', now);
    job.runStartedAt = now;
    const controller = new AbortController();
    const done = (async () => {
      await book.persist();
      /** @type {JobRunResult} */
      let result;
      try {
        result = await runJob(clone(job), { signal: controller.signal, setWaiting: (w, why) => { void setWaiting(job.id, w, why); } });
      } catch (err) {
        result = { status: 'failed', error: errorOf('INTERNAL_ERROR', `the job could not run: ${err instanceof Error ? err.message : err}`) };
      }
      book.inFlight.delete(job.id);
      await finish(job.id, result, now);
    })();
    book.inFlight.set(job.id, { controller, done });
  }

  /** @param {string} id @param {JobRunResult} result @param {number} startedAt */
  async function finish(id, result, startedAt) {
    if (book.frozen) return;
    const job = book.find(id);
    if (!job) { await book.persist(); return; } // deleted while it ran
    const run = settleRun(job, result, startedAt, clock.now(), opts);
    if (run) notify(clone(job), run);
    await book.persist();
  }

  /** The confirmation-gate hook of a running job. @param {string} id @param {boolean} waiting @param {JobWaitReason} [why] */
  async function setWaiting(id, waiting, why) {
    await book.loaded();
    const job = book.find(id);
    if (!job || !book.inFlight.has(id)) return;
    const change = applyWaiting(job, waiting, why, clock.now());
    if (change.run) notify(clone(job), change.run);
    if (change.changed) await book.persist();
  }

  return { tick, setWaiting };
}

/**
 * A due job waits for the person instead of running: it shows what it waits for (the caller tells them).
 * @param {Job} job @param {number} now @param {number} historyLimit @returns {JobRun} the run to tell the person about
 */
export function askFirst(job, now, historyLimit) {
  transition(job, 'needs_user_input', now);
  job.nextRunAt = null;
  return record(job, { startedAt: now, finishedAt: now, status: 'needs_user_input', text: ASK_FIRST_TEXT }, historyLimit);
}
