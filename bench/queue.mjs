#!/usr/bin/env node
// Workflow runs at scale (docs/SCALE.md): runs per minute through the BullMQ queue with 1 and with
// 3 worker processes (each one headless Chromium, --concurrency runs at once in tabs), and the
// memory each worker's browser takes (PSS of all its processes, sampled each second while it runs;
// src/runner/memory.js) and each worker process's own. The runs are the eval apps' "File an issue"
// workflow (test/fixtures/apps/tracker-workflow.js), replayed with no model call; every key is
// checked to have written exactly once. The machine's load average is recorded beside the figures:
// the machine is shared, so the figures are what it gave at that moment.
//   node bench/queue.mjs [runs per worker] [concurrency]      (npm run bench -- queue)
import { spawn } from 'node:child_process';
import { mkdtemp, rm, mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { startRedis } from '../test/e2e/harness/redis.js';
import { startApps } from '../test/fixtures/apps/server.js';
import { trackerWorkflowExport, trackerLookupUrl } from '../test/fixtures/apps/tracker-workflow.js';
import { connect, DEFAULT_PREFIX, DEFAULT_QUEUE } from '../src/runner/queue/connection.js';
import { enqueueRuns } from '../src/runner/queue/enqueue.js';
import { pickWorkflow } from '../src/runner/workflow-file.js';
import { browserMemory } from '../src/runner/memory.js';

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, '../src/runner/cli.js');
const PER_WORKER = Number(process.argv[2] ?? 20);
const CONCURRENCY = Number(process.argv[3] ?? 4);
const MB = 1024 * 1024;

/** @param {string} redisUrl @param {string} host @param {string} profile */
function startWorker(redisUrl, host, profile) {
  const child = spawn(process.execPath, [CLI, 'worker', '--redis', redisUrl, '--concurrency', String(CONCURRENCY), '--allow-site', host, '--profile', profile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const ready = new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => { err += d; if (err.includes('ready')) resolve(undefined); });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}): ${err.slice(-500)}`)));
  });
  return { child, profile, ready };
}

/** The RSS of one process, bytes. @param {number} pid */
async function rss(pid) {
  const { readFile } = await import('node:fs/promises');
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''))?.[1];
  return kb ? Number(kb) * 1024 : 0;
}

/** @param {number} n workers @param {{ url: string }} redis @param {Awaited<ReturnType<typeof startApps>>} apps */
async function measure(n, redis, apps) {
  const conn = connect(redis.url);
  const queue = new Queue(DEFAULT_QUEUE, { connection: conn, prefix: DEFAULT_PREFIX });
  await queue.obliterate({ force: true });
  apps.reset();
  const workers = [];
  for (let i = 0; i < n; i++) workers.push(startWorker(redis.url, new URL(apps.url).host, await mkdtemp(join(tmpdir(), 'tw-bench-'))));
  await Promise.all(workers.map((w) => w.ready));
  const workflow = pickWorkflow(trackerWorkflowExport(apps.url));
  const total = PER_WORKER * n;
  const runs = Array.from({ length: total }, (_, i) => ({ key: `b${n}-${i}`, workflow, values: { title: `Bench ${n}-${i}.` }, lookup: { url: trackerLookupUrl(apps.url), text: `Bench ${n}-${i}.` } }));
  /** @type {number[]} */ const browserMem = [];
  /** @type {number[]} */ const workerMem = [];
  const load = [];
  const t0 = Date.now();
  await enqueueRuns(queue, runs);
  for (;;) {
    const c = await queue.getJobCounts('completed', 'failed');
    for (const w of workers) { browserMem.push(await browserMemory(w.profile)); workerMem.push(await rss(/** @type {number} */ (w.child.pid))); }
    load.push(loadavg()[0]);
    if (c.completed + c.failed >= total) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  const seconds = (Date.now() - t0) / 1000;
  const counts = await queue.getJobCounts('completed', 'failed');
  const titles = apps.writes.filter((w) => w.path === '/tracker/api/issues').map((w) => JSON.parse(w.body).title);
  const once = new Set(titles).size === total && titles.length === total;
  // Every run's verdict: all should be verified (a NO_WRITE_SEEN would be a write the hold missed).
  const verdicts = (await queue.getJobs(['completed'], 0, total)).map((j) => j.returnvalue?.verdict);
  const verified = verdicts.filter((v) => v === 'verified').length;
  for (const w of workers) w.child.kill('SIGTERM');
  await Promise.all(workers.map((w) => new Promise((r) => (w.child.exitCode !== null ? r(undefined) : w.child.once('exit', r)))));
  for (const w of workers) await rm(w.profile, { recursive: true, force: true });
  await queue.close();
  conn.disconnect();
  const mean = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return {
    workers: n, concurrency: CONCURRENCY, runs: total, completed: counts.completed, failed: counts.failed, verified, eachKeyWroteOnce: once,
    seconds: Math.round(seconds * 10) / 10, runsPerMinute: Math.round((total / seconds) * 60 * 10) / 10,
    browserMemoryMB: { mean: Math.round(mean(browserMem) / MB), peak: Math.round(Math.max(...browserMem) / MB) },
    workerProcessMB: { mean: Math.round(mean(workerMem) / MB), peak: Math.round(Math.max(...workerMem) / MB) },
    loadAverage: Math.round(mean(load) * 10) / 10,
  };
}

const redis = await startRedis();
const apps = await startApps();
try {
  const results = [];
  for (const n of [1, 3]) {
    const r = await measure(n, redis, apps);
    console.log(`${n} worker(s) × ${CONCURRENCY} tabs: ${r.runs} runs in ${r.seconds} s = ${r.runsPerMinute} runs/min; browser ${r.browserMemoryMB.mean} MB (peak ${r.browserMemoryMB.peak}), worker process ${r.workerProcessMB.mean} MB; verified ${r.verified}/${r.runs}; each key once: ${r.eachKeyWroteOnce}; load ${r.loadAverage} on ${cpus().length} cores`);
    results.push(r);
  }
  await mkdir(join(here, 'results'), { recursive: true });
  await writeFile(join(here, 'results/queue.json'), `${JSON.stringify({ at: new Date().toISOString(), cores: cpus().length, results }, null, 2)}\n`);
  if (results.some((r) => !r.eachKeyWroteOnce || r.failed || r.verified !== r.runs)) process.exitCode = 1;
} finally {
  await apps.close();
  await redis.stop();
}
