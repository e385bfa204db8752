// The scheduler core: stores jobs, decides which are due, runs them one at a time per job, and moves
// each through the state machine (states.js). Browser-free: the clock, the storage, the alarm
// ("wake me at") and the function that runs a job's prompt in a tab are injected, so Node tests it
// over a fake clock. service/jobs.js wires it to browser.alarms, storage.local and the router.
/** @import { Job, JobInput, JobPatch, JobRun, JobRunResult } from '../../types/jobs' */
import { checkJobInput } from './job-input.js';
import { nextRunAt } from './schedule.js';
import { SCHEDULED_STATES, transition } from './states.js';

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

/** The message a job waiting for the person's go-ahead shows. */
export const ASK_FIRST_TEXT = 'Waiting for your go-ahead (Settings → Ask before every scheduled run): use Run now to run it.';

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
  const { clock, store, runJob, wake } = deps;
  const notify = deps.notify ?? (() => {});
  const controls = deps.controls ?? (async () => ({ paused: false, askFirst: false, off: false }));
  /** Every job held by the last tick: due jobs set no alarm meanwhile (a settings change ticks again). */
  let heldAll = false;
  const timeZone = deps.timeZone ?? 'UTC';
  const opts = { ...DEFAULTS, ...deps.options };
  let seq = 0;
  const newId = deps.newId ?? (() => `j${clock.now().toString(36)}${(seq++).toString(36)}${Math.random().toString(36).slice(2, 6)}`);

  /** @type {Job[]} */
  let jobs = [];
  /** @type {Promise<void> | null} */
  let loading = null;
  /** Runs in progress in this incarnation of the background. @type {Map<string, { controller: AbortController, done: Promise<void> }>} */
  const inFlight = new Map();
  /** @type {Promise<void>} */
  let saving = Promise.resolve();
  /** Set while the background is being torn down: nothing more is saved (see freeze()). */
  let frozen = false;

  /** Loads the jobs once and recovers what a restart interrupted. */
  function loaded() {
    loading ??= (async () => {
      jobs = (await store.load()) ?? [];
      recover();
      await persist();
    })();
    return loading;
  }

  /**
   * A job that was running (or waiting for the user inside a run) when the background stopped has no
   * run any more: it goes back to queued and runs again, so no run is silently lost (seed 002).
   */
  function recover() {
    const now = clock.now();
    for (const job of jobs) {
      if (job.runStartedAt === undefined) continue;
      record(job, { startedAt: job.runStartedAt, finishedAt: now, status: 'interrupted', error: { code: 'RESTARTED', message: 'The browser or the extension restarted during this run; it runs again.' } });
      delete job.runStartedAt;
      job.recoveries = (job.recoveries ?? 0) + 1;
      if (job.recoveries > opts.maxRecoveries) {
        transition(job, 'failed', now);
        job.nextRunAt = null;
        const failed = record(job, { startedAt: now, finishedAt: now, status: 'failed', error: { code: 'RESTART_LOOP', message: `The run was cut short by ${job.recoveries} restarts in a row, so it was stopped. Use Run now to try again.` } });
        notify(clone(job), failed);
        continue;
      }
      transition(job, 'queued', now);
      job.nextRunAt = now;
    }
  }

  /** Saves all jobs (in order, one save at a time) and re-arms the wake-up. */
  function persist() {
    if (frozen) return saving;
    const snapshot = jobs.map(clone);
    saving = saving.then(() => store.save(snapshot)).catch(() => { /* the next save writes everything again */ });
    rearm();
    return saving;
  }

  function rearm() {
    /** @type {number | null} */
    let at = null;
    for (const job of jobs) {
      if (heldAll && !job.approved) continue;
      if (SCHEDULED_STATES.has(job.state) && job.nextRunAt !== null && !inFlight.has(job.id)) at = at === null ? job.nextRunAt : Math.min(at, job.nextRunAt);
    }
    if (inFlight.size) {
      const watchdog = clock.now() + opts.watchdogMs;
      at = at === null ? watchdog : Math.min(at, watchdog);
    }
    wake(at);
  }

  /** @param {string} id */
  const find = (id) => jobs.find((j) => j.id === id);

  /** @param {string} id @returns {Reply<never>} */
  const notFound = (id) => ({ ok: false, code: 'NOT_FOUND', message: `There is no job ${id}; it may have been deleted. Reload the jobs list.` });

  /** @param {Job} job @param {JobRun} run */
  function record(job, run) {
    job.history = [...(job.history ?? []), run].slice(-opts.historyLimit);
    job.lastResult = run;
    return run;
  }

  /**
   * Starts every job that is due and not already running, unless the controls hold it: paused, every
   * job waits where it is; asking first, a due job waits for the person's Run now.
   * @returns {Promise<string[]>} the ids started
   */
  async function tick() {
    await loaded();
    const c = await controls().catch(() => ({ paused: true, askFirst: true, off: true }));
    heldAll = c.paused || c.off === true;
    const now = clock.now();
    const due = jobs.filter((j) => SCHEDULED_STATES.has(j.state) && j.nextRunAt !== null && j.nextRunAt <= now && !inFlight.has(j.id));
    /** @type {string[]} */
    const started = [];
    for (const job of due) {
      if (c.off || (c.paused && !job.approved)) continue;
      if (job.state === 'pending') transition(job, 'queued', now);
      if (c.askFirst && !job.approved) { askFirst(job, now); continue; }
      delete job.approved;
      begin(job, now);
      started.push(job.id);
    }
    await persist();
    return started;
  }

  /** A due job waits for the person instead of running: it shows what it waits for, and they are told. @param {Job} job @param {number} now */
  function askFirst(job, now) {
    transition(job, 'needs_user_input', now);
    job.nextRunAt = null;
    const run = record(job, { startedAt: now, finishedAt: now, status: 'needs_user_input', text: ASK_FIRST_TEXT });
    notify(clone(job), run);
  }

  /** @param {Job} job @param {number} now */
  function begin(job, now) {
    transition(job, 'running', now);
    job.runStartedAt = now;
    const controller = new AbortController();
    const started = now;
    const done = (async () => {
      await persist();
      /** @type {JobRunResult} */
      let result;
      try {
        result = await runJob(clone(job), { signal: controller.signal, setWaiting: (w, why) => { void setWaiting(job.id, w, why); } });
      } catch (err) {
        result = { status: 'failed', error: { code: 'INTERNAL_ERROR', message: `The job could not run: ${err instanceof Error ? err.message : err}` } };
      }
      inFlight.delete(job.id);
      await finish(job.id, result, started);
    })();
    inFlight.set(job.id, { controller, done });
  }

  /** @param {string} id @param {JobRunResult} result @param {number} startedAt */
  async function finish(id, result, startedAt) {
    if (frozen) return;
    const job = find(id);
    if (!job) { await persist(); return; } // deleted while it ran
    const now = clock.now();
    delete job.runStartedAt;
    if (result.status !== 'needs_user_input') delete job.waitingFor;
    if (result.status === 'busy') {
      job.deferrals = (job.deferrals ?? 0) + 1;
      if (job.deferrals > opts.maxDeferrals) {
        transition(job, 'failed', now);
        job.nextRunAt = null;
        const run = record(job, { startedAt, finishedAt: now, status: 'failed', error: { code: 'TAB_BUSY', message: `The tab was busy with another run for ${Math.round(opts.maxDeferrals * opts.retryDelayMs / 60_000)} minutes, so this run was given up. Use Run now when the tab is free.` } });
        notify(clone(job), run);
      } else {
        transition(job, 'queued', now);
        job.nextRunAt = now + opts.retryDelayMs;
      }
      await persist();
      return;
    }
    /** @type {JobRun} */
    const run = record(job, {
      startedAt, finishedAt: now, status: result.status,
      ...(result.text !== undefined ? { text: result.text } : {}),
      ...(result.error ? { error: result.error } : {}),
      ...(result.outcome ? { outcome: result.outcome } : {}),
    });
    job.deferrals = 0;
    job.recoveries = 0;
    job.hasRun = true;
    const next = job.schedule.kind === 'once' ? null : nextRunAt(job.schedule, now);
    if (job.pauseAfterRun) {
      delete job.pauseAfterRun;
      transition(job, 'paused', now);
      job.nextRunAt = null;
    } else if (next === null || result.permanent || result.status === 'needs_user_input') {
      // A once job ends in its run's state; a recurring one stops only when it cannot go on by itself.
      transition(job, result.status === 'needs_user_input' ? 'needs_user_input' : next === null ? result.status : 'failed', now);
      job.nextRunAt = null;
    } else {
      transition(job, 'pending', now);
      job.nextRunAt = next;
    }
    if (result.status !== 'cancelled') notify(clone(job), run);
    await persist();
  }

  /** @param {string} id @param {boolean} waiting @param {import('../../types/jobs').JobWaitReason} [why] */
  async function setWaiting(id, waiting, why) {
    await loaded();
    const job = find(id);
    if (!job || !inFlight.has(id)) return;
    const now = clock.now();
    if (waiting && job.state === 'running') {
      transition(job, 'needs_user_input', now);
      // The reason stays on the job while it waits, so the jobs page can say it (a budget reached, a sign-in).
      if (why) job.waitingFor = why; else delete job.waitingFor;
      notify(clone(job), { startedAt: job.runStartedAt ?? now, finishedAt: now, status: 'needs_user_input', ...(why?.message ? { text: why.message } : {}) });
    } else if (waiting && job.state === 'needs_user_input' && why && JSON.stringify(why) !== JSON.stringify(job.waitingFor)) {
      // Still waiting, for something else now (a sign-in led to a second factor).
      job.waitingFor = why;
      job.updatedAt = now;
    } else if (!waiting && job.state === 'needs_user_input') {
      transition(job, 'running', now);
      delete job.waitingFor;
    } else return;
    await persist();
  }

  /**
   * The same job asked for twice within minutes (a double submit, a model repeating its call) is one job.
   * @param {Job} a @param {Omit<Job, 'id'>} b
   */
  function isDuplicate(a, b) {
    if (a.state === 'cancelled' || b.createdAt - a.createdAt > opts.dedupeWindowMs) return false;
    if (a.kind !== b.kind || a.prompt !== b.prompt || a.mode !== b.mode) return false;
    if (JSON.stringify(targetKey(a)) !== JSON.stringify(targetKey(b))) return false;
    if (a.schedule.kind === 'once' && b.schedule.kind === 'once') return Math.abs(a.schedule.runAt - b.schedule.runAt) <= opts.dedupeWindowMs;
    if (a.schedule.kind === 'interval' && b.schedule.kind === 'interval') return a.schedule.minutes === b.schedule.minutes;
    return JSON.stringify(a.schedule) === JSON.stringify(b.schedule);
  }

  return {
    /** Loads, recovers interrupted runs, and runs what is due, once each (missed runs do not burst). */
    async start() {
      await loaded();
      return tick();
    },
    tick,

    async list() {
      await loaded();
      return jobs.map(clone);
    },

    /** @param {string} id */
    async get(id) {
      await loaded();
      const job = find(id);
      return job ? clone(job) : null;
    },

    /** @param {JobInput} input @returns {Promise<Reply<{ job: Job, deduped: boolean }>>} */
    async create(input) {
      await loaded();
      if ((await controls().catch(() => ({ off: true }))).off) return { ok: false, code: 'FEATURE_OFF', message: 'Your organization has turned scheduled jobs off, so no job can be created.' };
      const now = clock.now();
      const checked = checkJobInput(input, { now, timeZone });
      if (!checked.ok) return checked;
      const v = checked.value;
      /** @type {Job} */
      const job = {
        id: newId(), ...v, state: 'pending', nextRunAt: null, createdAt: now, updatedAt: now,
        deferrals: 0, recoveries: 0, hasRun: false, history: [],
      };
      const dup = jobs.find((j) => isDuplicate(j, job));
      if (dup) return { ok: true, data: { job: clone(dup), deduped: true } };
      job.nextRunAt = nextRunAt(job.schedule, now);
      if (job.nextRunAt === null) return { ok: false, code: 'INVALID_SCHEDULE', message: 'This schedule never runs; pick another time.' };
      jobs.push(job);
      await persist();
      if (job.nextRunAt <= now) await tick();
      return { ok: true, data: { job: clone(/** @type {Job} */ (find(job.id) ?? job)), deduped: false } };
    },

    /** @param {string} id @param {JobPatch} patch @returns {Promise<Reply<Job>>} */
    async update(id, patch) {
      await loaded();
      const job = find(id);
      if (!job) return notFound(id);
      if (inFlight.has(id)) return { ok: false, code: 'RUNNING', message: 'The job is running; edit it when the run has ended.' };
      const now = clock.now();
      const scheduleChanged = patch.schedule !== undefined;
      const checked = checkJobInput({
        kind: job.kind, title: patch.title ?? job.title, prompt: patch.prompt ?? job.prompt, mode: patch.mode ?? job.mode,
        target: patch.target ?? job.target, workflow: job.workflow,
        // An unchanged schedule is kept as stored (its anchor and run time are not recomputed).
        schedule: scheduleChanged ? patch.schedule : { kind: 'interval', minutes: 1 },
      }, { now, timeZone });
      if (!checked.ok) return checked;
      const v = checked.value;
      Object.assign(job, { title: v.title, prompt: v.prompt, mode: v.mode, target: v.target, updatedAt: now });
      if (scheduleChanged) {
        job.schedule = v.schedule;
        job.hasRun = false;
        if (job.state !== 'paused') {
          const next = nextRunAt(job.schedule, now);
          if (next === null) return { ok: false, code: 'INVALID_SCHEDULE', message: 'This schedule never runs; pick another time.' };
          if (job.state !== 'pending') transition(job, 'pending', now);
          job.nextRunAt = next;
          job.deferrals = 0;
        }
      }
      await persist();
      if (job.nextRunAt !== null && job.nextRunAt <= now) await tick();
      return { ok: true, data: clone(job) };
    },

    /** @param {string} id @returns {Promise<Reply<Job>>} */
    async pause(id) {
      await loaded();
      const job = find(id);
      if (!job) return notFound(id);
      if (inFlight.has(id)) {
        job.pauseAfterRun = true;
      } else if (job.state !== 'paused') {
        const r = transition(job, 'paused', clock.now());
        if (!r.ok) return r;
        job.nextRunAt = null;
        job.deferrals = 0;
      }
      await persist();
      return { ok: true, data: clone(job) };
    },

    /** Back on its schedule; a once job whose time passed while paused runs now. @param {string} id @returns {Promise<Reply<Job>>} */
    async resume(id) {
      await loaded();
      const job = find(id);
      if (!job) return notFound(id);
      if (inFlight.has(id)) {
        delete job.pauseAfterRun;
        await persist();
        return { ok: true, data: clone(job) };
      }
      const now = clock.now();
      const next = nextRunAt(job.schedule, now, { hasRun: job.schedule.kind === 'once' && job.hasRun });
      if (next === null) return { ok: false, code: 'NOTHING_TO_RESUME', message: 'This one-time job has already run. Use Run now to run it again, or edit its time.' };
      if (job.state !== 'pending') {
        const r = transition(job, 'pending', now);
        if (!r.ok) return r;
      }
      job.nextRunAt = next;
      job.deferrals = 0;
      await persist();
      if (next <= now) await tick();
      return { ok: true, data: clone(/** @type {Job} */ (find(id))) };
    },

    /** Runs the job now, whatever its schedule; a paused job stays paused afterwards. @param {string} id @returns {Promise<Reply<Job>>} */
    async runNow(id) {
      await loaded();
      const job = find(id);
      if (!job) return notFound(id);
      if (inFlight.has(id)) return { ok: false, code: 'RUNNING', message: 'The job is already running.' };
      if ((await controls().catch(() => ({ off: true }))).off) return { ok: false, code: 'FEATURE_OFF', message: 'Your organization has turned scheduled jobs off, so no job runs.' };
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
      return { ok: true, data: clone(/** @type {Job} */ (find(id))) };
    },

    /** Deletes the job; a run in progress is stopped. @param {string} id @returns {Promise<Reply<{ deleted: string }>>} */
    async remove(id) {
      await loaded();
      const i = jobs.findIndex((j) => j.id === id);
      if (i < 0) return notFound(id);
      jobs.splice(i, 1);
      inFlight.get(id)?.controller.abort();
      await persist();
      return { ok: true, data: { deleted: id } };
    },

    /**
     * The background is going away (Firefox unloads its background page on quit or reload). Its runs
     * die with it and may first fail with a cut connection; recording that would turn an interrupted
     * run into a failed one. Frozen, nothing more is saved: the stored state still says running, and
     * the next start recovers the run and runs it again.
     */
    freeze() { frozen = true; },

    /** The confirmation-gate hook: a job's run waits for the user (true) or goes on (false). */
    setWaiting,

    /** Resolves when every run in progress has ended (tests; a clean shutdown). */
    async idle() {
      while (inFlight.size) await Promise.all([...inFlight.values()].map((f) => f.done));
      await saving;
    },

    /** @param {string} id */
    isRunning(id) { return inFlight.has(id); },
  };
}

/** @template T @param {T} v @returns {T} */
function clone(v) {
  return JSON.parse(JSON.stringify(v));
}

/** @param {{ target: Job['target'] }} j */
function targetKey(j) {
  return j.target.type === 'tab' ? { type: 'tab', tabId: j.target.tabId } : { type: 'url', url: j.target.url };
}

/** @typedef {ReturnType<typeof createScheduler>} Scheduler */