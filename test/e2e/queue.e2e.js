// Tabwright without a person at the browser (src/runner/, docs/SCALE.md), against the eval apps'
// tracker: a workflow file that files an issue whose title carries the run's idempotency key, so
// the tracker's server shows which runs wrote and how often.
// Chromium: Redis (its own, on a free port) and worker processes, three tabs each, run queued runs
// (20 on two workers in npm test, 100 on three with TW_SCALE=1); one worker is killed (SIGKILL)
// while the tracker is answering one of its writes. The server's writes and state show each key
// exactly once, every job completed verified, the killed run was settled by its lookup without
// running again, and the killed worker's browser went with it. And a run that never ends (its model
// never answers) is given up at the worker's deadline, and the same worker takes the next run.
// Firefox: `tabwright run` on the same file: verified (exit 0) with its trace and no model call, and
// without the site allowed, "needs a person" (exit 3) with the reason and nothing written; and a
// task with the model from the environment (the mock LLM): verified, its four requests made.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { browsers } from './harness/env.js';
import { startRedis } from './harness/redis.js';
import { startApps } from '../fixtures/apps/server.js';
import { startMockLLM } from '../fixtures/llm/server.js';
import { findRef, lastToolResult } from '../fixtures/llm/conversation.js';
import { trackerWorkflowExport, trackerLookupUrl } from '../fixtures/apps/tracker-workflow.js';
import { connect, DEFAULT_PREFIX, DEFAULT_QUEUE } from '../../src/runner/queue/connection.js';
import { createLedger } from '../../src/runner/queue/ledger.js';
import { enqueueRuns } from '../../src/runner/queue/enqueue.js';
import { pickWorkflow } from '../../src/runner/workflow-file.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '../../src/runner/cli.js');
/** `npm run test:scale` (TW_SCALE=1): 100 runs; npm test: 20, the same properties on a smaller queue. */
const SCALE = process.env.TW_SCALE === '1';
const RUNS = SCALE ? 100 : 20;
const KILL_AT = SCALE ? 'run-040' : 'run-008';
/** Three workers at scale; two in npm test (one to kill, one to take its runs over): a browser less to start. */
const WORKERS = SCALE ? 3 : 2;
const keyOf = (/** @type {number} */ i) => `run-${String(i).padStart(3, '0')}`;
const titleOf = (/** @type {string} */ key) => `Nightly check ${key}`;
/** The titles the tracker received, one entry per POST that reached it. @param {{ path: string, body: string }[]} writes */
const postedTitles = (writes) => writes.filter((w) => w.path === '/tracker/api/issues').map((w) => JSON.parse(w.body).title);

/**
 * A `tabwright` process; resolves once its stderr shows `until` (a worker's "ready") or it exits.
 * @param {string[]} args @param {string} [until] @param {NodeJS.ProcessEnv} [env]
 */
function tabwright(args, until, env = process.env) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  const proc = { child, out: '', err: '', exited: /** @type {Promise<{ code: number | null, signal: string | null }>} */ (new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })))) };
  child.stdout.on('data', (d) => { proc.out += d; });
  child.stderr.on('data', (d) => { proc.err += d; });
  const started = until ? new Promise((resolve, reject) => {
    child.stderr.on('data', () => { if (proc.err.includes(until)) resolve(undefined); });
    proc.exited.then((e) => reject(new Error(`tabwright ${args[0]} exited (${e.code ?? e.signal}) before "${until}": ${proc.err.slice(-800)}`)));
  }) : proc.exited;
  return { proc, started };
}

/** Whether any process still runs with this profile folder on its command line. @param {string} profile */
async function browserAlive(profile) {
  for (const pid of (await readdir('/proc')).filter((n) => /^\d+$/.test(n))) {
    const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmd.includes(profile)) return true;
  }
  return false;
}

/** @param {() => Promise<boolean>} check @param {number} ms a hang guard @param {string} what */
async function until(check, ms, what) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Runs a worker gave up at its deadline (deadline.js), from what the workers said: none is
 * expected; one would be retried and settled by its lookup (exactly once still holds) and is told
 * here with what it waited for, so that a hang is seen, not hidden.
 * @param {{ err: string }[]} workers @returns {Set<string>}
 */
