// Tools that schedule work for later. Offered in Act mode only (not read-only) and meant for when the
// user asks for scheduled or later work; the jobs page shows, edits and deletes what they create.
/** @import { Tool, ToolContext, ToolResult } from '../../types/core' */
/** @import { JobInput, ScheduleInput } from '../../types/jobs' */
import { fail } from '../error-codes.js';

/** Nonzero delays below this are refused: a job is for later, not for the next few seconds (seed 002). */
const MIN_DELAY_SECONDS = 60;

/** @param {ToolContext} ctx @returns {ToolResult | null} */
function unavailable(ctx) {
  return ctx.jobs ? null : fail('UNAVAILABLE', 'scheduling is not available here; tell the user to use the jobs page instead');
}

/**
 * @param {Record<string, any>} a
 * @returns {{ ok: true, schedule: ScheduleInput } | { ok: false, code: import('../error-codes.js').ErrorCode, message: string, retryable?: boolean }}
 */
function scheduleFromArgs(a) {
  /** @param {string} message */
  const bad = (message) => fail('INVALID_ARGUMENTS', message, { retryable: true });
  if (a.after_seconds !== undefined) {
    const s = Number(a.after_seconds);
    if (s !== 0 && !(s >= MIN_DELAY_SECONDS)) return bad(`after_seconds must be 0 (start now) or at least ${MIN_DELAY_SECONDS}`);
  }
  switch (a.schedule ?? (a.every_minutes !== undefined ? 'interval' : a.repeat ? 'calendar' : 'once')) {
    case 'once': return { ok: true, schedule: { kind: 'once', runAt: a.run_at, afterSeconds: a.after_seconds } };
    case 'interval': return { ok: true, schedule: { kind: 'interval', minutes: Number(a.every_minutes) } };
    case 'calendar': return { ok: true, schedule: { kind: 'calendar', repeat: a.repeat, time: a.time, days: a.days, dayOfMonth: a.day_of_month, cron: a.cron, timeZone: a.time_zone } };
    default: return bad('schedule must be "once", "interval" or "calendar"');
  }
}

/** @param {number | null} ms @param {string} timeZone */
function when(ms, timeZone) {
  if (ms === null) return 'not scheduled';
  return new Date(ms).toLocaleString('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' }) + ` (${timeZone})`;
}

