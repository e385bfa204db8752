// Making and editing jobs: a new job (a repeat within minutes is the same job), and an edit of its
// title, prompt, mode, target or schedule.
/** @import { Job, JobInput, JobPatch } from '../../types/jobs' */
/** @import { JobBook } from './job-book.js' */
/** @import { JobControls, Reply } from './scheduler.js' */
import { checkJobInput } from './job-input.js';
import { clone, notFound } from './job-book.js';
import { isDuplicate } from './dedupe.js';
import { nextRunAt } from './schedule.js';
import { transition } from './states.js';
import { fail } from '../error-codes.js';

/**
 * @param {JobBook} book
 * @param {object} deps
 * @param {{ now(): number }} deps.clock
 * @param {() => Promise<JobControls>} deps.controls
 * @param {() => Promise<string[]>} deps.tick
 * @param {() => string} deps.newId
 * @param {string} deps.timeZone
 * @param {number} deps.dedupeWindowMs
 */
export function createJobEdits(book, { clock, controls, tick, newId, timeZone, dedupeWindowMs }) {
  return {
    /** @param {JobInput} input @returns {Promise<Reply<{ job: Job, deduped: boolean }>>} */
    async create(input) {
      await book.loaded();
      if ((await controls().catch(() => ({ off: true }))).off) return fail('FEATURE_OFF', 'scheduled jobs, so no job can be created');
      const now = clock.now();
      const checked = checkJobInput(input, { now, timeZone });
      if (!checked.ok) return checked;
      /** @type {Job} */
      const job = {
        id: newId(), ...checked.value, state: 'pending', nextRunAt: null, createdAt: now, updatedAt: now,
        deferrals: 0, recoveries: 0, hasRun: false, history: [],
      };
      const dup = book.jobs.find((j) => isDuplicate(j, job, dedupeWindowMs));
      if (dup) return { ok: true, data: { job: clone(dup), deduped: true } };
      job.nextRunAt = nextRunAt(job.schedule, now);
      if (job.nextRunAt === null) return fail('INVALID_SCHEDULE', 'it never runs; pick another time');
      book.jobs.push(job);
      await book.persist();
      if (job.nextRunAt <= now) await tick();
      return { ok: true, data: { job: clone(/** @type {Job} */ (book.find(job.id) ?? job)), deduped: false } };
    },

    /** @param {string} id @param {JobPatch} patch @returns {Promise<Reply<Job>>} */
    async update(id, patch) {
      await book.loaded();
      const job = book.find(id);
      if (!job) return notFound(id);
      if (book.inFlight.has(id)) return fail('RUNNING', 'the job is running; edit it when the run has ended');
      const now = clock.now();
      const checked = checkJobInput(patchedInput(job, patch), { now, timeZone });
      if (!checked.ok) return checked;
      const v = checked.value;
      Object.assign(job, { title: v.title, prompt: v.prompt, mode: v.mode, target: v.target, updatedAt: now });
      if (patch.schedule !== undefined && !reschedule(job, v.schedule, now)) return fail('INVALID_SCHEDULE', 'it never runs; pick another time');
      await book.persist();
      if (job.nextRunAt !== null && job.nextRunAt <= now) await tick();
      return { ok: true, data: clone(job) };
    },
  };
}

/**
 * The job as the patch would leave it, in the shape checkJobInput checks. An unchanged schedule is
 * kept as stored (its anchor and run time are not recomputed), so a placeholder stands in for it.
 * @param {Job} job @param {JobPatch} patch @returns {JobInput}
 */
export function patchedInput(job, patch) {
  return {
    kind: job.kind, title: patch.title ?? job.title, prompt: patch.prompt ?? job.prompt, mode: patch.mode ?? job.mode,
    target: patch.target ?? job.target, workflow: job.workflow,
    schedule: patch.schedule !== undefined ? patch.schedule : { kind: 'interval', minutes: 1 },
  };
}

/**
 * A new schedule: the job counts as not run under it, and unless paused it is pending for the
 * schedule's next time. False when that schedule never runs.
 * @param {Job} job @param {Job['schedule']} schedule @param {number} now
 */
export function reschedule(job, schedule, now) {
  job.schedule = schedule;
  job.hasRun = false;
  if (job.state === 'paused') return true;
  const next = nextRunAt(job.schedule, now);
  if (next === null) return false;
  if (job.state !== 'pending') transition(job, 'pending', now);
  job.nextRunAt = next;
  job.deferrals = 0;
  return true;
}
