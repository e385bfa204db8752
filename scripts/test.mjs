#!/usr/bin/env node
// `npm test`: typecheck, parity, web-ext lint, unit and e2e (both browsers), in that order.
// Every step runs even when an earlier one fails, so one run shows everything that is wrong.
// The last line is `N passed, N failed` alone, which CI reads.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (/** @type {string} */ name) => join(root, 'node_modules/.bin', name);
const only = process.argv.slice(2);

/** @type {{ name: string, cmd: string, args: string[], mocha?: boolean }[]} */
const STEPS = [
  { name: 'typecheck', cmd: 'npm', args: ['run', '-s', 'typecheck'] },
  { name: 'parity', cmd: 'node', args: ['scripts/sync.mjs', '--check'] },
  { name: 'lint', cmd: 'npm', args: ['run', '-s', 'lint'] },
  { name: 'unit', cmd: bin('mocha'), args: ['--config', 'test/.mocharc.unit.json'], mocha: true },
  { name: 'e2e', cmd: bin('mocha'), args: ['--config', 'test/.mocharc.e2e.json'], mocha: true },
];

/** @param {string} cmd @param {string[]} args @returns {Promise<{ code: number, out: string }>} */
function run(cmd, args) {
  return new Promise((resolve) => {
    // TW_BROWSERS narrows e2e to one browser during development; the test command never does.
    const { TW_BROWSERS: _narrow, ...env } = process.env;
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, FORCE_COLOR: '0' } });
    let out = '';
    child.stdout.on('data', (d) => { out += d; process.stdout.write(d); });
    child.stderr.on('data', (d) => { out += d; process.stderr.write(d); });
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
    child.on('error', (err) => resolve({ code: 1, out: String(err) }));
  });
}

let passed = 0;
let failed = 0;
/** @type {string[]} */
const summary = [];
for (const step of STEPS) {
  if (only.length && !only.includes(step.name)) continue;
  console.log(`\n=== ${step.name} ===`);
  const started = Date.now();
  const { code, out } = await run(step.cmd, step.args);
  const secs = ((Date.now() - started) / 1000).toFixed(1);
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
console.log('\n=== summary ===');
for (const line of summary) console.log(line);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
