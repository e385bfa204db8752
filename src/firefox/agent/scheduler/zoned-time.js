// Wall-clock time in an IANA time zone, computed with Intl alone (no time-zone database of our own):
// an instant → the wall time people see, and a wall time → the instant it names, DST included.

/** @typedef {{ year: number, month: number, day: number, hour: number, minute: number }} WallTime month 1–12 */

/** @type {Map<string, Intl.DateTimeFormat>} */
const formatters = new Map();

/** @param {string} timeZone */
function formatter(timeZone) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** @param {string} timeZone */
export function isValidTimeZone(timeZone) {
  if (typeof timeZone !== 'string' || !timeZone) return false;
  try { formatter(timeZone); return true; } catch { return false; }
}

/**
 * The wall time at an instant, to the minute.
 * @param {number} ms @param {string} timeZone
 * @returns {WallTime & { second: number, weekday: number }} weekday 0 = Sunday
 */
export function wallAt(ms, timeZone) {
  /** @type {Record<string, number>} */
  const p = {};
  for (const part of formatter(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  // Some engines print midnight as hour 24 even with h23.
  const hour = p.hour === 24 ? 0 : p.hour;
  return { year: p.year, month: p.month, day: p.day, hour, minute: p.minute, second: p.second, weekday: weekdayOf(p.year, p.month, p.day) };
}

/** UTC offset in ms at an instant (wall − UTC). @param {number} ms @param {string} timeZone */
export function offsetAt(ms, timeZone) {
  const w = wallAt(ms, timeZone);
  const asUTC = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUTC - (ms - (((ms % 1000) + 1000) % 1000));
}

/**
 * The instant a wall time names. Resolved like Temporal's "compatible" disambiguation (and RFC 5545
 * §3.3.5): a time skipped by a spring-forward gap moves forward by the gap (02:30 → 03:30 in New York),
 * and a time that occurs twice on a fall-back day means its first occurrence, so a daily job runs once.
 * @param {WallTime} wall @param {string} timeZone
 */
export function instantOf(wall, timeZone) {
  const local = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const DAY = 86_400_000;
  const before = offsetAt(local - DAY, timeZone);
  const after = offsetAt(local + DAY, timeZone);
  const candidates = [...new Set([local - before, local - after])]
    .filter((ms) => sameWall(wallAt(ms, timeZone), wall))
    .sort((a, b) => a - b);
  if (candidates.length) return candidates[0];
  return local - before; // in the gap: the offset from before the change moves it past the gap
}

/** @param {WallTime} a @param {WallTime} b */
function sameWall(a, b) {
  return a.year === b.year && a.month === b.month && a.day === b.day && a.hour === b.hour && a.minute === b.minute;
}

/** 0 = Sunday. @param {number} year @param {number} month 1–12 @param {number} day */
export function weekdayOf(year, month, day) {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

/** @param {number} year @param {number} month 1–12 */
export function daysInMonth(year, month) {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The calendar date n days after (year, month, day). @param {number} year @param {number} month @param {number} day @param {number} n */
export function addDays(year, month, day, n) {
  const d = new Date(Date.UTC(year, month - 1, day + n));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}
