// Mocha's spec output, plus how long each spec file took (its hooks included, so a browser launched
// for a file counts towards it) and its tests' outcomes. The slowest ten are printed after the
// summary; with TW_TIMES_OUT set, every file's figures are written there as JSON for scripts/test.mjs.
// CommonJS because mocha loads reporters with require().
'use strict';
const Mocha = require('mocha');
const { mkdirSync, writeFileSync } = require('node:fs');
const { dirname, relative } = require('node:path');

const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;

/** @typedef {{ file: string, seconds: number, passed: number, failed: number, pending: number }} FileTime */

class TimingReporter extends Mocha.reporters.Spec {
  /** @param {Mocha.Runner} runner @param {any} options */
  constructor(runner, options) {
    super(runner, options);
    /** @type {Map<string, FileTime>} */
    const files = new Map();
    /** @param {string | undefined} file @returns {FileTime} */
    const entry = (file) => {
      const name = file ? relative(process.cwd(), file) : '(no file)';
      let e = files.get(name);
      if (!e) files.set(name, e = { file: name, seconds: 0, passed: 0, failed: 0, pending: 0 });
      return e;
    };
    // Files run one after another, so a top-level suite's begin and end bound its share of the file.
    /** @type {Map<Mocha.Suite, number>} */
    const started = new Map();
    runner.on(EVENT_SUITE_BEGIN, (suite) => { if (suite.parent?.root) started.set(suite, Date.now()); });
    runner.on(EVENT_SUITE_END, (suite) => {
      const t0 = started.get(suite);
      if (t0 === undefined) return;
      started.delete(suite);
      entry(suite.file).seconds += (Date.now() - t0) / 1000;
    });
    runner.on(EVENT_TEST_PASS, (test) => { entry(test.file).passed++; });
    runner.on(EVENT_TEST_FAIL, (test) => { entry(test.file).failed++; });
    runner.on(EVENT_TEST_PENDING, (test) => { entry(test.file).pending++; });
    runner.once(EVENT_RUN_END, () => {
      const list = [...files.values()].map((f) => ({ ...f, seconds: Math.round(f.seconds * 10) / 10 })).sort((a, b) => b.seconds - a.seconds);
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
  for (const f of list.slice(0, 10)) console.log(`    ${f.seconds.toFixed(1).padStart(7)} s  ${f.file} (${f.passed + f.failed + f.pending} tests)`);
  console.log('');
}

module.exports = TimingReporter;
