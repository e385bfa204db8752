#!/usr/bin/env node
// `npm test`: typecheck, parity, web-ext lint, unit and e2e, in that order. The e2e runs in two
// processes at once, one per browser (each with its own fixture servers and its own browser), then
// the checks that compare the two browsers. Every step runs even when an earlier one fails, so one
// run shows everything that is wrong. Each file's time goes to bench/results/test-times.json and the
// slowest ten are named; the last line is `N passed, N failed` alone, which CI reads.
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (/** @type {string} */ name) => join(root, 'node_modules/.bin', name);
const only = process.argv.slice(2);
const TIMES_DIR = join(root, 'test-artifacts/times');
const REPORTER = ['--reporter', 'test/e2e/harness/timing-reporter.cjs'];
/** Files that compare the two browsers: they need both in one process. */
const BOTH_BROWSERS = ['test/e2e/outline-parity.e2e.js'];
/**
 * Chromium-only files (a service worker stopped through CDP; Firefox's background page is
 * persistent). A Firefox-only process would list their suites as pending, which counts as failed.
 */
const CHROMIUM_ONLY = ['test/e2e/service-worker-restart.e2e.js', 'test/e2e/worker-stop.e2e.js'];
const E2E = ['--config', 'test/.mocharc.e2e.json', ...REPORTER];

/**
 * @typedef {{ name: string, cmd: string, args: string[], mocha?: boolean, env?: Record<string, string> }} Step
 * @typedef {Step | { name: string, lanes: Step[][] }} Entry a step, or lanes run side by side (each lane's steps in order)
 * @typedef {{ code: number, out: string, secs: string }} Result
 */

/** @param {string} browsers @param {string[]} files the files to run, or none for all but the ignored @param {string[]} [ignore] @returns {Step} */
const e2e = (browsers, files, ignore = []) => ({
  name: `e2e ${browsers}`,
  cmd: bin('mocha'),
  args: files.length ? ['--require', 'test/e2e/hooks.js', '--timeout', '90000', ...REPORTER, ...files] : [...E2E, ...ignore.flatMap((f) => ['--ignore', f])],
  mocha: true,
  env: { TW_BROWSERS: browsers },
});

/** @type {Entry[]} */
const STEPS = [
  { name: 'typecheck', cmd: 'npm', args: ['run', '-s', 'typecheck'] },
  { name: 'parity', cmd: 'node', args: ['scripts/sync.mjs', '--check'] },
  { name: 'lint', cmd: 'npm', args: ['run', '-s', 'lint'] },
  { name: 'unit', cmd: bin('mocha'), args: ['--config', 'test/.mocharc.unit.json', ...REPORTER], mocha: true },
  // Chromium's process has the Chromium-only files: the cross-browser checks follow Firefox's.
  { name: 'e2e', lanes: [[e2e('chromium', [], BOTH_BROWSERS)], [e2e('firefox', [], [...BOTH_BROWSERS, ...CHROMIUM_ONLY]), e2e('chromium,firefox', BOTH_BROWSERS)]] },
];

/**
 * Runs one step. A lane that shares the terminal with another gets its lines prefixed with its name.
 * @param {Step} step @param {string} prefix @returns {Promise<Result>}
 */
function run(step, prefix) {
  const started = Date.now();
  return new Promise((resolve) => {
    // TW_BROWSERS narrows e2e to one browser during development; here only the lanes set it.
    const { TW_BROWSERS: _narrow, ...env } = process.env;
    const times = join(TIMES_DIR, `${step.name.replace(/[^a-z0-9]+/g, '-')}.json`);
    const child = spawn(step.cmd, step.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, FORCE_COLOR: '0', ...step.env, TW_TIMES_OUT: times, TW_TIMES_LABEL: step.name } });
    let out = '';
    const write = (/** @type {NodeJS.WriteStream} */ to) => {
      let partial = '';
      return (/** @type {Buffer} */ d) => {
        out += d;
        if (!prefix) { to.write(d); return; }
        const lines = (partial + d).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) to.write(`${prefix}${line}\n`);
      };
    };
    child.stdout.on('data', write(process.stdout));
    child.stderr.on('data', write(process.stderr));
    const done = (/** @type {number} */ code) => resolve({ code, out, secs: ((Date.now() - started) / 1000).toFixed(1) });
    child.on('close', (code) => done(code ?? 1));
    child.on('error', (err) => { out += String(err); done(1); });
  });
}

