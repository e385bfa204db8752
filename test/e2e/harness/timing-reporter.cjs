// Mocha's spec output, plus how long each spec file took (its hooks included, so a browser launched
// for a file counts towards it) and its tests' outcomes. The slowest ten are printed after the
// summary; with TW_TIMES_OUT set, every file's figures are written there as JSON for scripts/test.mjs.
// In an e2e lane (harness/lane.mjs, TW_LANE set) a process runs Mocha once per file: the lane takes
// each run's figures (lastRun) and prints and writes them all at its end.
// On Linux each file also gets the CPU seconds its lane used (this process, the browsers and servers
// it started, and what they have ended): with four browsers on two cores the machine is CPU-bound,
// so a file's CPU, not its wall time, is what it costs the whole run.
// CommonJS because mocha loads reporters with require().
'use strict';
const Mocha = require('mocha');
const { mkdirSync, readFileSync, readdirSync, writeFileSync } = require('node:fs');
const { dirname, relative } = require('node:path');

const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;

/** @typedef {{ file: string, seconds: number, cpu: number | null, passed: number, failed: number, pending: number }} FileTime */

const TICKS = 100; // USER_HZ: /proc's clock ticks per second on every Linux the suite runs on

/**
 * CPU seconds used so far by this process and everything under it: each live descendant's own time
 * plus what its ended children used (the kernel adds a reaped child's time to its parent). Null where
 * /proc is not there.
 * @returns {number | null}
 */
function treeCpu() {
  let names;
  try { names = readdirSync('/proc'); } catch { return null; }
  /** @type {Map<number, { parent: number, ticks: number }>} */
  const procs = new Map();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try { stat = readFileSync(`/proc/${name}/stat`, 'utf8'); } catch { continue; }
    // Fields after the command's closing parenthesis: state is 3, ppid 4, utime 14 … cstime 17.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    procs.set(Number(name), { parent: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
  }
  /** @type {Map<number, boolean>} */
  const under = new Map([[process.pid, true]]);
  /** @param {number} pid @returns {boolean} */
  const isUnder = (pid) => {
    const known = under.get(pid);
    if (known !== undefined) return known;
    const p = procs.get(pid);
    under.set(pid, false); // a cycle guard; replaced below
    const r = Boolean(p && p.parent > 1 && isUnder(p.parent));
    under.set(pid, r);
    return r;
  };
  let ticks = 0;
  for (const [pid, p] of procs) if (isUnder(pid)) ticks += p.ticks;
  return ticks / TICKS;
}

/** The figures of the run that ended last in this process. @type {FileTime[]} */
let last = [];

class TimingReporter extends Mocha.reporters.Spec {
  /** The figures of the last run (harness/lane.mjs collects them run by run). @returns {FileTime[]} */
  static lastRun() { return last; }

  /** @param {FileTime[]} list @param {string} label */
  static printSlowest(list, label) { printSlowest(list, label); }

  /** @param {Mocha.Runner} runner @param {any} options */
  constructor(runner, options) {
    super(runner, options);
    /** @type {Map<string, FileTime>} */
    const files = new Map();
    /** @param {string | undefined} file @returns {FileTime} */
    const entry = (file) => {
      const name = file ? relative(process.cwd(), file) : '(no file)';
      let e = files.get(name);
      if (!e) files.set(name, e = { file: name, seconds: 0, cpu: null, passed: 0, failed: 0, pending: 0 });
      return e;
    };
    // Files run one after another, so a top-level suite's begin and end bound its share of the file.
    /** @type {Map<Mocha.Suite, { at: number, cpu: number | null }>} */
    const started = new Map();
    runner.on(EVENT_SUITE_BEGIN, (suite) => { if (suite.parent?.root) started.set(suite, { at: Date.now(), cpu: treeCpu() }); });
    runner.on(EVENT_SUITE_END, (suite) => {
      const t0 = started.get(suite);
      if (t0 === undefined) return;
      started.delete(suite);
      const e = entry(suite.file);
      e.seconds += (Date.now() - t0.at) / 1000;
      const cpu = treeCpu();
      if (cpu !== null && t0.cpu !== null) e.cpu = (e.cpu ?? 0) + Math.max(0, cpu - t0.cpu);
    });
    runner.on(EVENT_TEST_PASS, (test) => { entry(test.file).passed++; });
    runner.on(EVENT_TEST_FAIL, (test) => { entry(test.file).failed++; });
    runner.on(EVENT_TEST_PENDING, (test) => { entry(test.file).pending++; });
    runner.once(EVENT_RUN_END, () => {
      const list = [...files.values()].map((f) => ({ ...f, seconds: Math.round(f.seconds * 10) / 10, cpu: f.cpu === null ? null : Math.round(f.cpu * 10) / 10 })).sort((a, b) => b.seconds - a.seconds);
      last = list;
      if (process.env.TW_LANE) return;
      printSlowest(list, process.env.TW_TIMES_LABEL ?? '');
      const out = process.env.TW_TIMES_OUT;
      if (out) {
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, JSON.stringify({ label: process.env.TW_TIMES_LABEL ?? null, files: list }, null, 2) + '\n');
      }
    });
  }
}

/** @param {FileTime[]} list @param {string} label */
function printSlowest(list, label) {
  const total = list.reduce((s, f) => s + f.seconds, 0);
  console.log(`  slowest files${label ? ` (${label})` : ''}, of ${list.length} taking ${total.toFixed(1)} s:`);
  for (const f of list.slice(0, 10)) console.log(`    ${f.seconds.toFixed(1).padStart(7)} s  ${f.file} (${f.passed + f.failed + f.pending} tests${f.cpu === null ? '' : `, ${f.cpu.toFixed(1)} s of CPU`})`);
  console.log('');
}

module.exports = TimingReporter;
