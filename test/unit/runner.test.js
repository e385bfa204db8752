// The headless runner's decisions without a browser or Redis (src/runner/): what a worker does with
// a run from the ledger (run it, answer a finished one, look up one cut off, park), the verdict and
// exit code of a result, the transcript's progress lines and cards for a person, the workflow file
// and the command line.
import { expect } from 'chai';
import { processRun } from '../../src/runner/queue/process-run.js';
import { resultOf, EXIT, neverBegan } from '../../src/runner/result.js';
import { personNeeded, stepLine } from '../../src/runner/transcript.js';
import { pickWorkflow } from '../../src/runner/workflow-file.js';
import { parseArgs, valuesOf, UsageError } from '../../src/runner/args.js';
import { providerFromEnv, runnerSettings } from '../../src/runner/provider-env.js';
import { DeadlineError, withinDeadline, slowRuns } from '../../src/runner/deadline.js';

/** An in-memory ledger with the shape of queue/ledger.js. */
function memoryLedger() {
  /** @type {Map<string, any>} */
  const entries = new Map();
  /** @type {Map<string, any>} */
  const results = new Map();
  /** @type {Record<string, any>} */
  const parkedOnes = {};
  return {
    entries,
    async get(/** @type {string} */ key) { return entries.get(key) ?? null; },
    async start(/** @type {string} */ key, /** @type {any} */ who) { const e = entries.get(key); entries.set(key, { ...e, ...who, state: 'started', runs: (e?.runs ?? 0) + 1 }); },
    async forget(/** @type {string} */ key) { const e = entries.get(key); entries.set(key, { ...e, state: undefined }); },
    async finish(/** @type {string} */ key, /** @type {any} */ r) { results.set(key, r); entries.set(key, { ...entries.get(key), state: 'done', verdict: r.verdict, ...(r.recovered ? { recovered: r.recovered } : {}) }); },
    async park(/** @type {string} */ key, /** @type {any} */ r) { results.set(key, r); parkedOnes[key] = r.needsPerson; entries.set(key, { ...entries.get(key), state: 'parked', verdict: r.verdict }); },
    async result(/** @type {string} */ key) { return results.get(key) ?? null; },
    async parked() { return parkedOnes; },
  };
}

const WF = { v: 1, id: 'wf-1', name: 'File an issue', start: { url: 'http://apps.test/tracker/new.html' }, params: [], steps: [] };
const verified = () => resultOf({ record: { id: 'r', tabId: 1, url: '', title: '', startedAt: 1, endedAt: 2, status: 'done', items: [], outcome: { verdict: 'verified', reasons: [], receipt: [{ method: 'POST', url: 'http://apps.test/api', status: 201, at: 1, verdict: 'verified' }] } }, workflow: WF });

/** @param {ReturnType<typeof memoryLedger>} ledger @param {{ execute?: () => Promise<any>, shown?: string }} [o] */
function deps(ledger, o = {}) {
  const calls = { executed: 0, looked: /** @type {string[]} */ ([]) };
  return {
    calls,
    d: {
      ledger: /** @type {any} */ (ledger), worker: 'host:42', pid: 42,
      execute: async () => { calls.executed++; return o.execute ? o.execute() : verified(); },
      lookup: async (/** @type {string} */ url) => { calls.looked.push(url); return o.shown ?? ''; },
    },
  };
}

