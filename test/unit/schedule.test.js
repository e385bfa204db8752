// Schedule kinds and next-run computation: once, interval, calendar (daily, weekdays, weekly,
// monthly, cron) in IANA time zones, across daylight-saving changes and month ends.
import { expect } from 'chai';
import { normalizeSchedule, nextRunAt, onceSchedule, intervalSchedule, calendarSchedule } from '../../src/chrome/agent/scheduler/schedule.js';
import { parseCron } from '../../src/chrome/agent/scheduler/cron.js';
import { instantOf, wallAt } from '../../src/chrome/agent/scheduler/zoned-time.js';

/** @import { Schedule, ScheduleInput } from '../../src/chrome/types/jobs' */

const NY = 'America/New_York';
const BERLIN = 'Europe/Berlin';
const iso = (/** @type {number | null} */ ms) => (ms === null ? null : new Date(ms).toISOString());
const at = (/** @type {string} */ s) => Date.parse(s);

/** @param {ScheduleInput} input @param {number} now @param {string} [timeZone] @returns {Schedule} */
function sched(input, now, timeZone = 'UTC') {
  const r = normalizeSchedule(input, { now, timeZone });
  if (!r.ok) throw new Error(r.message);
  return r.schedule;
}

/** The next n run times after `from`, each computed after the previous. @param {Schedule} s @param {number} from @param {number} n */
function series(s, from, n) {
  const out = [];
  let t = from;
  for (let i = 0; i < n; i++) {
    const next = nextRunAt(s, t);
    if (next === null) break;
    out.push(iso(next));
    t = next;
  }
  return out;
}

