// One e2e lane of `npm test` (scripts/test.mjs starts a few per browser): a process with its own
// browser and fixture servers that runs the files it is handed, one at a time, each in a fresh Mocha
// run, until its browser's queue has nothing left it can take. The lanes of a browser share one queue
// (longest files first), so a lane that is done early takes the next file, and the lanes end within a
// short file of each other whatever the files took on this machine today.
//
// Over the IPC channel: the lane sends { type: 'next' }; scripts/test.mjs answers { type: 'run',
// kind, files, parts } (kind: the browser the files run in, which is the lane's own or, once the
// lane's browser has nothing left, the other; parts: this run's share of a split file,
// harness/parts.js) or { type: 'end' }.
// After each run the lane sends { type: 'ran', passed, failed, pending }; at the end it closes its
// browsers and servers, prints the slowest files, writes them to TW_TIMES_OUT and sends { type: 'bye' }.
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Mocha from 'mocha';
import { closeAll } from './env.js';

/** @typedef {{ file: string, seconds: number, cpu: number | null, passed: number, failed: number, pending: number, part?: string, kind?: string }} FileTime */
/** @typedef {{ type: 'run', kind: 'chromium' | 'firefox', files: string[], parts: Record<string, { of: number, run: number[] }> } | { type: 'end' }} Order */

const require = createRequire(import.meta.url);
const TimingReporter = require('./timing-reporter.cjs');

if (!process.send) throw new Error('harness/lane.mjs runs under scripts/test.mjs, which talks to it over IPC');
const send = /** @type {(msg: unknown) => boolean} */ (process.send.bind(process));

// Mocha traps a rejection nobody handled only while it runs; between runs one would end the lane.
process.on('unhandledRejection', (reason) => { console.error('      an unhandled rejection outside a test:', reason); });

/** Orders from scripts/test.mjs, in the order they came. @type {Order[]} */
const orders = [];
/** @type {((o: Order) => void) | null} */
let waiting = null;
process.on('message', (/** @type {Order} */ msg) => {
  if (waiting) { const w = waiting; waiting = null; w(msg); } else orders.push(msg);
});
/** @returns {Promise<Order>} */
const nextOrder = () => {
  send({ type: 'next' });
  const queued = orders.shift();
  return queued ? Promise.resolve(queued) : new Promise((r) => { waiting = r; });
};

/**
 * One Mocha run over the order's files; their times and outcomes, the parts named.
 * @param {Extract<Order, { type: 'run' }>} order @returns {Promise<FileTime[]>}
 */
async function runOrder(order) {
  // harness/parts.js and harness/env.js (browsers) read these when the file is imported, which is
  // once per process.
  process.env.TW_PARTS = JSON.stringify(order.parts);
  process.env.TW_BROWSERS = order.kind;
  // The CLI's defaults where Mocha's own differ (diff: a failed deep equality shows + expected - actual).
  const mocha = new Mocha({ timeout: 90_000, reporter: TimingReporter, color: false, diff: true });
  for (const f of order.files) mocha.addFile(resolve(f));
  /** @type {FileTime[]} */
  let times = [];
  try {
    await mocha.loadFilesAsync();
    await new Promise((done) => mocha.run(done));
    times = TimingReporter.lastRun();
  } catch (err) {
    // A file that cannot even load fails its run; the lane goes on with the next.
    console.log(`      ${order.files.join(', ')} could not run: ${err instanceof Error ? err.stack : err}`);
    times = order.files.map((file) => ({ file, seconds: 0, cpu: null, passed: 0, failed: 1, pending: 0 }));
  }
  mocha.dispose();
  for (const t of times) {
    t.kind = order.kind;
    const p = order.parts[t.file];
    if (p) t.part = `${p.run.map((i) => i + 1).join(',')}/${p.of}`;
  }
  return times;
}

/** @type {FileTime[]} */
const all = [];
for (let order = await nextOrder(); order.type === 'run'; order = await nextOrder()) {
  const times = await runOrder(order);
  all.push(...times);
  send({ type: 'ran', passed: sum(times, 'passed'), failed: sum(times, 'failed'), pending: sum(times, 'pending') });
}
try {
  await closeAll();
} catch (err) {
  console.log(`      closing the browsers failed: ${err instanceof Error ? err.message : err}`);
}
all.sort((a, b) => b.seconds - a.seconds);
TimingReporter.printSlowest(all, process.env.TW_TIMES_LABEL ?? '');
console.log(`  ${sum(all, 'passed')} passing, ${sum(all, 'failed')} failing, ${sum(all, 'pending')} pending in ${all.length} files`);
const out = process.env.TW_TIMES_OUT;
if (out) {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ label: process.env.TW_TIMES_LABEL ?? null, files: all }, null, 2) + '\n');
}
send({ type: 'bye' });
process.disconnect();
// Nothing should be left running; whatever is (a socket a page kept open) does not hold the lane.
setTimeout(() => process.exit(0), 5_000).unref();

/** @param {FileTime[]} list @param {'passed' | 'failed' | 'pending'} key */
function sum(list, key) {
  return list.reduce((n, t) => n + t[key], 0);
}