describe('runner: a queued run decided from the ledger', () => {
  const run = { key: 'k1', workflow: WF, lookup: { url: 'http://apps.test/api/issues', text: 'Nightly k1' } };

  it('runs a new key once and stores its verdict; the same key again answers the stored result without running', async () => {
    const ledger = memoryLedger();
    const { d, calls } = deps(ledger);
    const first = await processRun(run, 1, d);
    expect(first.verdict).to.equal('verified');
    expect(ledger.entries.get('k1')).to.include({ state: 'done', runs: 1, worker: 'host:42' });
    const again = await processRun(run, 2, d);
    expect(again).to.deep.equal(first);
    expect(calls.executed).to.equal(1);
    expect(calls.looked).to.deep.equal([]);
  });

  it('a run cut off after its write landed is settled by its lookup, not run again', async () => {
    const ledger = memoryLedger();
    ledger.entries.set('k1', { state: 'started', worker: 'other:7', pid: 7, attempt: 1, runs: 1 });
    const { d, calls } = deps(ledger, { shown: '[{"title":"Nightly k1"}]' });
    const r = await processRun(run, 2, d);
    expect(calls.executed).to.equal(0);
    expect(calls.looked).to.deep.equal(['http://apps.test/api/issues']);
    expect(r).to.include({ verdict: 'verified', recovered: 'lookup' });
    expect(r.reasons[0].message).to.contain('other:7').and.contain('Nightly k1');
    expect(ledger.entries.get('k1')).to.include({ state: 'done', runs: 1, recovered: 'lookup' });
  });

  it('a run cut off before its write is run again; one without a lookup is parked for a person, never run on a guess', async () => {
    const ledger = memoryLedger();
    ledger.entries.set('k1', { state: 'started', worker: 'other:7', pid: 7, attempt: 1, runs: 1 });
    const { d, calls } = deps(ledger, { shown: '[]' });
    expect((await processRun(run, 2, d)).verdict).to.equal('verified');
    expect(calls.executed).to.equal(1);
    expect(ledger.entries.get('k1')).to.include({ state: 'done', runs: 2 });

    ledger.entries.set('k2', { state: 'started', worker: 'other:7', pid: 7, attempt: 1, runs: 1 });
    const parked = await processRun({ key: 'k2', workflow: WF }, 2, d);
    expect(parked.verdict).to.equal('needs_person');
    expect(parked.needsPerson?.reason).to.contain('cut off').and.contain('no lookup');
    expect(calls.executed).to.equal(1);
    expect(Object.keys(await ledger.parked())).to.deep.equal(['k2']);
  });

  it('a run needing a person is parked with its reason; a run that never began is forgotten and thrown back for a retry', async () => {
    const ledger = memoryLedger();
    const needs = () => resultOf({ record: { id: 'r', tabId: 1, status: 'aborted', items: [] }, needs: { kind: 'confirmation', reason: 'POST to apps.test waits', id: 'c1' }, workflow: WF });
    const parked = await processRun(run, 1, deps(ledger, { execute: async () => needs() }).d);
    expect(parked.verdict).to.equal('needs_person');
    expect((await ledger.parked()).k1).to.deep.equal({ kind: 'confirmation', reason: 'POST to apps.test waits' });

    const notStarted = () => resultOf({ error: { code: 'RUN_NOT_STARTED', message: 'no provider' } });
    /** @type {unknown} */
    let thrown = null;
    try { await processRun({ ...run, key: 'k3' }, 1, deps(ledger, { execute: async () => notStarted() }).d); } catch (err) { thrown = err; }
    expect(String(thrown)).to.contain('RUN_NOT_STARTED');
    expect(ledger.entries.get('k3')?.state).to.equal(undefined);
  });
});

describe('runner: a run past its deadline', () => {
  const run = { key: 'k1', workflow: WF, lookup: { url: 'http://apps.test/api/issues', text: 'Nightly k1' } };
  const late = () => Promise.reject(new DeadlineError('k1', 300_000, "the extension's answer to chat.state"));

  it('is thrown back to the queue "started" while attempts remain, so the retry looks it up first', async () => {
    const ledger = memoryLedger();
    /** @type {any} */
    let thrown = null;
    try { await processRun(run, 1, { ...deps(ledger, { execute: late }).d, lastAttempt: false }); } catch (err) { thrown = err; }
    expect(thrown).to.be.instanceOf(DeadlineError);
    expect(thrown.message).to.contain('300 s').and.contain('chat.state');
    expect(ledger.entries.get('k1')).to.include({ state: 'started', runs: 1 });
    // The retry: the lookup shows the write landed, so it is not run again.
    const { d, calls } = deps(ledger, { shown: 'Nightly k1' });
    expect(await processRun(run, 2, d)).to.include({ verdict: 'verified', recovered: 'lookup' });
    expect(calls.executed).to.equal(0);
  });

  it('is failed with RUN_DEADLINE on its last attempt, so no key stays "started"; other errors still go to the queue', async () => {
    const ledger = memoryLedger();
    const r = await processRun(run, 3, { ...deps(ledger, { execute: late }).d, lastAttempt: true });
    expect(r.verdict).to.equal('failed');
    expect(r.reasons.map((x) => x.code)).to.deep.equal(['RUN_DEADLINE']);
    expect(r.error?.message).to.contain('chat.state');
    expect(ledger.entries.get('k1')).to.include({ state: 'done', verdict: 'failed' });
    /** @type {unknown} */
    let thrown = null;
    try { await processRun({ ...run, key: 'k2' }, 3, { ...deps(ledger, { execute: () => Promise.reject(new Error('boom')) }).d, lastAttempt: true }); } catch (err) { thrown = err; }
    expect(String(thrown)).to.contain('boom');
  });

  it('closes the tabs the run opened, rejects with what it waited for, and drops what the run gets later', async () => {
    /** @type {number[]} */
    const closed = [];
    /** @type {(v: any) => void} */
    let answer = () => {};
    const b = /** @type {any} */ ({
      ask: () => new Promise((r) => { answer = r; }),
      openTab: async (/** @type {string} */ _url, /** @type {(id: number) => void} */ made) => { made(7); return 7; },
      closeTab: async (/** @type {number} */ id) => { closed.push(id); },
      readText: async () => '',
    });
    /** @type {Set<any>} */
    const running = new Set();
    let after = false;
    const p = withinDeadline(b, 'k9', 50, async (view, where) => {
      await view.openTab('http://apps.test/');
      where.lastStep = 'step click button "Create issue": …';
      expect(slowRuns(running, -1)[0]).to.contain('k9').and.contain('Create issue');
      await view.ask({ type: 'chat.state' });
      after = true;
      return 'never';
    }, running);
    /** @type {any} */
    let thrown = null;
    try { await p; } catch (err) { thrown = err; }
    expect(thrown).to.be.instanceOf(DeadlineError);
    expect(thrown.message).to.contain("the extension's answer to chat.state");
    expect(closed).to.deep.equal([7]);
    expect(running.size).to.equal(0);
    answer({ ok: true });
    await new Promise((r) => setTimeout(r, 0));
    expect(after).to.equal(true);
    // What the given-up run asks afterwards fails at once: its loop ends instead of polling on.
    /** @type {any} */
    let again = null;
    await withinDeadline(b, 'k10', 50, async (view) => {
      await new Promise((r) => setTimeout(r, 80));
      try { await view.ask({ type: 'chat.state' }); } catch (err) { again = err; }
    }).catch(() => {});
    await new Promise((r) => setTimeout(r, 60));
    expect(again).to.be.instanceOf(DeadlineError);
  });
});