let passed = 0;
let failed = 0;
/** @type {string[]} */
const summary = [];

/** @param {Step} step @param {Result} r */
function count(step, { code, out, secs }) {
  if (step.mocha) {
    const p = Number(/(\d+) passing/.exec(out)?.[1] ?? 0);
    const f = Number(/(\d+) failing/.exec(out)?.[1] ?? 0);
    const pending = Number(/(\d+) pending/.exec(out)?.[1] ?? 0);
    // A crash before mocha reports (or a non-zero exit with no failures counted) is a failure too.
    const crashed = code !== 0 && f === 0 ? 1 : 0;
    passed += p;
    failed += f + pending + crashed;
    summary.push(`${step.name}: ${p} passed, ${f} failed${pending ? `, ${pending} pending (counted as failed)` : ''}${crashed ? ', crashed' : ''} (${secs} s)`);
  } else {
    if (code === 0) passed++; else failed++;
    summary.push(`${step.name}: ${code === 0 ? 'ok' : 'FAILED'} (${secs} s)`);
  }
}

/** @param {Step[]} lane @param {number} [width] when lanes share the terminal: each line starts with its step's name, padded to width */
async function runLane(lane, width) {
  for (const step of lane) count(step, await run(step, width ? `[${step.name.replace(/^e2e /, '')}]`.padEnd(width) : ''));
}

/** @type {{ step: string, seconds: number }[]} */
const walls = [];
await rm(TIMES_DIR, { recursive: true, force: true });
await mkdir(TIMES_DIR, { recursive: true });
const startedAll = Date.now();
for (const entry of STEPS) {
  if (only.length && !only.includes(entry.name)) continue;
  console.log(`\n=== ${entry.name} ===`);
  const started = Date.now();
  if ('lanes' in entry) {
    const width = Math.max(...entry.lanes.flat().map((s) => s.name.length)) - 1;
    await Promise.all(entry.lanes.map((lane) => runLane(lane, width)));
  } else {
    await runLane([entry]);
  }
  walls.push({ step: entry.name, seconds: Math.round((Date.now() - started) / 100) / 10 });
}
await writeTimes();
console.log('\n=== summary ===');
for (const line of summary) console.log(line);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;

/** Every file's time from the reporters, in one file, and the slowest ten named. */
async function writeTimes() {
  /** @type {{ step: string, file: string, seconds: number, tests: number }[]} */
  const files = [];
  for (const entry of STEPS) {
    for (const step of 'lanes' in entry ? entry.lanes.flat() : [entry]) {
      if (!step.mocha) continue;
      const path = join(TIMES_DIR, `${step.name.replace(/[^a-z0-9]+/g, '-')}.json`);
      const got = await readFile(path, 'utf8').then((t) => JSON.parse(t), () => null);
      for (const f of got?.files ?? []) files.push({ step: step.name, file: f.file, seconds: f.seconds, tests: f.passed + f.failed + f.pending });
    }
  }
  if (!files.length) return;
  files.sort((a, b) => b.seconds - a.seconds);
  console.log('\n=== slowest files ===');
  for (const f of files.slice(0, 10)) console.log(`${f.seconds.toFixed(1).padStart(7)} s  ${f.file} [${f.step}] (${f.tests} tests)`);
  // A run narrowed to some steps keeps the last full run's record.
  if (only.length) return;
  const record = { date: new Date().toISOString(), cores: cpus().length, wallSeconds: Math.round((Date.now() - startedAll) / 100) / 10, steps: walls, files };
  await writeFile(join(root, 'bench/results/test-times.json'), JSON.stringify(record, null, 2) + '\n');
}