function givenUp(workers) {
  const lines = workers.flatMap((w) => w.err.split('\n')).filter((l) => / given up: /.test(l) || / slow: /.test(l));
  for (const l of lines) console.warn(`queue e2e: ${l}`);
  return new Set(lines.filter((l) => / given up: /.test(l)).map((l) => /(run-\d+): given up/.exec(l)?.[1] ?? ''));
}

/**
 * Every key's ledger entry and result: done and verified; a run settled by its lookup names the
 * killed worker (or was given up at a deadline); every other run has its trace, 0 model calls, and
 * its receipt of the one write.
 * @param {ReturnType<typeof createLedger>} ledger @param {string[]} keys @param {number} killedPid @param {Set<string>} gaveUp
 */
async function readLedger(ledger, keys, killedPid, gaveUp) {
  let traced = 0;
  let recovered = 0;
  for (const key of keys) {
    expect((await ledger.get(key))?.state, key).to.equal('done');
    const result = await ledger.result(key);
    expect(result?.verdict, key).to.equal('verified');
    if (result?.recovered) {
      if (!gaveUp.has(key)) expect(result.reasons[0].message, key).to.contain(`:${killedPid}`);
      recovered++;
      continue;
    }
    expect(result?.modelCalls, key).to.equal(0);
    expect(result?.trace?.kind, key).to.equal('replay');
    expect(result?.receipt.map((w) => `${w.method} ${new URL(w.url).pathname} ${w.status}`), key).to.deep.equal(['POST /tracker/api/issues 201']);
    traced++;
  }
  return { traced, recovered };
}

