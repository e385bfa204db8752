// Five-field cron expressions (minute hour day-of-month month day-of-week), read as Vixie cron and
// POSIX crontab(5) read them, evaluated in wall-clock time of an IANA time zone.
import { addDays, instantOf, wallAt, weekdayOf } from './zoned-time.js';
import { fail } from '../error-codes.js';

/**
 * @typedef {object} CronSpec
 * @property {number[]} minutes
 * @property {number[]} hours
 * @property {Set<number>} days day of month 1–31
 * @property {Set<number>} months 1–12
 * @property {Set<number>} weekdays 0–6, 0 = Sunday
 * @property {boolean} anyDay the day-of-month field was "*"
 * @property {boolean} anyWeekday the day-of-week field was "*"
 */

const MACROS = /** @type {Record<string, string>} */ ({
  '@yearly': '0 0 1 1 *', '@annually': '0 0 1 1 *', '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0', '@daily': '0 0 * * *', '@midnight': '0 0 * * *', '@hourly': '0 * * * *',
});
const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTH_NAMES, base: 1 },
  // 7 is Sunday too, as in Vixie cron.
  { name: 'day of week', min: 0, max: 7, names: DAY_NAMES, base: 0 },
];

/**
 * @param {string} expr
 * @returns {{ ok: true, cron: CronSpec } | { ok: false, code: import('../error-codes.js').ErrorCode, message: string }}
 */
export function parseCron(expr) {
  const text = String(expr ?? '').trim().toLowerCase();
  const parts = (MACROS[text] ?? text).split(/\s+/).filter(Boolean);
  if (parts.length !== 5) {
    return bad(`"${expr}" has ${parts.length} fields; a cron expression has five: minute hour day-of-month month day-of-week (e.g. "0 9 * * 1-5").`);
  }
  /** @type {number[][]} */
  const sets = [];
  for (let i = 0; i < 5; i++) {
    const r = parseField(parts[i], FIELDS[i]);
    if (typeof r === 'string') return bad(`${r} in "${expr}".`);
    sets.push(r);
  }
  return {
    ok: true,
    cron: {
      minutes: sets[0], hours: sets[1], days: new Set(sets[2]), months: new Set(sets[3]),
      weekdays: new Set(sets[4].map((d) => d % 7)),
      anyDay: parts[2].startsWith('*'), anyWeekday: parts[4].startsWith('*'),
    },
  };
}

/** @param {string} message */
function bad(message) { return fail('INVALID_SCHEDULE', message); }

/**
 * @param {string} field @param {{ name: string, min: number, max: number, names?: string[], base?: number }} f
 * @returns {number[] | string} the sorted values, or what is wrong
 */
function parseField(field, f) {
  /** @type {Set<number>} */
  const out = new Set();
  /** @param {string} s */
  const value = (s) => {
    const named = f.names?.indexOf(s) ?? -1;
    if (named >= 0) return named + (f.base ?? 0);
    return /^\d+$/.test(s) ? Number(s) : NaN;
  };
  for (const item of field.split(',')) {
    const m = /^(\*|[a-z0-9]+(?:-[a-z0-9]+)?)(?:\/(\d+))?$/.exec(item);
    if (!m) return `the ${f.name} field "${field}" is not valid`;
    const step = m[2] ? Number(m[2]) : 1;
    if (step < 1) return `the ${f.name} step must be at least 1`;
    let lo = f.min;
    let hi = f.max;
    if (m[1] !== '*') {
      const [a, b] = m[1].split('-');
      lo = value(a);
      // "5/15" means from 5 to the end in steps of 15.
      hi = b !== undefined ? value(b) : m[2] ? f.max : lo;
    }
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < f.min || hi > f.max || lo > hi) {
      return `the ${f.name} field "${field}" is out of range ${f.min}–${f.max}`;
    }
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return [...out].sort((a, b) => a - b);
}

/** @param {CronSpec} c @param {number} year @param {number} month @param {number} day */
function dayMatches(c, year, month, day) {
  if (!c.months.has(month)) return false;
  const dom = c.days.has(day);
  const dow = c.weekdays.has(weekdayOf(year, month, day));
  // crontab(5): when both day fields are restricted, a day matching either one runs.
  if (!c.anyDay && !c.anyWeekday) return dom || dow;
  return dom && dow;
}

/** How far ahead to look: "0 0 29 2 1" (Feb 29 or Mondays) matches within a week, but "0 0 31 2 *" never does. */
const SEARCH_DAYS = 366 * 8;

/**
 * The first instant strictly after `afterMs` that the expression names, or null when it names none.
 * @param {CronSpec} c @param {number} afterMs @param {string} timeZone
 */
export function nextCron(c, afterMs, timeZone) {
  const start = wallAt(afterMs, timeZone);
  for (let i = 0; i < SEARCH_DAYS; i++) {
    const d = addDays(start.year, start.month, start.day, i);
    if (!dayMatches(c, d.year, d.month, d.day)) continue;
    for (const hour of c.hours) {
      // The first day only: skip hours already over (with two hours' slack for a DST shift).
      if (i === 0 && hour < start.hour - 2) continue;
      for (const minute of c.minutes) {
        const at = instantOf({ ...d, hour, minute }, timeZone);
        if (at > afterMs) return at;
      }
    }
  }
  return null;
}
