// Schedule kinds and when each runs next: once (run_at / after_seconds), interval (1 minute to
// 1 year, in elapsed time), and calendar (daily, weekdays, weekly, monthly, cron) in wall-clock time
// of the user's IANA time zone.
/** @import { Schedule, ScheduleInput } from '../../types/jobs' */
import { parseCron, nextCron } from './cron.js';
import { addDays, daysInMonth, instantOf, isValidTimeZone, wallAt } from './zoned-time.js';
import { fail } from '../error-codes.js';

export const MIN_INTERVAL_MINUTES = 1;
export const MAX_INTERVAL_MINUTES = 366 * 24 * 60;
const REPEATS = ['daily', 'weekdays', 'weekly', 'monthly', 'cron'];

/** @typedef {{ ok: false, code: 'INVALID_SCHEDULE', message: string }} ScheduleError */

/** @param {string} message @returns {ScheduleError} */
const bad = (message) => (fail('INVALID_SCHEDULE', message));

/**
 * Checks what a user or the model asked for and turns it into a stored schedule.
 * Relative parts (after_seconds, the interval's start) are fixed against `now`.
 * @param {ScheduleInput} input
 * @param {{ now: number, timeZone: string }} ctx
 * @returns {{ ok: true, schedule: Schedule } | ScheduleError}
 */
export function normalizeSchedule(input, ctx) {
  if (!input || typeof input !== 'object') return bad('Give a schedule: { kind: "once" | "interval" | "calendar", … }.');
  switch (input.kind) {
    case 'once': return onceSchedule(input, ctx);
    case 'interval': return intervalSchedule(input, ctx);
    case 'calendar': return calendarSchedule(input, ctx);
    default:
      return bad(`Unknown schedule kind ${JSON.stringify(/** @type {any} */ (input).kind)}; use once, interval or calendar.`);
  }
}

/**
 * A one-time run: after_seconds from now, or at run_at (an ISO date and time or epoch milliseconds).
 * @param {Extract<ScheduleInput, { kind: 'once' }>} input @param {{ now: number }} ctx
 * @returns {{ ok: true, schedule: Schedule } | ScheduleError}
 */
export function onceSchedule(input, ctx) {
  if (input.afterSeconds !== undefined && input.afterSeconds !== null) {
    const s = Number(input.afterSeconds);
    if (!Number.isFinite(s) || s < 0) return bad(`after_seconds must be a number of seconds, 0 or more; got ${JSON.stringify(input.afterSeconds)}.`);
    return { ok: true, schedule: { kind: 'once', runAt: ctx.now + Math.round(s * 1000) } };
  }
  const at = typeof input.runAt === 'number' ? input.runAt : Date.parse(String(input.runAt ?? ''));
  if (!Number.isFinite(at)) return bad(`run_at must be a date and time such as "2026-03-08T09:00:00-05:00"; got ${JSON.stringify(input.runAt)}. Or give after_seconds.`);
  return { ok: true, schedule: { kind: 'once', runAt: at } };
}

/**
 * Every N minutes in elapsed time, from its start (one period from now unless given).
 * @param {Extract<ScheduleInput, { kind: 'interval' }>} input @param {{ now: number }} ctx
 * @returns {{ ok: true, schedule: Schedule } | ScheduleError}
 */
export function intervalSchedule(input, ctx) {
  const minutes = Number(input.minutes);
  if (!Number.isFinite(minutes) || minutes < MIN_INTERVAL_MINUTES || minutes > MAX_INTERVAL_MINUTES) {
    return bad(`An interval runs every 1 minute to 1 year (${MAX_INTERVAL_MINUTES} minutes); got ${JSON.stringify(input.minutes)} minutes.`);
  }
  const start = input.startAt === undefined ? ctx.now + minutes * 60_000 : (typeof input.startAt === 'number' ? input.startAt : Date.parse(String(input.startAt)));
  if (!Number.isFinite(start)) return bad(`The interval's start must be a date and time; got ${JSON.stringify(input.startAt)}.`);
  return { ok: true, schedule: { kind: 'interval', minutes, anchorAt: start } };
}

/**
 * Wall-clock repeats in an IANA zone (the user's unless given): a cron line, or a time of day with
 * the days it applies to.
 * @param {Extract<ScheduleInput, { kind: 'calendar' }>} input @param {{ now: number, timeZone: string }} ctx
 * @returns {{ ok: true, schedule: Schedule } | ScheduleError}
 */
