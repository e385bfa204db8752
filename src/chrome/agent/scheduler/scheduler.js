// The scheduler core: stores jobs, decides which are due, runs them one at a time per job, and moves
// each through the state machine (states.js). Browser-free: the clock, the storage, the alarm
// ("wake me at") and the function that runs a job's prompt in a tab are injected, so Node tests it
// over a fake clock. service/jobs.js wires it to browser.alarms, storage.local and the router.
// The parts: the jobs in memory and their saving (job-book.js), due jobs run (due-runs.js), what a
// run leaves on its job (run-record.js), making and editing jobs (job-edits.js, dedupe.js), and
// the person's controls on one job (job-controls.js).
/** @import { Job, JobRun, JobRunResult } from '../../types/jobs' */
import { clone, createJobBook } from './job-book.js';
import { createDueRuns } from './due-runs.js';
import { createJobEdits } from './job-edits.js';
import { createJobControls } from './job-controls.js';

export { ASK_FIRST_TEXT } from './due-runs.js';

/**
 * @typedef {{ ok: true, data: T } | { ok: false, code: import('../error-codes.js').ErrorCode, message: string }} Reply
 * @template T
 */

/**
 * @typedef {object} RunHooks
 * @property {AbortSignal} signal aborted when the job is deleted while it runs
 * @property {(waiting: boolean, why?: import('../../types/jobs').JobWaitReason) => void} setWaiting the run reports it waits for the user (true, and why when it says: a budget, what a site needs of them) or goes on (false)
 */

/**
 * @typedef {object} SchedulerDeps
 * @property {{ now(): number }} clock
 * @property {{ load(): Promise<Job[]>, save(jobs: Job[]): Promise<void> }} store
 * @property {(job: Job, hooks: RunHooks) => Promise<JobRunResult>} runJob runs the job's prompt in its tab and resolves when the run ends
 * @property {(at: number | null) => void} wake asks to be woken (tick()) at this time; null: nothing to wake for
 * @property {(job: Job, run: JobRun) => void} [notify] a run completed, failed or needs the user
 * @property {() => string} [newId]
 * @property {string} [timeZone] the user's IANA zone, the default for calendar schedules
 * @property {() => Promise<JobControls>} [controls] read before due jobs start (the person's settings and the organization's policy)
 * @property {Partial<typeof DEFAULTS>} [options]
 */

/**
 * @typedef {object} JobControls
 * @property {boolean} paused every job is held: due ones wait (queued) and start when this is lifted, once each
 * @property {boolean} askFirst a due job waits for the person (needs_user_input) until they use Run now
 * @property {boolean} [off] the organization switched the scheduler off: not even Run now starts a job
 */

export const DEFAULTS = Object.freeze({
  /** a busy tab is tried again after this long… */
  retryDelayMs: 30_000,
  /** …this many times (an hour) before the run fails */
  maxDeferrals: 120,
  /** the same job created twice within this window is one job (a double click, a model that repeats a call) */
  dedupeWindowMs: 5 * 60_000,
  historyLimit: 20,
  /** while a run is in progress, wake this often, so a worker stopped mid-run is restarted and recovers */
  watchdogMs: 60_000,
  /** restarts that may cut one run short before the job fails instead of looping */
  maxRecoveries: 3,
});

/** @param {SchedulerDeps} deps */
export function createScheduler(deps) {
  const { clock, runJob, wake } = deps;
  const notify = deps.notify ?? (() => {});
  const controls = deps.controls ?? (async () => ({ paused: false, askFirst: false, off: false }));
  const opts = { ...DEFAULTS, ...deps.options };
  let seq = 0;
  const newId = deps.newId ?? (() => `j${clock.now().toString(36)}${(seq++).toString(36)}${Math.random().toString(36).slice(2, 6)}`);

  const book = createJobBook({ clock, store: deps.store, wake, notify, opts });
  const { tick, setWaiting } = createDueRuns(book, { clock, runJob, notify, controls, opts });
  const edits = createJobEdits(book, { clock, controls, tick, newId, timeZone: deps.timeZone ?? 'UTC', dedupeWindowMs: opts.dedupeWindowMs });
  const jobControls = createJobControls(book, { clock, controls, tick });

  return {
    /** Loads, recovers interrupted runs, and runs what is due, once each (missed runs do not burst). */
    async start() {
      await book.loaded();
      return tick();
    },
    tick,

    async list() {
      await book.loaded();
      return book.jobs.map(clone);
    },

    /** @param {string} id */
    async get(id) {
      await book.loaded();
      const job = book.find(id);
      return job ? clone(job) : null;
    },

    create: edits.create,
    update: edits.update,
    pause: jobControls.pause,
    resume: jobControls.resume,
    runNow: jobControls.runNow,
    remove: jobControls.remove,

    /**
     * The background is going away (Firefox unloads its background page on quit or reload). Its runs
     * die with it and may first fail with a cut connection; recording that would turn an interrupted
     * run into a failed one. Frozen, nothing more is saved: the stored state still says running, and
     * the next start recovers the run and runs it again.
     */
    freeze() { book.freeze(); },

    /** The confirmation-gate hook: a job's run waits for the user (true) or goes on (false). */
    setWaiting,

    /** Resolves when every run in progress has ended (tests; a clean shutdown). */
    idle: () => book.idle(),

    /** @param {string} id */
    isRunning(id) { return book.inFlight.has(id); },
  };
}

/** @typedef {ReturnType<typeof createScheduler>} Scheduler */