describe('zoned time', () => {
  it('reads the wall time of an instant in a zone', () => {
    expect(wallAt(at('2026-07-01T12:00:00Z'), NY)).to.include({ year: 2026, month: 7, day: 1, hour: 8, minute: 0, weekday: 3 });
    expect(wallAt(at('2026-01-01T04:59:00Z'), NY)).to.include({ year: 2025, month: 12, day: 31, hour: 23, minute: 59 });
  });

  it('maps a wall time skipped by spring-forward past the gap, and a doubled one to its first occurrence', () => {
    // New York, 8 March 2026: 02:00 EST jumps to 03:00 EDT.
    expect(iso(instantOf({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, NY))).to.equal('2026-03-08T07:30:00.000Z'); // 03:30 EDT
    // New York, 1 November 2026: 02:00 EDT falls back to 01:00 EST; 01:30 happens twice.
    expect(iso(instantOf({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, NY))).to.equal('2026-11-01T05:30:00.000Z'); // 01:30 EDT
  });
});

describe('schedule: once', () => {
  const now = at('2026-05-01T10:00:00Z');
  it('runs at run_at, or after_seconds from now', () => {
    expect(nextRunAt(sched({ kind: 'once', runAt: '2026-05-02T09:00:00+02:00' }, now), now)).to.equal(at('2026-05-02T07:00:00Z'));
    expect(nextRunAt(sched({ kind: 'once', afterSeconds: 90 }, now), now)).to.equal(now + 90_000);
    expect(nextRunAt(sched({ kind: 'once', afterSeconds: 0 }, now), now)).to.equal(now);
  });
  it('runs a passed time once (missed while closed), and never after it has run', () => {
    const s = sched({ kind: 'once', runAt: '2026-04-30T10:00:00Z' }, now);
    expect(nextRunAt(s, now)).to.equal(at('2026-04-30T10:00:00Z'));
    expect(nextRunAt(s, now, { hasRun: true })).to.equal(null);
  });
  it('rejects what is not a time', () => {
    for (const bad of [{ kind: 'once', runAt: 'tomorrow-ish' }, { kind: 'once', afterSeconds: -5 }, { kind: 'once' }]) {
      const r = normalizeSchedule(/** @type {any} */ (bad), { now, timeZone: 'UTC' });
      expect(r).to.include({ ok: false, code: 'INVALID_SCHEDULE' });
    }
  });
});

describe('schedule: interval', () => {
  const now = at('2026-05-01T10:00:00Z');
  it('runs every N minutes from one interval after creation, on a fixed grid', () => {
    const s = sched({ kind: 'interval', minutes: 15 }, now);
    expect(series(s, now, 3)).to.deep.equal(['2026-05-01T10:15:00.000Z', '2026-05-01T10:30:00.000Z', '2026-05-01T10:45:00.000Z']);
  });
  it('collapses missed slots into the next one: no burst after a long sleep', () => {
    const s = sched({ kind: 'interval', minutes: 60 }, now);
    // Closed for five and a half hours: the next run is the next grid slot, not five catch-up runs.
    expect(iso(nextRunAt(s, at('2026-05-01T16:30:00Z')))).to.equal('2026-05-01T17:00:00.000Z');
  });
  it('is elapsed time, not wall time, across a DST change', () => {
    const s = sched({ kind: 'interval', minutes: 24 * 60, startAt: '2026-03-07T14:00:00Z' }, now);
    expect(series(s, at('2026-03-07T13:00:00Z'), 2)).to.deep.equal(['2026-03-07T14:00:00.000Z', '2026-03-08T14:00:00.000Z']);
  });
  it('accepts 1 minute to 1 year and nothing outside', () => {
    expect(normalizeSchedule({ kind: 'interval', minutes: 1 }, { now, timeZone: 'UTC' }).ok).to.equal(true);
    expect(normalizeSchedule({ kind: 'interval', minutes: 366 * 24 * 60 }, { now, timeZone: 'UTC' }).ok).to.equal(true);
    for (const minutes of [0.5, 0, 367 * 24 * 60, NaN]) {
      expect(normalizeSchedule({ kind: 'interval', minutes }, { now, timeZone: 'UTC' })).to.include({ ok: false, code: 'INVALID_SCHEDULE' });
    }
  });
});

describe('schedule: calendar', () => {
  it('daily at 09:00 New York keeps 09:00 local across spring-forward (a 23-hour day)', () => {
    const s = sched({ kind: 'calendar', repeat: 'daily', time: '09:00' }, 0, NY);
    expect(s).to.include({ timeZone: NY });
    expect(series(s, at('2026-03-06T15:00:00Z'), 3)).to.deep.equal([
      '2026-03-07T14:00:00.000Z', // 09:00 EST
      '2026-03-08T13:00:00.000Z', // 09:00 EDT
      '2026-03-09T13:00:00.000Z',
    ]);
  });

  it('daily at 02:30 New York runs at 03:30 on the spring-forward day, once on every day', () => {
    const s = sched({ kind: 'calendar', repeat: 'daily', time: '02:30', timeZone: NY }, 0);
    expect(series(s, at('2026-03-07T12:00:00Z'), 3)).to.deep.equal([
      '2026-03-08T07:30:00.000Z', // 02:30 does not exist: 03:30 EDT
      '2026-03-09T06:30:00.000Z', // 02:30 EDT
      '2026-03-10T06:30:00.000Z',
    ]);
  });

  it('daily at 01:30 New York runs once on the fall-back day, when 01:30 happens twice', () => {
    const s = sched({ kind: 'calendar', repeat: 'daily', time: '01:30', timeZone: NY }, 0);
    expect(series(s, at('2026-10-31T12:00:00Z'), 3)).to.deep.equal([
      '2026-11-01T05:30:00.000Z', // 01:30 EDT, the first one
      '2026-11-02T06:30:00.000Z', // 01:30 EST the next day; the second 01:30 on 1 Nov is skipped
      '2026-11-03T06:30:00.000Z',
    ]);
  });

  it('daily at 09:00 Berlin across both 2026 changes (29 March, 25 October)', () => {
    const s = sched({ kind: 'calendar', repeat: 'daily', time: '09:00', timeZone: BERLIN }, 0);
    expect(series(s, at('2026-03-28T06:00:00Z'), 2)).to.deep.equal(['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z']);
    expect(series(s, at('2026-10-24T06:00:00Z'), 2)).to.deep.equal(['2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z']);
  });

  it('weekdays skip Saturday and Sunday', () => {
    const s = sched({ kind: 'calendar', repeat: 'weekdays', time: '08:15', timeZone: 'UTC' }, 0);
    // Friday 2026-05-01 after 08:15 → Monday 4 May.
    expect(series(s, at('2026-05-01T09:00:00Z'), 2)).to.deep.equal(['2026-05-04T08:15:00.000Z', '2026-05-05T08:15:00.000Z']);
  });

  it('weekly on chosen days', () => {
    const s = sched({ kind: 'calendar', repeat: 'weekly', time: '18:00', days: [5, 1, 3], timeZone: BERLIN }, 0);
    expect(s).to.deep.include({ days: [1, 3, 5] });
    // Sunday 3 May 2026 → Mon 4, Wed 6, Fri 8 (18:00 CEST = 16:00Z).
    expect(series(s, at('2026-05-03T12:00:00Z'), 4)).to.deep.equal([
      '2026-05-04T16:00:00.000Z', '2026-05-06T16:00:00.000Z', '2026-05-08T16:00:00.000Z', '2026-05-11T16:00:00.000Z',
    ]);
  });

  it('monthly on day 31 runs on the last day of shorter months (February, April)', () => {
    const s = sched({ kind: 'calendar', repeat: 'monthly', time: '10:00', dayOfMonth: 31, timeZone: 'UTC' }, 0);
    expect(series(s, at('2026-01-15T00:00:00Z'), 5)).to.deep.equal([
      '2026-01-31T10:00:00.000Z', '2026-02-28T10:00:00.000Z', '2026-03-31T10:00:00.000Z', '2026-04-30T10:00:00.000Z', '2026-05-31T10:00:00.000Z',
    ]);
    // A leap year's February has a 29th.
    expect(iso(nextRunAt(s, at('2028-02-01T00:00:00Z')))).to.equal('2028-02-29T10:00:00.000Z');
    const on29 = sched({ kind: 'calendar', repeat: 'monthly', time: '10:00', dayOfMonth: 29, timeZone: 'UTC' }, 0);
    expect(iso(nextRunAt(on29, at('2027-02-01T00:00:00Z')))).to.equal('2027-02-28T10:00:00.000Z');
  });

  it('monthly keeps local time across a DST change (New York, 1st of the month at 09:00)', () => {
    const s = sched({ kind: 'calendar', repeat: 'monthly', time: '09:00', dayOfMonth: 1, timeZone: NY }, 0);
    expect(series(s, at('2026-02-15T00:00:00Z'), 2)).to.deep.equal(['2026-03-01T14:00:00.000Z', '2026-04-01T13:00:00.000Z']);
  });

  it('cron expressions: steps, ranges, names, macros, and crontab(5) day-of-month OR day-of-week', () => {
    const cron = (/** @type {string} */ c, /** @type {string} */ tz = 'UTC') => sched({ kind: 'calendar', repeat: 'cron', cron: c, timeZone: tz }, at('2026-05-01T00:00:00Z'));
    expect(series(cron('*/20 9-10 * * mon-fri'), at('2026-05-01T10:30:00Z'), 3)).to.deep.equal([
      '2026-05-01T10:40:00.000Z', '2026-05-04T09:00:00.000Z', '2026-05-04T09:20:00.000Z',
    ]);
    expect(iso(nextRunAt(cron('@daily'), at('2026-05-01T10:30:00Z')))).to.equal('2026-05-02T00:00:00.000Z');
    // Both day fields restricted: the 13th OR a Friday.
    expect(series(cron('0 12 13 * 5'), at('2026-05-09T00:00:00Z'), 2)).to.deep.equal(['2026-05-13T12:00:00.000Z', '2026-05-15T12:00:00.000Z']);
    // 7 is Sunday too.
    expect(iso(nextRunAt(cron('0 0 * * 7'), at('2026-05-01T00:00:00Z')))).to.equal('2026-05-03T00:00:00.000Z');
    // Wall time in the zone, across spring-forward: 09:00 New York every day.
    expect(series(cron('0 9 * * *', NY), at('2026-03-07T15:00:00Z'), 2)).to.deep.equal(['2026-03-08T13:00:00.000Z', '2026-03-09T13:00:00.000Z']);
  });

  it('rejects bad cron expressions, times, days and zones with a sentence saying what to fix', () => {
    const now = at('2026-05-01T00:00:00Z');
    /** @type {any[]} */
    const bad = [
      { kind: 'calendar', repeat: 'cron', cron: '* * *' },
      { kind: 'calendar', repeat: 'cron', cron: '61 * * * *' },
      { kind: 'calendar', repeat: 'cron', cron: '0 0 31 2 *' },
      { kind: 'calendar', repeat: 'daily', time: '25:00' },
      { kind: 'calendar', repeat: 'weekly', time: '09:00', days: [] },
      { kind: 'calendar', repeat: 'monthly', time: '09:00', dayOfMonth: 32 },
      { kind: 'calendar', repeat: 'daily', time: '09:00', timeZone: 'Mars/Olympus' },
      { kind: 'calendar', repeat: 'hourly', time: '09:00' },
      { kind: 'weekly' },
    ];
    for (const input of bad) {
      const r = normalizeSchedule(input, { now, timeZone: 'UTC' });
      expect(r.ok, JSON.stringify(input)).to.equal(false);
      if (!r.ok) expect(r.message).to.match(/\w+ \w+/);
    }
    const parsed = parseCron('0 0 31 2 *');
    expect(parsed.ok).to.equal(true);
  });
});

describe('schedule: each kind on its own', () => {
  const now = Date.UTC(2026, 0, 5, 12);
  it('onceSchedule fixes after_seconds against now and refuses a negative count', () => {
    expect(onceSchedule({ kind: 'once', afterSeconds: 1.5 }, { now })).to.deep.equal({ ok: true, schedule: { kind: 'once', runAt: now + 1500 } });
    expect(onceSchedule({ kind: 'once', afterSeconds: -1 }, { now })).to.include({ ok: false, code: 'INVALID_SCHEDULE' });
    expect(onceSchedule({ kind: 'once', runAt: 'not a date' }, { now })).to.include({ ok: false, code: 'INVALID_SCHEDULE' });
  });
  it('intervalSchedule starts one period from now unless a start is given', () => {
    expect(intervalSchedule({ kind: 'interval', minutes: 2 }, { now })).to.deep.equal({ ok: true, schedule: { kind: 'interval', minutes: 2, anchorAt: now + 120_000 } });
    expect(intervalSchedule({ kind: 'interval', minutes: 2, startAt: now + 5 }, { now })).to.deep.equal({ ok: true, schedule: { kind: 'interval', minutes: 2, anchorAt: now + 5 } });
    expect(intervalSchedule({ kind: 'interval', minutes: 0.5 }, { now })).to.include({ ok: false });
  });
  it('calendarSchedule takes the user\'s zone by default and checks each repeat\'s own fields', () => {
    expect(calendarSchedule({ kind: 'calendar', repeat: 'daily', time: '9:05' }, { now, timeZone: 'Europe/Berlin' })).to.deep.equal({ ok: true, schedule: { kind: 'calendar', repeat: 'daily', time: '09:05', timeZone: 'Europe/Berlin' } });
    expect(calendarSchedule({ kind: 'calendar', repeat: 'weekly', time: '09:00', days: [5, 1, 5] }, { now, timeZone: 'UTC' })).to.deep.include({ ok: true, schedule: { kind: 'calendar', repeat: 'weekly', time: '09:00', days: [1, 5], timeZone: 'UTC' } });
    expect(calendarSchedule({ kind: 'calendar', repeat: 'monthly', time: '09:00', dayOfMonth: 32 }, { now, timeZone: 'UTC' })).to.include({ ok: false });
    expect(calendarSchedule({ kind: 'calendar', repeat: 'cron', cron: ' 0 9 * * 1 ' }, { now, timeZone: 'UTC' })).to.deep.equal({ ok: true, schedule: { kind: 'calendar', repeat: 'cron', cron: '0 9 * * 1', timeZone: 'UTC' } });
    expect(calendarSchedule({ kind: 'calendar', repeat: 'daily', time: '09:00', timeZone: 'Mars/Base' }, { now, timeZone: 'UTC' })).to.include({ ok: false });
  });
});
