// The scheduler's jobs in memory: loaded once from the store (runs a restart cut short recovered
// first), saved in order after each change, and the one wake-up re-armed with every save.
/** @import { Job, JobRun } from '../../types/jobs' */
import { recoverRun } from './run-record.js';
import { SCHEDULED_STATES } from './states.js';
import { fail } from '../error-codes.js';

/** @typedef {{ controller: AbortController, done: Promise<void> }} InFlight */

/**
 * @param {object} deps
 * @param {{ now(): number }} deps.clock
 * @param {{ load(): Promise<Job[]>, save(jobs: Job[]): Promise<void> }} deps.store
 * @param {(at: number | null) => void} deps.wake
 * @param {(job: Job, run: JobRun) => void} deps.notify
 * @param {typeof import('./scheduler.js').DEFAULTS} deps.opts
 */
export function createJobBook({ clock, store, wake, notify, opts }) {
  /** @type {Job[]} */
  let jobs = [];
  /** @type {Promise<void> | null} */
  let loading = null;
  /** @type {Promise<void>} */
  let saving = Promise.resolve();
  /** Set while the background is being torn down: nothing more is saved (see freeze()). */
  let frozen = false;
  /** Runs in progress in this incarnation of the background. @type {Map<string, InFlight>} */
  const inFlight = new Map();

  const book = {
    get jobs() { return jobs; },
    inFlight,
    /** Every job held by the last tick: due jobs set no alarm meanwhile (a settings change ticks again). */
    heldAll: false,
    get frozen() { return frozen; },

    /** Loads the jobs once and recovers what a restart interrupted. */
    loaded() {
      loading ??= (async () => {
        jobs = (await store.load()) ?? [];
        const now = clock.now();
        for (const job of jobs) {
          const failed = recoverRun(job, now, opts);
          if (failed) notify(clone(job), failed);
        }
        await book.persist();
      })();
      return loading;
    },

    /** Saves all jobs (in order, one save at a time) and re-arms the wake-up. */
    persist() {
      if (frozen) return saving;
      const snapshot = jobs.map(clone);
      saving = saving.then(() => store.save(snapshot)).catch(() => { /* the next save writes everything again */ });
      wake(nextWake(jobs, { heldAll: book.heldAll, inFlight, now: clock.now(), watchdogMs: opts.watchdogMs }));
      return saving;
    },

    /** @param {string} id */
    find: (id) => jobs.find((j) => j.id === id),

    /** Takes the job out of the book; false when there is none. @param {string} id */
    remove(id) {
      const i = jobs.findIndex((j) => j.id === id);
      if (i < 0) return false;
      jobs.splice(i, 1);
      return true;
    },

    freeze() { frozen = true; },

    /** Resolves when every run in progress has ended and the last save is done. */
    async idle() {
      while (inFlight.size) await Promise.all([...inFlight.values()].map((f) => f.done));
      await saving;
    },
  };
  return book;
}

/** @typedef {ReturnType<typeof createJobBook>} JobBook */

/**
 * When the scheduler must wake next: the earliest due time of a scheduled job not running (none
 * while every job is held, except one the person approved), and a watchdog while runs are in
 * progress, so a worker stopped mid-run is restarted and recovers. Null: nothing to wake for.
 * @param {Job[]} jobs @param {{ heldAll: boolean, inFlight: Map<string, unknown>, now: number, watchdogMs: number }} state
 * @returns {number | null}
 */
export function nextWake(jobs, { heldAll, inFlight, now, watchdogMs }) {
  /** @type {number | null} */
  let at = null;
  for (const job of jobs) {
    if (heldAll && !job.approved) continue;
    if (SCHEDULED_STATES.has(job.state) && job.nextRunAt !== null && !inFlight.has(job.id)) at = at === null ? job.nextRunAt : Math.min(at, job.nextRunAt);
  }
  if (inFlight.size) {
    const watchdog = now + watchdogMs;
    at = at === null ? watchdog : Math.min(at, watchdog);
  }
  return at;
}

/** @param {string} id @returns {{ ok: false, code: 'NOT_FOUND', message: string }} */
export const notFound = (id) => (fail('NOT_FOUND', `no job ${id}; it may have been deleted, reload the jobs list`));

/** A deep copy: callers never hold the book's own objects. @template T @param {T} v @returns {T} */
export function clone(v) {
  return JSON.parse(JSON.stringify(v));
}
