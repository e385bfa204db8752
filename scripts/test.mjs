#!/usr/bin/env node
// `npm test`: unit, typecheck, parity, ESLint, the store packages (with web-ext lint) and e2e. The checks
// run one after another in one lane (the unit tests first) while the e2e runs beside them, at a lower
// CPU priority (nice), in several processes per browser (lanes), each with its own
// fixture servers and its own browser: an e2e process spends most of its time waiting (on the
// agent's settle period, on pages, on alarms), so a few of them share two cores well. The files are
// balanced over the lanes by their recorded times (bench/results/test-times.json; a file without
// one counts as DEFAULT_SECONDS); a lane asks for its next file when it is done with one
// (harness/lane.mjs), and once its own are done it takes from the lane with the most left, so the
// lanes end together. The big corpus files are cut into parts (harness/parts.js).
// Every step runs even when another fails, so one run shows everything that is wrong. Each file's
// time goes to bench/results/test-times.json and the slowest ten are named; the last line is
// `N passed, N failed` alone, which CI reads.
// TW_E2E_LANES sets the e2e processes per browser (default 3); `npm test -- unit` (or `e2e`,
// `typecheck`, `e2e firefox`, …) runs only the named steps; `npm test -- --plan` prints the lanes and stops.
import { spawn } from 'node:child_process';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (/** @type {string} */ name) => join(root, 'node_modules/.bin', name);
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const PLAN_ONLY = process.argv.includes('--plan');
const TIMES_DIR = join(root, 'test-artifacts/times');
const TIMES_FILE = join(root, 'bench/results/test-times.json');
const REPORTER = ['--no-color', '--reporter', 'test/e2e/harness/timing-reporter.cjs'];
const E2E_DIR = 'test/e2e';
/** e2e processes per browser. */
const LANES = Math.max(1, Number(process.env.TW_E2E_LANES) || 3);
/** The estimate for a file no full run has timed yet (a new file). */
const DEFAULT_SECONDS = 20;
/** A file estimated below this goes to the end of its lane, where another lane may take it (ordered). */
const SHORT_SECONDS = 15;
/** A lane takes from the other browser's lanes only while one of them has this much left (takeFor). */
const CROSS_SECONDS = 30;
/** Files that compare the two browsers: they need both in one process. */
const BOTH_BROWSERS = ['test/e2e/outline-parity.e2e.js'];
/**
 * Chromium-only files (a service worker stopped through CDP; Firefox's background page is
 * persistent). A Firefox-only process would list their suites as pending, which counts as failed.
 */
const CHROMIUM_ONLY = ['test/e2e/service-worker-restart.e2e.js', 'test/e2e/worker-stop.e2e.js'];
/**
 * Files that change what every Chromium of this checkout reads (a managed policy in Chromium's own
 * policy folder, keyed to the extension id they all share): run in Chromium alone, after every other
 * process has ended. Their Firefox suites run in the lanes (Firefox gets a private copy of its install).
 */
const CHROMIUM_ALONE = ['test/e2e/managed-policy.e2e.js'];
/** Files cut into parts (at most one per lane): each runs about 1/n of the cases (harness/parts.js). */
const SPLIT = { 'test/e2e/injection.e2e.js': 3, 'test/e2e/lies.e2e.js': 2, 'test/e2e/evals.e2e.js': 2 };

/**
 * @typedef {'chromium' | 'firefox'} Kind
 * @typedef {{ name: string, cmd: string, args: string[], mocha?: boolean, kind?: Kind, lane?: number, env?: Record<string, string> }} Step kind, lane: an e2e lane of that browser, its index
 * @typedef {{ passed: number, failed: number, pending: number, bye: boolean }} LaneStats what a lane reported over IPC (bye: it ended as it should)
 * @typedef {{ code: number, out: string, secs: string, stats?: LaneStats }} Result
 * @typedef {{ step: string, file: string, seconds: number, cpu?: number | null, tests: number, part?: string, kind?: Kind }} FileTime kind: the browser it ran in (a lane may run the other browser's files)
 * @typedef {{ kind: Kind, files: string[], part?: { of: number, index: number }, seconds: number }} Item what one lane is given: a file, a part of one, or files that share a second browser
 */