// 100 runs (`npm run test:scale`, TW_SCALE=1) cost minutes on two shared cores, so npm test runs 20
// with the same kill (docs/TESTING.md says so).
if (browsers().includes('chromium')) describe(`tabwright workers: ${RUNS} queued runs on ${WORKERS} workers, one killed mid-write [chromium]`, function () {
  this.timeout(540_000);
  /** @type {Awaited<ReturnType<typeof startRedis>>} */
  let redis;
  /** @type {Awaited<ReturnType<typeof startApps>>} */
  let apps;
  /** @type {ReturnType<typeof connect>} */
  let conn;
  /** @type {Queue} */
  let queue;
  /** @type {ReturnType<typeof tabwright>['proc'][]} */
  const workers = [];
  /** @type {string[]} */
  const profiles = [];
  /** The worker killed while the tracker answered its write, and its profile. */
  const killed = { pid: 0, profile: '' };

  before(async function () {
    this.timeout(120_000);
    redis = await startRedis();
    conn = connect(redis.url);
    const ledger = createLedger(conn, DEFAULT_PREFIX);
    apps = await startApps({
      // The write of KILL_AT has changed the tracker's state; its answer waits until the worker
      // running it is dead, so that worker never learns the write landed.
      async onWrite(w) {
        if (killed.pid || !w.body.includes(titleOf(KILL_AT))) return;
        const owner = await ledger.get(KILL_AT);
        const victim = workers.find((p) => p.child.pid === owner?.pid);
        if (!victim) return;
        killed.pid = /** @type {number} */ (victim.child.pid);
        killed.profile = profiles[workers.indexOf(victim)];
        victim.child.kill('SIGKILL');
        await victim.exited;
      },
    });
    const host = new URL(apps.url).host;
    const starts = [];
    for (let i = 0; i < WORKERS; i++) {
      const profile = await mkdtemp(join(tmpdir(), 'tw-worker-'));
      profiles.push(profile);
      const w = tabwright(['worker', '--redis', redis.url, '--browser', 'chromium', '--concurrency', '3', '--allow-site', host, '--profile', profile, '--lock-ms', '6000', '--deadline', '120'], 'ready');
      workers.push(w.proc);
      starts.push(w.started);
    }
    await Promise.all(starts);
    queue = new Queue(DEFAULT_QUEUE, { connection: conn, prefix: DEFAULT_PREFIX });
  });

  after(async function () {
    this.timeout(60_000);
    if (process.env.TW_SCALE_LOG) await writeFile(process.env.TW_SCALE_LOG, workers.map((w, i) => `=== worker ${i} pid ${w.child.pid}\n${w.err}`).join('\n'));
    for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.exited));
    await queue?.close();
    conn?.disconnect();
    await apps?.close();
    await redis?.stop();
    for (const p of profiles) await rm(p, { recursive: true, force: true });
  });

  it(`runs each of ${RUNS} keys exactly once, every run verified, the killed worker's run taken over without a second write`, async () => {
    const workflow = pickWorkflow(trackerWorkflowExport(apps.url));
    const lookupUrl = trackerLookupUrl(apps.url);
    const runs = Array.from({ length: RUNS }, (_, i) => {
      const key = keyOf(i + 1);
      return { key, workflow, values: { title: titleOf(key) }, lookup: { url: lookupUrl, text: titleOf(key) } };
    });
    await enqueueRuns(queue, runs, { attempts: 3, backoffMs: 500 });
    // The same keys again: nothing more is queued.
    await enqueueRuns(queue, runs.slice(0, 10), { attempts: 3, backoffMs: 500 });
    // A hang guard: alone on two cores the 100 runs take about two minutes; beside other work, more.
    /** @type {Record<string, number>} */
    let jobCounts = {};
    await until(async () => {
      jobCounts = await queue.getJobCounts('completed', 'failed', 'active', 'waiting', 'delayed');
      return jobCounts.completed + jobCounts.failed >= RUNS;
    }, 420_000, `the ${RUNS} runs to finish`).catch((err) => { throw new Error(`${err.message}: ${JSON.stringify(jobCounts)}; the workers said: ${workers.map((w) => w.err.slice(-400)).join(' | ')}`); });

    // The server: every key's write arrived once, and the state holds each issue once.
    const titles = postedTitles(apps.writes);
    expect(titles).to.have.length(RUNS);
    expect(new Set(titles).size).to.equal(RUNS);
    for (const r of runs) expect(apps.state.tracker.issues.filter((i) => i.title === titleOf(r.key)), r.key).to.have.length(1);

    // The queue: every job completed verified (a replay counts the write its last step caused
    // however late the hold sees it: no NO_WRITE_SEEN allowed); no job failed.
    const counts = await queue.getJobCounts('completed', 'failed', 'waiting', 'active', 'delayed');
    expect(counts).to.include({ completed: RUNS, failed: 0, waiting: 0, active: 0, delayed: 0 });
    const jobs = await queue.getJobs(['completed'], 0, RUNS);
    const unverified = jobs.filter((j) => j.returnvalue.verdict !== 'verified').map((j) => ({ key: String(j.id), ...j.returnvalue }));
    expect(unverified, JSON.stringify(unverified)).to.deep.equal([]);
    const gaveUp = givenUp(workers);

    // The killed worker: killed by SIGKILL while the tracker answered its write; its browser went with it.
    expect(killed.pid, 'a worker was killed mid-write').to.be.above(0);
    const victim = workers.find((w) => w.child.pid === killed.pid);
    expect((await victim?.exited)?.signal).to.equal('SIGKILL');
    await until(async () => !(await browserAlive(killed.profile)), 30_000, 'the killed worker\'s browser to end');

    // The ledger: results and traces stored; the killed run settled by its lookup, not run again.
    const ledger = createLedger(conn, DEFAULT_PREFIX);
    const taken = await ledger.get(KILL_AT);
    const settled = await ledger.result(KILL_AT);
    expect(taken).to.include({ state: 'done', verdict: 'verified', runs: 1, recovered: 'lookup' });
    expect(settled?.reasons[0].message).to.contain(`:${killed.pid}`).and.contain(titleOf(KILL_AT));
    const { traced, recovered } = await readLedger(ledger, runs.map((r) => r.key), killed.pid, gaveUp);
    // Only runs cut off after their write were settled without a trace of their own.
    expect(recovered).to.be.within(1, 3 + gaveUp.size);
    expect(traced + recovered).to.equal(RUNS);
  });
});

/**
 * A model server that never answers a chat request (its model list answers, so the settings take
 * it): the run waits on the provider for ever. It records each chat request and when its connection closed.
 */
async function startHangingModel() {
  /** @type {{ path: string, closed: boolean }[]} */
  const chats = [];
  const server = http.createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', '*');
    if (req.method === 'OPTIONS') { res.writeHead(204).end(); return; }
    if (req.method === 'GET') { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'mock-1', object: 'model' }] })); return; }
    const chat = { path: String(req.url), closed: false };
    chats.push(chat);
    res.on('close', () => { chat.closed = true; });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', () => r(undefined)));
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, chats, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r(undefined)); }) };
}

