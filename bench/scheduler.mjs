#!/usr/bin/env node
// How long next-run computation takes for each calendar kind (Intl does the time-zone work), and how
// large the stored jobs get. Run: node bench/scheduler.mjs
import { normalizeSchedule, nextRunAt } from '../src/chrome/agent/scheduler/schedule.js';
import { createScheduler } from '../src/chrome/agent/scheduler/scheduler.js';

const now = Date.parse('2026-03-07T12:00:00Z');
/** @type {[string, any][]} */
const cases = [
  ['once', { kind: 'once', afterSeconds: 60 }],
  ['interval 15 min', { kind: 'interval', minutes: 15 }],
  ['daily 09:00 New York', { kind: 'calendar', repeat: 'daily', time: '09:00', timeZone: 'America/New_York' }],
  ['weekdays 02:30 New York (DST gap)', { kind: 'calendar', repeat: 'weekdays', time: '02:30', timeZone: 'America/New_York' }],
  ['weekly Mon/Wed/Fri Berlin', { kind: 'calendar', repeat: 'weekly', time: '18:00', days: [1, 3, 5], timeZone: 'Europe/Berlin' }],
  ['monthly day 31 UTC', { kind: 'calendar', repeat: 'monthly', time: '10:00', dayOfMonth: 31, timeZone: 'UTC' }],
  ['cron */5 * * * *', { kind: 'calendar', repeat: 'cron', cron: '*/5 * * * *', timeZone: 'Europe/Berlin' }],
  ['cron 0 0 29 2 * (leap day)', { kind: 'calendar', repeat: 'cron', cron: '0 0 29 2 *', timeZone: 'UTC' }],
];

console.log('next-run computation, median of 200 (µs):');
for (const [name, input] of cases) {
  const r = normalizeSchedule(input, { now, timeZone: 'UTC' });
  if (!r.ok) throw new Error(r.message);
  const times = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    nextRunAt(r.schedule, now + i * 3_600_000);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`  ${name.padEnd(36)} ${(times[100] * 1000).toFixed(0).padStart(6)}`);
}

/** @type {any[]} */
let saved = [];
const s = createScheduler({
  clock: { now: () => now }, store: { async load() { return saved; }, async save(j) { saved = j; } },
  runJob: async () => ({ status: 'completed', text: 'A result of about a hundred characters, as a done summary usually is, for sizing.' }),
  wake: () => {}, timeZone: 'UTC',
});
for (let i = 0; i < 50; i++) await s.create({ prompt: `Job ${i}: check the dashboard and report what changed since yesterday.`, target: { type: 'url', url: 'https://example.test/' }, schedule: { kind: 'interval', minutes: 60 } });
const one = (await s.list())[0];
for (let i = 0; i < 20; i++) await s.runNow(one.id).then(() => s.idle());
console.log(`stored size: 50 jobs ${JSON.stringify(saved).length} bytes; one job with 20 runs of history ${JSON.stringify(saved[0]).length} bytes`);