/** The recorded seconds of each file per browser (all its parts and lanes added). @returns {Promise<Map<string, number>>} */
async function recordedTimes() {
  const got = await readFile(TIMES_FILE, 'utf8').then((t) => JSON.parse(t), () => null);
  /** @type {Map<string, number>} */
  const times = new Map();
  for (const f of /** @type {FileTime[]} */ (got?.files ?? [])) {
    const kind = f.kind ?? /^e2e ([a-z,]+)/.exec(f.step)?.[1];
    if (kind !== 'chromium' && kind !== 'firefox') continue;
    times.set(`${kind} ${f.file}`, (times.get(`${kind} ${f.file}`) ?? 0) + f.seconds);
  }
  return times;
}

/** Every e2e file, its path relative to the root. @returns {Promise<string[]>} */
async function e2eFiles() {
  const names = await readdir(join(root, E2E_DIR), { recursive: true });
  return names.filter((n) => n.endsWith('.e2e.js')).map((n) => `${E2E_DIR}/${n}`).sort();
}

/**
 * What the lanes of one browser are given. Files that use a second browser (getVariantEnv: another
 * language, Firefox in the dark) stay together, so that browser is launched once.
 * @param {Kind} kind @param {string[]} files @param {Map<string, number>} times @returns {Promise<Item[]>}
 */
async function itemsOf(kind, files, times) {
  const estimate = (/** @type {string} */ f) => times.get(`${kind} ${f}`) ?? DEFAULT_SECONDS;
  /** @type {Item[]} */
  const items = [];
  const variants = [];
  for (const f of files) {
    const n = Math.min(/** @type {Record<string, number>} */ (SPLIT)[f] ?? 1, LANES);
    if (n > 1) {
      for (let index = 0; index < n; index++) items.push({ kind, files: [f], part: { of: n, index }, seconds: estimate(f) / n });
    } else if ((await readFile(join(root, f), 'utf8')).includes('getVariantEnv(')) {
      variants.push(f);
    } else {
      items.push({ kind, files: [f], seconds: estimate(f) });
    }
  }
  if (variants.length) items.push({ kind, files: variants, seconds: variants.reduce((s, f) => s + estimate(f), 0) });
  return items;
}

/**
 * The e2e plan: LANES lists per browser, the longest items first onto the least loaded list (a part
 * onto one without another part of its file), each list then in its order (ordered). A lane runs its
 * own list, then takes from the others (takeFor); harness/lane.mjs.
 * @returns {Promise<Record<Kind, Item[][]>>}
 */
async function planE2e() {
  const times = await recordedTimes();
  const all = (await e2eFiles()).filter((f) => !BOTH_BROWSERS.includes(f));
  /** @type {Record<Kind, Item[][]>} */
  const plan = { chromium: [], firefox: [] };
  for (const kind of /** @type {Kind[]} */ (['chromium', 'firefox'])) {
    const files = kind === 'firefox' ? all.filter((f) => !CHROMIUM_ONLY.includes(f)) : all.filter((f) => !CHROMIUM_ALONE.includes(f));
    const mine = Array.from({ length: LANES }, () => ({ items: /** @type {Item[]} */ ([]), seconds: 0 }));
    for (const item of (await itemsOf(kind, files, times)).sort((a, b) => b.seconds - a.seconds)) {
      // The parts of one file go to different lanes (there are never more parts than lanes).
      const free = mine.filter((l) => !item.part || !l.items.some((i) => i.files[0] === item.files[0]));
      const lane = free.reduce((a, b) => (b.seconds < a.seconds ? b : a));
      lane.items.push(item);
      lane.seconds += item.seconds;
    }
    plan[kind] = mine.map((l) => ordered(l.items));
  }
  if (laneSteps().some(wanted)) {
    console.log(`e2e lanes (estimated from ${TIMES_FILE.slice(root.length + 1)}; a lane done with its own takes from the others):`);
    for (const kind of /** @type {Kind[]} */ (['chromium', 'firefox'])) {
      plan[kind].forEach((items, i) => console.log(`  ${kind} ${i + 1}: ${Math.round(remaining(items))} s, ${items.map(itemName).join(', ')}`));
    }
    console.log(`  then ${BOTH_BROWSERS.join(', ')} in both browsers once a lane is done, and, alone, ${CHROMIUM_ALONE.join(', ')} in Chromium`);
  }
  return plan;
}

/**
 * A lane's order: the files of SHORT_SECONDS or more in alphabetical order (the heavy ones fall at
 * different times in different lanes), then the short ones, longest first. Another lane takes from
 * the end, and what is left at the end is short, so the lanes end within a short file of each other.
 * @param {Item[]} items
 */