// In npm test (cheap: one worker, one tab, two runs). The deadline is the worker's last guard: a
// run whose every wait is bounded ends by itself, so the hang here is a model that never answers,
// and --timeout (the graceful stop) is set past the deadline so that the deadline is what ends it.
if (browsers().includes('chromium')) describe('tabwright worker: a run that never ends is given up at its deadline [chromium]', function () {
  this.timeout(150_000);
  /** @type {Awaited<ReturnType<typeof startRedis>>} */
  let redis;
  /** @type {Awaited<ReturnType<typeof startApps>>} */
  let apps;
  /** @type {Awaited<ReturnType<typeof startHangingModel>>} */
  let model;
  /** @type {ReturnType<typeof connect>} */
  let conn;
  /** @type {Queue} */
  let queue;
  /** @type {ReturnType<typeof tabwright>['proc'] | null} */
  let worker = null;
  let profile = '';

  before(async function () {
    this.timeout(90_000);
    [redis, apps, model] = await Promise.all([startRedis(), startApps(), startHangingModel()]);
    conn = connect(redis.url);
    queue = new Queue(DEFAULT_QUEUE, { connection: conn, prefix: DEFAULT_PREFIX });
    profile = await mkdtemp(join(tmpdir(), 'tw-deadline-'));
    const env = { ...process.env, TABWRIGHT_PROVIDER: 'openai', TABWRIGHT_BASE_URL: model.baseUrl, TABWRIGHT_MODEL: 'mock-1', TABWRIGHT_API_KEY: 'sk-test-123' };
    const w = tabwright(['worker', '--redis', redis.url, '--browser', 'chromium', '--concurrency', '1', '--allow-site', new URL(apps.url).host,
      '--profile', profile, '--deadline', '10', '--timeout', '600'], 'ready', env);
    worker = w.proc;
    await w.started;
  });

  after(async function () {
    this.timeout(60_000);
    if (worker && worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGTERM');
    await worker?.exited;
    await queue?.close();
    conn?.disconnect();
    await Promise.all([apps?.close(), model?.close(), redis?.stop()]);
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it('ends the hung run at its deadline (its tab closed, failed with RUN_DEADLINE on the ledger), takes the next run, and nothing is written twice', async () => {
    const workflow = pickWorkflow(trackerWorkflowExport(apps.url));
    const lookup = { url: trackerLookupUrl(apps.url), text: titleOf('after-1') };
    await enqueueRuns(queue, [{ key: 'hang-1', task: `File an issue titled "${titleOf('hang-1')}"`, url: `${apps.url}/tracker/new.html` }], { attempts: 1 });
    await enqueueRuns(queue, [{ key: 'after-1', workflow, values: { title: titleOf('after-1') }, lookup }], { attempts: 1 });
    /** @type {Record<string, number>} */
    let counts = {};
    await until(async () => {
      counts = await queue.getJobCounts('completed', 'failed');
      return counts.completed + counts.failed >= 2;
    }, 120_000, 'both runs to end').catch((err) => { throw new Error(`${err.message}: ${JSON.stringify(counts)}; the worker said: ${worker?.err.slice(-1500)}`); });

    // The hung run: failed at its deadline, saying what it waited for; its model request was given up with its tab.
    const ledger = createLedger(conn, DEFAULT_PREFIX);
    const hung = await ledger.result('hang-1');
    expect(await ledger.get('hang-1'), worker?.err).to.include({ state: 'done', verdict: 'failed' });
    expect(hung?.reasons.map((r) => r.code)).to.deep.equal(['RUN_DEADLINE']);
    // What it waited for is named (the extension's answer, or the run's state and last step), whichever the deadline met.
    expect(hung?.error?.message).to.contain('passed its deadline of 10 s while waiting for ');
    expect(model.chats.length, 'the run asked the model').to.be.at.least(1);
    await until(async () => model.chats.every((c) => c.closed), 30_000, 'the hung model request to be given up');
    expect(worker?.err).to.match(/hang-1: given up: .* Closed its tab \d+\./);

    // The next run: taken by the same worker, verified, its write made once; the hung run wrote nothing.
    expect(worker?.child.exitCode).to.equal(null);
    const next = await ledger.result('after-1');
    expect(next?.verdict, JSON.stringify(next?.reasons)).to.equal('verified');
    expect(next?.receipt.map((w) => `${w.method} ${new URL(w.url).pathname} ${w.status}`)).to.deep.equal(['POST /tracker/api/issues 201']);
    expect(postedTitles(apps.writes)).to.deep.equal([titleOf('after-1')]);
    expect(apps.state.tracker.issues.filter((i) => i.title.startsWith('Nightly check')).map((i) => i.title)).to.deep.equal([titleOf('after-1')]);
  });
});

if (browsers().includes('firefox')) describe('tabwright run: a workflow file in headless Firefox, verified or needing a person [firefox]', function () {
  this.timeout(120_000);
  /** @type {Awaited<ReturnType<typeof startApps>>} */
  let apps;
  /** @type {Awaited<ReturnType<typeof startMockLLM>>} */
  let llm;
  let dir = '';
  let file = '';
  before(async () => {
    apps = await startApps();
    llm = await startMockLLM();
    dir = await mkdtemp(join(tmpdir(), 'tw-run-'));
    file = join(dir, 'workflows.json');
    await writeFile(file, JSON.stringify(trackerWorkflowExport(apps.url)));
  });
  after(async () => {
    await apps?.close();
    await llm?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('exits 0 with the verdict, receipt and trace when the site is allowed, 3 with the reason and nothing written when a person must confirm; a task uses the model from the environment', async () => {
    const host = new URL(apps.url).host;
    llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (req) => ({ toolCalls: [{ name: 'type', args: { ref: findRef(lastToolResult(req.body), 'textbox', 'Title'), text: titleOf('ff-task') } }] }),
      { toolCalls: [{ name: 'click', args: { text: 'Create issue' } }] },
      { toolCalls: [{ name: 'done', args: { summary: `Created the issue "${titleOf('ff-task')}".` } }] },
    ]);
    const model = { ...process.env, TABWRIGHT_PROVIDER: 'openai', TABWRIGHT_BASE_URL: llm.baseUrl, TABWRIGHT_MODEL: 'mock-1', TABWRIGHT_API_KEY: 'sk-test-123' };
    const [allowed, asked, task] = [
      tabwright(['run', file, '--browser', 'firefox', '--value', `title=${titleOf('ff-1')}`, '--allow-site', host]),
      tabwright(['run', file, '--browser', 'firefox', '--value', `title=${titleOf('ff-2')}`]),
      tabwright(['run', '--task', `File an issue titled "${titleOf('ff-task')}"`, '--url', `${apps.url}/tracker/new.html`, '--browser', 'firefox', '--allow-site', host, '--no-trace'], undefined, model),
    ];
    const [ok, waits, tasked] = await Promise.all([allowed.proc.exited, asked.proc.exited, task.proc.exited]);

    expect(ok.code, allowed.proc.err).to.equal(0);
    const done = JSON.parse(allowed.proc.out);
    expect(done).to.include({ verdict: 'verified', status: 'done', modelCalls: 0 });
    expect(done.receipt.map((/** @type {any} */ w) => `${w.method} ${new URL(w.url).pathname} ${w.status}`)).to.deep.equal(['POST /tracker/api/issues 201']);
    expect(done.trace.steps.map((/** @type {any} */ s) => s.name)).to.deep.equal(['type', 'click']);
    expect(done.text).to.equal(`Filed the issue "${titleOf('ff-1')}".`);
    expect(allowed.proc.err).to.contain('step click button "Create issue": ok').and.contain('verdict: verified');

    expect(waits.code, asked.proc.err).to.equal(3);
    const parked = JSON.parse(asked.proc.out);
    expect(parked.verdict).to.equal('needs_person');
    expect(parked.needsPerson.kind).to.equal('confirmation');
    expect(parked.needsPerson.reason).to.contain('POST').and.contain('/tracker/api/issues').and.contain('Create issue');
    expect(tasked.code, task.proc.err).to.equal(0);
    const taskDone = JSON.parse(task.proc.out);
    expect(taskDone).to.include({ verdict: 'verified', modelCalls: 4 });
    expect(taskDone).to.not.have.property('trace');
    expect(llm.requests).to.have.length(4);
    // The browsers have closed: what the server holds is final.
    expect(postedTitles(apps.writes).sort()).to.deep.equal([titleOf('ff-1'), titleOf('ff-task')]);
    expect(apps.state.tracker.issues.filter((i) => i.title.startsWith('Nightly check')).map((i) => i.title).sort()).to.deep.equal([titleOf('ff-1'), titleOf('ff-task')]);
  });
});
