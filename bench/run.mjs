#!/usr/bin/env node
// `npm run bench`: every benchmark in bench/, one after another, each in its own process.
//   npm run bench                 all of them
//   npm run bench -- snapshot     only those whose file name contains "snapshot"
// Results are printed and, where a benchmark writes one, saved under bench/results/; the figures
// are reported in docs/PERFORMANCE.md. Benchmarks are never part of npm test.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs')
  .filter((f) => !filter.length || filter.some((x) => f.includes(x)))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`\n=== bench/${f} ===`);
  const r = spawnSync(process.execPath, [join(here, f)], { stdio: 'inherit' });
  if (r.status !== 0) { failed++; console.error(`bench/${f} exited with ${r.status}`); }
}
console.log(`\n${files.length - failed} benchmark(s) ran, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