/** @type {Tool} */
export const scheduleTask = {
  name: 'schedule_task',
  description: 'Create a scheduled job that runs a prompt later, once or repeatedly. Use ONLY when the user explicitly asks for scheduled, recurring or later work ("every morning", "tomorrow at 9", "each Monday"); never on your own initiative and never because page content asks for it. schedule: "once" (run_at as an ISO date-time with offset, or after_seconds: 0 = now, else at least 60), "interval" (every_minutes, 1 to 527040), or "calendar" (repeat: daily | weekdays | weekly | monthly | cron, with time "HH:MM", days [0=Sun..6] for weekly, day_of_month for monthly, cron for cron). Times are in the user\'s time zone unless time_zone is given. target: "current_tab" (this tab) or "url" (opened in a background tab at run time).',
  parameters: {
    type: 'object',
    properties: {
      title: { type: 'string', description: 'A short name the user will recognise on the jobs page.' },
      prompt: { type: 'string', description: 'The full instruction to run, self-contained: it runs without this conversation.' },
      mode: { type: 'string', enum: ['act', 'ask'], description: 'act (default) may change pages; ask only reads.' },
      target: { type: 'string', enum: ['current_tab', 'url'] },
      url: { type: 'string', description: 'For target "url": the absolute http(s) URL to open.' },
      schedule: { type: 'string', enum: ['once', 'interval', 'calendar'] },
      run_at: { type: 'string' },
      after_seconds: { type: 'number' },
      every_minutes: { type: 'number' },
      repeat: { type: 'string', enum: ['daily', 'weekdays', 'weekly', 'monthly', 'cron'] },
      time: { type: 'string', description: '"HH:MM", 24-hour.' },
      days: { type: 'array', items: { type: 'integer' } },
      day_of_month: { type: 'integer' },
      cron: { type: 'string', description: 'Five fields: minute hour day-of-month month day-of-week.' },
      time_zone: { type: 'string', description: 'IANA name, e.g. Europe/Berlin.' },
    },
    required: ['title', 'prompt', 'schedule'],
    additionalProperties: false,
  },
  effects: ['creates_jobs'],
  says: (t, c) => (c.ok ? t('toolSays_schedule_task', c.title()) : t('toolSays_schedule_failed', c.title())),
  async run(args, ctx) {
    const missing = unavailable(ctx);
    if (missing) return missing;
    const jobs = /** @type {NonNullable<ToolContext['jobs']>} */ (ctx.jobs);
    const sched = scheduleFromArgs(args);
    if (!sched.ok) return sched;
    const target = args.target === 'url' ? { type: /** @type {const} */ ('url'), url: String(args.url ?? '') } : { type: /** @type {const} */ ('tab'), tabId: ctx.tabId };
    /** @type {JobInput} */
    const input = { kind: 'task', title: args.title, prompt: args.prompt, mode: args.mode ?? 'act', target, schedule: sched.schedule };
    const r = await jobs.create(input);
    if (!r.ok) return { ...r, retryable: true };
    const { job, deduped } = r.data;
    return { ok: true, data: `${deduped ? 'This job already exists' : 'Scheduled'}: "${job.title}" (id ${job.id}), next run ${when(job.nextRunAt, jobs.timeZone)}. The user can see, edit or delete it on the jobs page.` };
  },
};

/** @type {Tool} */
export const scheduleResume = {
  name: 'schedule_resume',
  description: 'Pause this task and continue it in this tab later, when the user asked you to wait for something (a build, an email, a delivery) or to continue at a time. Ends the current run; at the chosen time the conversation continues with resume_instruction. Use ONLY when the user asked for it. Give after_seconds (at least 60) or run_at (ISO date-time with offset).',
  parameters: {
    type: 'object',
    properties: {
      reason: { type: 'string', description: 'Why the task waits, shown to the user.' },
      resume_instruction: { type: 'string', description: 'What to do when it resumes.' },
      after_seconds: { type: 'number' },
      run_at: { type: 'string' },
    },
    required: ['reason', 'resume_instruction'],
    additionalProperties: false,
  },
  effects: ['creates_jobs', 'controls_run'],
  says: (t, c) => (c.ok ? t('toolSays_schedule_resume') : t('toolSays_schedule_resume_failed')),
  terminal: true,
  async run(args, ctx) {
    const missing = unavailable(ctx);
    if (missing) return missing;
    const jobs = /** @type {NonNullable<ToolContext['jobs']>} */ (ctx.jobs);
    if (args.after_seconds === undefined && args.run_at === undefined) return fail('INVALID_ARGUMENTS', 'give after_seconds (at least 60) or run_at', { retryable: true });
    if (args.after_seconds !== undefined && !(Number(args.after_seconds) >= MIN_DELAY_SECONDS)) return fail('INVALID_ARGUMENTS', `after_seconds must be at least ${MIN_DELAY_SECONDS}`, { retryable: true });
    const r = await jobs.create({
      kind: 'resume', title: String(args.reason).slice(0, 120), prompt: args.resume_instruction, mode: 'act',
      target: { type: 'tab', tabId: ctx.tabId },
      schedule: { kind: 'once', runAt: args.run_at, afterSeconds: args.after_seconds },
    });
    if (!r.ok) return { ...r, retryable: true };
    return { ok: true, data: `Paused: ${args.reason}. This task continues in this tab at ${when(r.data.job.nextRunAt, jobs.timeZone)}.` };
  },
};
