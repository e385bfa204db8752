// The scheduler's browser glue in parts (service/jobs/), over a fake `browser` namespace.
import { expect } from 'chai';
import { JOBS_ALARM, jobStorage, wakeAt } from '../../src/chrome/service/jobs/wake.js';
import { createJobTabs, tabLoaded } from '../../src/chrome/service/jobs/tabs.js';
import { createJobRunner } from '../../src/chrome/service/jobs/run-job.js';
import { notifyJob, onNotificationClicked } from '../../src/chrome/service/jobs/notify.js';
import { handleJobsRequest, jobsAccess, withTabDetails } from '../../src/chrome/service/jobs/requests.js';
import { fakeBrowser } from './fake-browser.js';

/** @import { Job } from '../../src/chrome/types/jobs' */

/** @type {any} */
const g = globalThis;

/** A browser namespace that records what was asked of it. */
function fakeApi() {
  /** @type {any[]} */
  const calls = [];
  /** @type {Record<string, unknown>} */
  const local = {};
  /** @type {Map<number, { status: string, url: string }>} */
  const openTabs = new Map();
  let nextTab = 100;
  return {
    calls, local, openTabs,
    storage: { local: { get: async (/** @type {string} */ k) => ({ [k]: local[k] }), set: async (/** @type {any} */ o) => { Object.assign(local, o); } } },
    alarms: { create: async (/** @type {any[]} */ ...a) => calls.push(['alarm', ...a]), clear: async (/** @type {string} */ n) => calls.push(['clear', n]) },
    tabs: {
      create: async (/** @type {any} */ o) => { const id = nextTab++; openTabs.set(id, { status: 'complete', url: o.url }); calls.push(['open', o]); return { id }; },
      get: async (/** @type {number} */ id) => { const t = openTabs.get(id); if (!t) throw new Error('no tab'); return t; },
      remove: async (/** @type {number} */ id) => { openTabs.delete(id); calls.push(['close', id]); },
      update: async (/** @type {number} */ id) => { calls.push(['focus', id]); return { windowId: 1 }; },
    },
    windows: { update: async (/** @type {number} */ id) => calls.push(['window', id]) },
    notifications: { create: async (/** @type {string} */ id, /** @type {any} */ o) => calls.push(['notify', id, o.title, o.message]), clear: async (/** @type {string} */ id) => calls.push(['cleared', id]) },
    runtime: { getURL: (/** @type {string} */ p) => `ext://x/${p}` },
    i18n: { getMessage: () => '' },
  };
}

/** @param {Partial<Job>} [extra] @returns {Job} */
function job(extra = {}) {
  return /** @type {Job} */ ({ id: 'j1', kind: 'task', title: 'Daily check', prompt: 'Check', mode: 'act', target: { type: 'url', url: 'https://shop.test/' }, schedule: { kind: 'interval', minutes: 5, anchorAt: 0 }, state: 'running', nextRunAt: null, createdAt: 0, updatedAt: 0, deferrals: 0, recoveries: 0, hasRun: false, history: [], ...extra });
}