export function calendarSchedule(input, ctx) {
  const timeZone = input.timeZone || ctx.timeZone;
  if (!isValidTimeZone(timeZone)) return bad(`"${timeZone}" is not a time zone this browser knows; use an IANA name such as "Europe/Berlin".`);
  const repeat = input.repeat;
  if (!repeat || !REPEATS.includes(repeat)) return bad(`repeat must be one of ${REPEATS.join(', ')}; got ${JSON.stringify(repeat)}.`);
  if (repeat === 'cron') {
    const parsed = parseCron(String(input.cron ?? ''));
    if (!parsed.ok) return bad(parsed.message);
    if (nextCron(parsed.cron, ctx.now, timeZone) === null) return bad(`"${input.cron}" never runs (no such date in the next eight years).`);
    return { ok: true, schedule: { kind: 'calendar', repeat, cron: String(input.cron).trim(), timeZone } };
  }
  const time = parseTime(input.time);
  if (!time) return bad(`time must be "HH:MM" on a 24-hour clock, e.g. "09:00"; got ${JSON.stringify(input.time)}.`);
  if (repeat === 'weekly') {
    const days = [...new Set((input.days ?? []).map(Number))].sort((a, b) => a - b);
    if (!days.length || days.some((d) => !Number.isInteger(d) || d < 0 || d > 6)) return bad('A weekly schedule needs days: a list of weekdays, 0 = Sunday … 6 = Saturday.');
    return { ok: true, schedule: { kind: 'calendar', repeat, time: time.text, days, timeZone } };
  }
  if (repeat === 'monthly') {
    const day = Number(input.dayOfMonth);
    if (!Number.isInteger(day) || day < 1 || day > 31) return bad(`A monthly schedule needs day_of_month 1–31; got ${JSON.stringify(input.dayOfMonth)}.`);
    return { ok: true, schedule: { kind: 'calendar', repeat, time: time.text, dayOfMonth: day, timeZone } };
  }
  return { ok: true, schedule: { kind: 'calendar', repeat, time: time.text, timeZone } };
}

/** @param {unknown} value */
function parseTime(value) {
  const m = /^(\d{1,2}):(\d{2})$/.exec(String(value ?? '').trim());
  if (!m) return null;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  if (hour > 23 || minute > 59) return null;
  return { hour, minute, text: `${String(hour).padStart(2, '0')}:${m[2]}` };
}

/**
 * When the schedule runs next, strictly after `afterMs`; null when it never runs again.
 * A once schedule runs at runAt, or right away when that has passed and it has not run yet
 * (`hasRun` false): a run missed while the browser was closed runs once at start.
 * @param {Schedule} s @param {number} afterMs @param {{ hasRun?: boolean }} [state]
 * @returns {number | null}
 */
export function nextRunAt(s, afterMs, state = {}) {
  switch (s.kind) {
    case 'once':
      return state.hasRun ? null : s.runAt;
    case 'interval': {
      const period = s.minutes * 60_000;
      if (afterMs < s.anchorAt) return s.anchorAt;
      // The next slot on the anchor's grid: missed slots collapse into one, no burst.
      return s.anchorAt + (Math.floor((afterMs - s.anchorAt) / period) + 1) * period;
    }
    case 'calendar':
      return nextCalendar(s, afterMs);
  }
}

/** @param {Extract<Schedule, { kind: 'calendar' }>} s @param {number} afterMs */
function nextCalendar(s, afterMs) {
  if (s.repeat === 'cron') {
    const parsed = parseCron(s.cron ?? '');
    return parsed.ok ? nextCron(parsed.cron, afterMs, s.timeZone) : null;
  }
  const [hour, minute] = (s.time ?? '00:00').split(':').map(Number);
  if (s.repeat === 'monthly') return nextMonthly(s.dayOfMonth ?? 1, hour, minute, afterMs, s.timeZone);
  const days = s.repeat === 'daily' ? '*' : s.repeat === 'weekdays' ? '1-5' : (s.days ?? []).join(',');
  const parsed = parseCron(`${minute} ${hour} * * ${days}`);
  return parsed.ok ? nextCron(parsed.cron, afterMs, s.timeZone) : null;
}

/**
 * Monthly on day N: in a month without day N (31 in April, 29–31 in February) the job runs on the
 * month's last day, as calendar apps do, rather than skipping the month as cron's "0 9 31 * *" would.
 * @param {number} dayOfMonth @param {number} hour @param {number} minute @param {number} afterMs @param {string} timeZone
 */
function nextMonthly(dayOfMonth, hour, minute, afterMs, timeZone) {
  const start = wallAt(afterMs, timeZone);
  let { year, month } = start;
  for (let i = 0; i < 14; i++) {
    const day = Math.min(dayOfMonth, daysInMonth(year, month));
    const at = instantOf({ year, month, day, hour, minute }, timeZone);
    if (at > afterMs) return at;
    const next = addDays(year, month, daysInMonth(year, month), 1);
    year = next.year;
    month = next.month;
  }
  return null;
}