function ordered(items) {
  const long = items.filter((i) => i.seconds >= SHORT_SECONDS).sort((a, b) => a.files[0].localeCompare(b.files[0]));
  return [...long, ...items.filter((i) => i.seconds < SHORT_SECONDS).sort((a, b) => b.seconds - a.seconds)];
}

/** The estimated seconds of a list. @param {Item[]} items */
const remaining = (items) => items.reduce((n, i) => n + i.seconds, 0);

/** @param {Item} item */
const itemName = (item) => item.files.map((f) => f.slice(E2E_DIR.length + 1)).join(' + ') + (item.part ? ` (part ${item.part.index + 1}/${item.part.of})` : '');

/** The e2e lanes, LANES per browser. @returns {Step[]} */
function laneSteps() {
  return /** @type {Kind[]} */ (['chromium', 'firefox']).flatMap((kind) => Array.from({ length: LANES }, (_, i) => ({
    name: `e2e ${kind} ${i + 1}`, kind, lane: i, mocha: true,
    // Niced as the mocha steps are (mochaStep, below); --no-color as theirs (Mocha's symbols read it).
    cmd: 'nice', args: ['-n', '10', process.execPath, 'test/e2e/harness/lane.mjs', '--no-color'], env: { TW_BROWSERS: kind, TW_LANE: '1' },
  })));
}

/**
 * The next item for lane `index` of browser `kind`: the first of its own list; once that is empty,
 * the last of its browser's list with the most work left; once its browser has nothing left, the
 * last of the other browser's list with the most left, if that is at least CROSS_SECONDS (the lane
 * then launches that browser too, which is worth it only for that much). Never a file the lane has
 * run (a file is imported once per process; the parts of a file are never more than a browser's
 * lanes, so another lane can always take it).
 * @param {Record<Kind, Item[][]>} plan @param {Kind} kind @param {number} index @param {Set<string>} ran the files this lane has run
 * @returns {Item | null}
 */
function takeFor(plan, kind, index, ran) {
  const can = (/** @type {Item} */ item) => !item.files.some((f) => ran.has(f));
  const own = plan[kind][index].findIndex(can);
  if (own >= 0) return plan[kind][index].splice(own, 1)[0];
  const other = kind === 'chromium' ? 'firefox' : 'chromium';
  const lists = [...sortedByWork(plan[kind]), ...sortedByWork(plan[other]).filter((l) => remaining(l) >= CROSS_SECONDS)];
  for (const list of lists) {
    for (let i = list.length - 1; i >= 0; i--) if (can(list[i])) return list.splice(i, 1)[0];
  }
  return null;
}

/** @param {Item[][]} lists @returns {Item[][]} the most work left first */
const sortedByWork = (lists) => [...lists].sort((a, b) => remaining(b) - remaining(a));

/** @param {string} name @param {string} browsers @param {string[]} files @returns {Step} */
function mochaStep(name, browsers, files) {
  // Niced: a few unit tests wait on real timers (a stalled stream's retry, an outline within its
  // time budget), and six browsers beside them at the same priority starve them on two cores; the
  // browsers mostly wait anyway.
  return { name, cmd: 'nice', args: ['-n', '10', bin('mocha'), '--require', 'test/e2e/hooks.js', '--timeout', '90000', ...REPORTER, ...files], mocha: true, env: { TW_BROWSERS: browsers } };
}

/**
 * A check that waits on no timer, at the lowest CPU priority: the e2e lanes are the run's critical
 * path (the checks lane ends minutes before them), so tsc, ESLint and the packaging use only what
 * the e2e processes leave idle. The unit tests keep the normal priority (some wait on real timers).
 * @param {string} name @param {string} cmd @param {string[]} args @returns {Step}
 */
const idleCheck = (name, cmd, args) => ({ name, cmd: 'nice', args: ['-n', '19', cmd, ...args] });

/** @type {Step[]} */
const CHECKS = [
  { name: 'unit', cmd: bin('mocha'), args: ['--config', 'test/.mocharc.unit.json', ...REPORTER], mocha: true },
  idleCheck('typecheck', 'npm', ['run', '-s', 'typecheck']),
  idleCheck('parity', 'node', ['scripts/sync.mjs', '--check']),
  idleCheck('eslint', 'npm', ['run', '-s', 'lint:js']),
  // The store packages as they would be uploaded, with web-ext lint of what ships (0 errors, 0
  // warnings). That lint is `npm run lint`'s over the same files (the Firefox tree less its .d.ts and
  // tsconfig.json, the same third-party files ignored), so it is not run a second time beside the e2e.
  idleCheck('package', 'npm', ['run', '-s', 'package', '--', '--out', 'test-artifacts/dist']),
];