describe('jobs parts', () => {
  /** @type {any} */
  let saved;
  /** @type {ReturnType<typeof fakeApi>} */
  let api;
  beforeEach(() => { saved = g.browser; api = fakeApi(); g.browser = api; });
  afterEach(() => { g.browser = saved; });

  it('wake.js keeps the jobs in storage.local and arms one alarm, never in the past', async () => {
    expect(await jobStorage.load()).to.deep.equal([]);
    await jobStorage.save([job()]);
    expect((await jobStorage.load()).map((j) => j.id)).to.deep.equal(['j1']);
    const before = Date.now();
    wakeAt(0);
    wakeAt(null);
    expect(api.calls[0][1]).to.equal(JOBS_ALARM);
    expect(api.calls[0][2].when).to.be.at.least(before + 200);
    expect(api.calls[1]).to.deep.equal(['clear', JOBS_ALARM]);
  });

  it('tabs.js: a closed tab target fails for good; a URL target opens a tab once, reuses it, and closes it when allowed', async () => {
    const ops = fakeBrowser();
    ops.getTab = async (/** @type {number} */ id) => (api.openTabs.has(id) ? { url: 'https://shop.test/', title: 'Shop' } : null);
    /** @type {any[]} */
    const grouped = [];
    let close = true;
    const tabs = createJobTabs({ ops, isBusy: () => false, closeTabs: async () => close, places: /** @type {any} */ ({ groups: { join: async (/** @type {any[]} */ ...a) => grouped.push(a) } }) });
    expect(await tabs.targetTab(job({ target: { type: 'tab', tabId: 5 } }))).to.deep.include({ ok: false });
    const first = await tabs.targetTab(job());
    expect(first).to.deep.equal({ ok: true, tabId: 100 });
    expect(grouped).to.deep.equal([['job:j1', 'Daily check', [100]]]);
    expect(await tabs.targetTab(job())).to.deep.equal({ ok: true, tabId: 100 });
    expect(api.calls.filter((c) => c[0] === 'open')).to.have.length(1);
    await tabs.closeOpenedTab(job(), 100, { status: 'needs_user_input' });
    expect(api.openTabs.has(100)).to.equal(true);
    close = false;
    await tabs.closeOpenedTab(job(), 100, { status: 'completed' });
    expect(api.openTabs.has(100)).to.equal(true);
    close = true;
    await tabs.closeOpenedTab(job(), 100, { status: 'completed' });
    expect(api.openTabs.has(100)).to.equal(false);
    expect(await tabLoaded(100, 1000)).to.equal(false);
  });

  it('run-job.js: a run ends with its verdict, the gate hook reaches the job, and a busy or failed start is said', async () => {
    /** @type {(o: any) => void} */
    let end = () => {};
    /** @type {any[]} */
    const waits = [];
    const tabs = { targetTab: async () => /** @type {const} */ ({ ok: true, tabId: 7 }), closeOpenedTab: async () => {} };
    let busy = false;
    /** @type {any} */
    let start = { ok: true, outcome: new Promise((r) => { end = r; }), stop() {} };
    const runner = createJobRunner({ beginRun: async () => start, isBusy: () => busy, tabs: /** @type {any} */ (tabs) });
    const hooks = { signal: new AbortController().signal, setWaiting: (/** @type {boolean} */ w) => waits.push(w) };
    const result = runner.runJob(job(), hooks);
    await new Promise((r) => setImmediate(r));
    expect(runner.jobIn(7)).to.equal('j1');
    expect(runner.tabOf('j1')).to.equal(7);
    runner.setWaiting(7, true);
    runner.setWaiting(8, true);
    end({ status: 'done', text: 'Total 5', steps: 2 });
    expect(await result).to.deep.equal({ status: 'completed', text: 'Total 5', tabId: 7 });
    expect(waits).to.deep.equal([true]);
    expect(runner.jobIn(7)).to.equal(null);
    busy = true;
    expect(await runner.runJob(job(), hooks)).to.deep.equal({ status: 'busy', tabId: 7 });
    busy = false;
    start = { ok: false, code: 'RUN_NOT_STARTED', message: 'no provider' };
    expect(await runner.runJob(job(), hooks)).to.deep.equal({ status: 'failed', error: { code: 'RUN_NOT_STARTED', message: 'no provider' }, tabId: 7 });
  });

  it('notify.js: a run that waits in its tab names it; a click opens the job or brings the tab forward', async () => {
    notifyJob(job({ title: 'Daily', waitingFor: /** @type {any} */ ({ code: 'SIGN_IN', kind: 'sign_in', site: 'shop.test', message: 'Sign in' }) }), { startedAt: 1, finishedAt: 2, status: 'needs_user_input' }, 7);
    notifyJob(job({ title: 'Daily' }), { startedAt: 1, finishedAt: 3, status: 'failed', error: { code: 'X', message: 'It broke' } }, undefined);
    const sent = api.calls.filter((c) => c[0] === 'notify');
    expect(sent.map((c) => c[1])).to.deep.equal(['tabwright-turn:7:2', 'tabwright-job:j1:3']);
    expect(sent[1].slice(2)).to.deep.equal(['Daily', 'It broke']);
    onNotificationClicked('tabwright-job:j1:3');
    onNotificationClicked('tabwright-turn:7:2');
    onNotificationClicked('someone-else');
    await new Promise((r) => setImmediate(r));
    expect(api.calls.filter((c) => c[0] !== 'notify').map((c) => c[0] === 'open' ? ['open', c[1].url] : c)).to.deep.equal([['open', 'ext://x/ui/jobs.html#j1'], ['cleared', 'tabwright-job:j1:3'], ['focus', 7], ['cleared', 'tabwright-turn:7:2'], ['window', 1]]);
  });

  it('requests.js: a tab target remembers its page; the tools\' access keeps only the reply', async () => {
    const ops = fakeBrowser();
    expect(await withTabDetails(ops, { type: 'tab', tabId: 3 })).to.deep.equal({ type: 'tab', tabId: 3, url: 'https://example.test/', title: 'Test' });
    expect(await withTabDetails(ops, { type: 'url', url: 'https://a.test/' })).to.deep.equal({ type: 'url', url: 'https://a.test/' });
    /** @type {any[]} */
    const created = [];
    const scheduler = /** @type {any} */ ({
      list: async () => [job()],
      create: async (/** @type {any} */ input) => { created.push(input); return { ok: false, code: 'INVALID_SCHEDULE', message: 'never', extra: 1 }; },
      pause: async (/** @type {string} */ id) => ({ ok: true, data: { paused: id } }),
    });
    const listed = await handleJobsRequest(scheduler, ops, 'Europe/Berlin', { type: 'jobs.list' });
    expect(listed).to.have.nested.property('data.timeZone', 'Europe/Berlin');
    expect(await handleJobsRequest(scheduler, ops, 'UTC', { type: 'jobs.pause', id: 'j1' })).to.deep.equal({ ok: true, data: { paused: 'j1' } });
    const access = jobsAccess(scheduler, ops, 'UTC');
    expect(await access.create(/** @type {any} */ ({ prompt: 'p', target: { type: 'tab', tabId: 3 } }))).to.deep.equal({ ok: false, code: 'INVALID_SCHEDULE', message: 'never' });
    expect(created[0].target).to.include({ url: 'https://example.test/' });
  });
});