describe('runner: results, transcript, files and arguments', () => {
  it('maps the record\'s verdict to the exit code; no record or an error is failed; a card is needs_person', () => {
    expect(EXIT[verified().verdict]).to.equal(0);
    expect(resultOf({ record: { items: [], status: 'done', outcome: { verdict: 'not_verified', reasons: [{ code: 'X', message: 'no proof' }], receipt: [] } } }).verdict).to.equal('not_verified');
    const failed = resultOf({ record: { items: [{ kind: 'error', code: 'WRITE_REFUSED', message: '422' }], status: 'error' } });
    expect(failed).to.include({ verdict: 'failed' });
    expect(failed.error).to.deep.equal({ code: 'WRITE_REFUSED', message: '422' });
    expect(EXIT[resultOf({ timedOut: true }).verdict]).to.equal(1);
    expect(EXIT.needs_person).to.equal(3);
    expect(neverBegan(resultOf({ error: { code: 'RUN_NOT_STARTED', message: '' } }))).to.equal(true);
    expect(neverBegan(failed)).to.equal(false);
  });

  it('tells each step once per change, and finds the card that waits for a person', () => {
    expect(stepLine({ kind: 'tool', name: 'click', target: { role: 'button', name: 'Send' } })).to.equal('step click button "Send": …');
    expect(stepLine({ kind: 'tool', name: 'click', result: { ok: false, code: 'WORKFLOW_TARGET_MISSING', message: 'gone' } })).to.equal('step click: WORKFLOW_TARGET_MISSING: gone');
    expect(stepLine({ kind: 'notice' })).to.equal('');
    expect(personNeeded([{ kind: 'confirm', id: 'c', status: 'no', action: 'POST', site: 's', reason: 'r' }])).to.equal(null);
    expect(personNeeded([{ kind: 'confirm', id: 'c', status: 'pending', action: 'POST to s/api', site: 's', reason: 'It changes data' }])).to.deep.include({ kind: 'confirmation', id: 'c' });
    expect(personNeeded([{ kind: 'clarify', id: 'q', status: 'pending', question: 'Which one?' }])?.reason).to.contain('Which one?');
  });

  it('picks one workflow of an export file, names it by id, and refuses what is not a workflow file', () => {
    const file = { format: 'tabwright-workflows', v: 1, workflows: [{ ...WF, id: '' }, { ...WF, id: 'b', name: 'Other' }] };
    expect(pickWorkflow(file, 'Other').id).to.equal('b');
    expect(pickWorkflow(file, 'File an issue').id).to.match(/^wf-[0-9a-f]{16}$/);
    expect(() => pickWorkflow(file)).to.throw('choose one with --name');
    expect(() => pickWorkflow({ hello: 1 })).to.throw('not a Tabwright workflow export');
    expect(pickWorkflow({ ...WF, steps: [{}] }).id).to.equal('wf-1');
  });

  it('reads flags, lists and switches; values as name=value; a provider only from the environment', () => {
    const a = parseArgs(['wf.json', '--value', 'a=1', '--value=b=x=y', '--allow-site', 'h:1', '--no-trace', '--browser', 'firefox'], { lists: ['value', 'allow-site'], switches: ['no-trace'] });
    expect(a.words).to.deep.equal(['wf.json']);
    expect(a.flags).to.deep.equal({ browser: 'firefox' });
    expect(valuesOf(a.lists.value)).to.deep.equal({ a: '1', b: 'x=y' });
    expect(a.switches.has('no-trace')).to.equal(true);
    expect(() => parseArgs(['--browser'])).to.throw(UsageError);
    expect(() => valuesOf(['nope'])).to.throw(UsageError);
    expect(providerFromEnv({})).to.equal(null);
    expect(providerFromEnv({ TABWRIGHT_PROVIDER: 'openai', TABWRIGHT_MODEL: 'm', TABWRIGHT_API_KEY: 'k' })).to.deep.equal({ kind: 'openai', model: 'm', apiKey: 'k' });
    expect(runnerSettings({ provider: null, allowSites: ['h:1'] })).to.deep.equal({ sites: { allow: ['h:1'], confirm: [] } });
    expect(runnerSettings({ provider: null, allowSites: [], settleMs: 2000 })).to.deep.equal({ settleMs: 2000, sites: { allow: [], confirm: [] } });
  });
});
