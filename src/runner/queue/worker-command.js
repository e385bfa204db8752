// `tabwright worker`: one browser, runs taken from the queue N at a time (one tab each). A run is
// decided from the ledger first (process-run.js). A worker killed mid-run stops renewing its
// lock; after --lock-ms another worker's stalled-job check puts the run back, and its next taker
// finds it "started" in the ledger and looks it up before running it again.
import { Worker } from 'bullmq';
import { hostname } from 'node:os';
import { parseArgs, numberArg, UsageError } from '../args.js';
import { launchBrowser } from '../browser.js';
import { runOnce } from '../drive.js';
import { withinDeadline, slowRuns } from '../deadline.js';
import { providerFromEnv, runnerSettings } from '../provider-env.js';
import { connect, DEFAULT_QUEUE, DEFAULT_PREFIX } from './connection.js';
import { createLedger } from './ledger.js';
import { processRun } from './process-run.js';
import { EXIT } from '../result.js';

export const WORKER_USAGE = `tabwright worker [--redis URL] [--queue NAME] [--browser chromium|firefox] [--concurrency N]
  --concurrency N        runs at once in this worker's browser, one tab each (default 2)
  --allow-site HOST      a site where writes go without asking a person (repeatable)
  --profile DIR          the browser's profile folder (default: a temporary one)
  --lock-ms MS           how long a run's lock lasts unrenewed before another worker takes it over (default 30000)
  --settle-ms MS         how long a run's request hold stays past its last acting step, so a write the
                         page sends late is still held and counted (default 5000, the product's; 1000–60000)
  --timeout SECONDS      one run's longest time: then it is stopped, its held write refused (default 300)
  --deadline SECONDS     the hard limit past which a run that does not even stop is given up: its tab
                         closed, the job retried (its lookup decides) or failed on its last attempt
                         (default --timeout + 60)
Stops after the runs in progress on SIGTERM or SIGINT.`;

/** @param {string[]} argv @returns {Promise<number>} */
export async function workerCommand(argv) {
  const a = parseArgs(argv, { lists: ['allow-site'] });
  const kind = a.flags.browser ?? 'chromium';
  if (kind !== 'chromium' && kind !== 'firefox') throw new UsageError(`--browser must be chromium or firefox, not "${kind}".`);
  const concurrency = numberArg(a.flags.concurrency, 2, '--concurrency');
  const lockDuration = numberArg(a.flags['lock-ms'], 30_000, '--lock-ms');
  const timeoutMs = numberArg(a.flags.timeout, 300, '--timeout') * 1000;
  const deadlineMs = numberArg(a.flags.deadline, timeoutMs / 1000 + 60, '--deadline') * 1000;
  const name = `${hostname()}:${process.pid}`;
  const say = (/** @type {string} */ line) => process.stderr.write(`tabwright worker ${name}: ${line}\n`);
  const redis = connect(a.flags.redis ?? process.env.TABWRIGHT_REDIS ?? 'redis://127.0.0.1:6379');
  const ledger = createLedger(redis, DEFAULT_PREFIX);
  const b = await launchBrowser({ kind, profile: a.flags.profile });
  const set = await b.ask({ type: 'settings.set', settings: runnerSettings({ provider: providerFromEnv(process.env), allowSites: a.lists['allow-site'] ?? [], settleMs: a.flags['settle-ms'] ? numberArg(a.flags['settle-ms'], 5000, '--settle-ms') : undefined }) });
  if (!set?.ok) throw new Error(`The settings were refused: ${set?.message}`);
  /** @type {Set<import('../deadline.js').Whereabouts>} */
  const running = new Set();
  // A run that takes long says what it waits for (a tab's load, which request, the lookup).
  const report = setInterval(() => { for (const line of slowRuns(running, 60_000)) say(`slow: ${line}`); }, 30_000);
  const worker = new Worker(a.flags.queue ?? DEFAULT_QUEUE, async (job) => {
    const run = job.data;
    const result = await processRun(run, job.attemptsMade + 1, {
      ledger, worker: name, pid: process.pid, lastAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1),
      execute: (r) => withinDeadline(b, r.key, deadlineMs, (view, where) => runOnce(view, r, { timeoutMs, onState: (st) => { where.state = st; }, onProgress: (line) => { where.lastStep = line; say(`${r.key}: ${line}`); } }), running,
        (err, closed) => say(`${r.key}: given up: ${err.message} Closed its tab${closed.length === 1 ? '' : 's'} ${closed.join(', ') || '(none open)'}.`)),
      lookup: (url) => b.readText(url),
    }).catch(async (err) => {
      // A browser that no longer answers takes every later run down with it: this worker leaves,
      // its runs in progress are taken over like a killed worker's, and its supervisor starts a new one.
      if (!(await answers(b))) { say(`the browser stopped answering (${err.message}); leaving`); process.exit(EXIT.error); }
      throw err;
    });
    say(`${run.key}: ${result.verdict}${result.recovered ? ` (recovered by ${result.recovered}, not run again)` : ''}`);
    // The job keeps the verdict; the whole result with its trace is in the ledger.
    return { verdict: result.verdict, recovered: result.recovered ?? null, reasons: result.reasons, needsPerson: result.needsPerson ?? null };
  }, { connection: redis, prefix: DEFAULT_PREFIX, concurrency, lockDuration, stalledInterval: Math.max(1000, Math.round(lockDuration / 2)), maxStalledCount: 3 });
  worker.on('failed', (job, err) => say(`${job?.data?.key}: attempt ${job?.attemptsMade} failed: ${err.message}`));
  await worker.waitUntilReady();
  say(`ready (${kind}, ${concurrency} at a time)`);
  await new Promise((resolve) => {
    for (const sig of /** @type {const} */ (['SIGTERM', 'SIGINT'])) process.once(sig, resolve);
  });
  say('stopping after the runs in progress');
  clearInterval(report);
  await worker.close();
  await b.close();
  redis.disconnect();
  return 0;
}

/** Whether the browser's extension still answers a request within a few seconds. @param {import('../browser.js').Browser} b */
async function answers(b) {
  const timeout = new Promise((r) => setTimeout(() => r(null), 10_000));
  const reply = await Promise.race([b.ask({ type: 'settings.get' }).catch(() => null), timeout]);
  return Boolean(/** @type {any} */ (reply)?.ok);
}