/** Whether the command line asked for this step (`e2e` names every e2e lane, `e2e firefox` Firefox's). @param {Step} step */
const wanted = (step) => !only.length || only.some((o) => step.name === o || step.name.startsWith(`${o} `));

/**
 * Runs one step. Lanes share the terminal, so every line is prefixed with its step's name. An e2e
 * lane (harness/lane.mjs) asks for its files over IPC: it is handed the next item it can take (takeFor).
 * @param {Step} step @param {string} prefix @param {Record<Kind, Item[][]>} [plan] the e2e plan, for a lane
 * @returns {Promise<Result>}
 */
function run(step, prefix, plan) {
  const started = Date.now();
  return new Promise((resolve) => {
    // TW_BROWSERS and TW_PARTS narrow e2e during development; here only the lanes set them.
    const { TW_BROWSERS: _narrow, TW_PARTS: _parts, ...env } = process.env;
    const child = spawn(step.cmd, step.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe', ...(plan ? /** @type {const} */ (['ipc']) : [])], env: { ...env, FORCE_COLOR: '0', ...step.env, TW_TIMES_OUT: timesOf(step), TW_TIMES_LABEL: step.name } });
    let out = '';
    const write = (/** @type {NodeJS.WriteStream} */ to) => {
      let partial = '';
      return (/** @type {Buffer} */ d) => {
        out += d;
        const lines = (partial + d).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) to.write(`${prefix}${line}\n`);
      };
    };
    /** @type {import('node:stream').Readable} */ (child.stdout).on('data', write(process.stdout));
    /** @type {import('node:stream').Readable} */ (child.stderr).on('data', write(process.stderr));
    const stats = plan ? serveLane(child, plan, /** @type {Kind} */ (step.kind), step.lane ?? 0) : undefined;
    const done = (/** @type {number} */ code) => resolve({ code, out, secs: ((Date.now() - started) / 1000).toFixed(1), ...(stats ? { stats } : {}) });
    child.on('close', (code) => done(code ?? 1));
    child.on('error', (err) => { out += String(err); done(1); });
  });
}

/**
 * Answers a lane's requests from the plan's lists (takeFor) and adds up what it reports.
 * @param {import('node:child_process').ChildProcess} child @param {Record<Kind, Item[][]>} plan @param {Kind} kind @param {number} index @returns {LaneStats}
 */
function serveLane(child, plan, kind, index) {
  const stats = { passed: 0, failed: 0, pending: 0, bye: false };
  /** @type {Set<string>} */
  const ran = new Set();
  child.on('message', (/** @type {{ type: string, passed?: number, failed?: number, pending?: number }} */ msg) => {
    if (msg.type === 'next') {
      const item = takeFor(plan, kind, index, ran);
      if (!item) { child.send({ type: 'end' }); return; }
      for (const f of item.files) ran.add(f);
      child.send({ type: 'run', kind: item.kind, files: item.files, parts: item.part ? { [item.files[0]]: { of: item.part.of, run: [item.part.index] } } : {} });
    } else if (msg.type === 'ran') {
      stats.passed += msg.passed ?? 0;
      stats.failed += msg.failed ?? 0;
      stats.pending += msg.pending ?? 0;
    } else if (msg.type === 'bye') {
      stats.bye = true;
    }
  });
  return stats;
}

/** @param {Step} step */
const timesOf = (step) => join(TIMES_DIR, `${step.name.replace(/[^a-z0-9]+/g, '-')}.json`);

let passed = 0;
let failed = 0;
/** @type {string[]} */
const summary = [];

/** @param {Step} step @param {Result} r */
function count(step, { code, out, secs, stats }) {
  if (step.mocha) {
    const p = stats ? stats.passed : Number(/(\d+) passing/.exec(out)?.[1] ?? 0);
    const f = stats ? stats.failed : Number(/(\d+) failing/.exec(out)?.[1] ?? 0);
    const pending = stats ? stats.pending : Number(/(\d+) pending/.exec(out)?.[1] ?? 0);
    // A crash before mocha reports (or a non-zero exit, or a lane that never said goodbye, with no
    // failures counted) is a failure too.
    const crashed = (code !== 0 || (stats && !stats.bye)) && f === 0 ? 1 : 0;
    passed += p;
    failed += f + pending + crashed;
    summary.push(`${step.name}: ${p} passed, ${f} failed${pending ? `, ${pending} pending (counted as failed)` : ''}${crashed ? ', crashed' : ''} (${secs} s)`);
  } else {
    if (code === 0) passed++; else failed++;
    summary.push(`${step.name}: ${code === 0 ? 'ok' : 'FAILED'} (${secs} s)`);
  }
  walls.push({ step: step.name, seconds: Number(secs) });
}

/** @param {Step} step @param {number} width */
const prefixOf = (step, width) => `[${step.name.replace(/^e2e /, '')}]`.padEnd(width);

/** @param {Step[]} lane @param {number} width */
async function runLane(lane, width) {
  for (const step of lane) count(step, await run(step, prefixOf(step, width)));
}

/** @type {{ step: string, seconds: number }[]} */
const walls = [];
await rm(TIMES_DIR, { recursive: true, force: true });
await mkdir(TIMES_DIR, { recursive: true });
const startedAll = Date.now();
const plan = await planE2e();
if (PLAN_ONLY) process.exit(0);
const checks = CHECKS.filter(wanted);
const e2eLanes = laneSteps().filter(wanted);
const both = [mochaStep('e2e chromium,firefox', 'chromium,firefox', BOTH_BROWSERS)].filter(wanted);
const alone = [mochaStep('e2e chromium alone', 'chromium', CHROMIUM_ALONE)].filter(wanted);
const width = Math.max(...[...checks, ...e2eLanes, ...both, ...alone].map((s) => s.name.length)) - 1;
// The cross-browser files run once the first lane is done, beside the others' last files.
let bothStarted = false;
const afterLane = async () => {
  if (bothStarted) return;
  bothStarted = true;
  await runLane(both, width);
};
await Promise.all([
  runLane(checks, width),
  ...e2eLanes.map(async (step) => {
    count(step, await run(step, prefixOf(step, width), plan));
    await afterLane();
  }),
  ...(e2eLanes.length ? [] : [afterLane()]),
]);
await runLane(alone, width);
await writeTimes([...checks, ...e2eLanes, ...both, ...alone]);
console.log('\n=== summary ===');
for (const line of summary) console.log(line);
console.log(`whole run: ${((Date.now() - startedAll) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;

/** Every file's time from the reporters, in one file, and the slowest ten named. @param {Step[]} steps */
async function writeTimes(steps) {
  /** @type {FileTime[]} */
  const files = [];
  for (const step of steps.filter((s) => s.mocha)) {
    const got = await readFile(timesOf(step), 'utf8').then((t) => JSON.parse(t), () => null);
    for (const f of got?.files ?? []) {
      files.push({ step: step.name, file: f.file, seconds: f.seconds, cpu: f.cpu ?? null, tests: f.passed + f.failed + f.pending, ...(f.part ? { part: f.part } : {}), ...(f.kind ? { kind: f.kind } : {}) });
    }
  }
  if (!files.length) return;
  files.sort((a, b) => b.seconds - a.seconds);
  console.log('\n=== slowest files ===');
  for (const f of files.slice(0, 10)) console.log(`${f.seconds.toFixed(1).padStart(7)} s  ${f.file}${f.part ? ` part ${f.part}` : ''} [${f.step}] (${f.tests} tests)`);
  // On two cores with four browsers the run is CPU-bound: what each file used is what it cost.
  const cpu = files.filter((f) => typeof f.cpu === 'number');
  if (cpu.length) {
    const total = cpu.reduce((s, f) => s + /** @type {number} */ (f.cpu), 0);
    console.log(`\n=== most CPU (the e2e files used ${Math.round(total)} s of CPU) ===`);
    for (const f of [...cpu].sort((a, b) => /** @type {number} */ (b.cpu) - /** @type {number} */ (a.cpu)).slice(0, 10)) {
      console.log(`${/** @type {number} */ (f.cpu).toFixed(1).padStart(7)} s  ${f.file}${f.part ? ` part ${f.part}` : ''} [${f.step}]`);
    }
  }
  // A run narrowed to some steps keeps the last full run's record.
  if (only.length) return;
  const record = { date: new Date().toISOString(), cores: cpus().length, lanesPerBrowser: LANES, wallSeconds: Math.round((Date.now() - startedAll) / 100) / 10, steps: walls, files };
  await writeFile(TIMES_FILE, JSON.stringify(record, null, 2) + '\n');
}
