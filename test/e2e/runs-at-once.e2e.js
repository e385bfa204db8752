// Many runs at once, in the background, never in the person's way: three runs started from three
// tabs' panels each open a tab of their own (in a tab group named for the task), act there and wait
// on a card at the same time (so they run concurrently: none could wait while another had not
// started); each card shows in its own tab's panel and in the runs overview, and is answered from
// either. A job that falls due meanwhile queues at the limit of runs at once (Settings), says so,
// then runs in its own group. The person's active tab never changes: tabs.onActivated and window
// focus changes are counted from the first run to the last, and stay at 0.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { setFrontFollowsInput } from './harness/driver.js';
import { ask, openPageWithPanel, sendFromPanel, transcript, useMockProvider, waitForIdle } from './harness/env.js';
import { findRef, firstUserText, lastToolResult, toolResults } from '../fixtures/llm/conversation.js';

/** @import { TestEnv } from './harness/env.js' */
/** @import { Driver } from './harness/driver.js' */

const RUNS = [1, 2, 3];
const task = (/** @type {number} */ n) => `Order the poster for shop ${n}`;
const JOB_TITLE = 'Morning article check';
const JOB_PROMPT = 'Read the article headline for the morning check.';

/**
 * The model: each run opens its shop in a tab of its own, reads it, clicks Place order (held: a
 * card) and says done; the job's run says done once the test lets its first turn go.
 * @param {string} site @param {Promise<void>} jobGate
 */
function model(site, jobGate) {
  return async (/** @type {any} */ req) => {
    const first = firstUserText(req.body);
    const step = toolResults(req.body).length;
    if (first.includes(JOB_PROMPT)) {
      await jobGate;
      return { toolCalls: [{ name: 'done', args: { summary: 'The headline was read.' } }] };
    }
    const n = RUNS.find((i) => first.includes(task(i)));
    if (!n) throw new Error(`unknown task: ${first.slice(0, 200)}`);
    if (step === 0) return { toolCalls: [{ name: 'tabs', args: { action: 'open', url: `${site}/checkout.html?shop=${n}` } }] };
    if (step === 1) return { toolCalls: [{ name: 'snapshot', args: {} }] };
    if (step === 2) return { toolCalls: [{ name: 'click', args: { ref: findRef(lastToolResult(req.body), 'button', 'Place order') } }] };
    return { toolCalls: [{ name: 'done', args: { summary: `Ordered the poster for shop ${n}.` } }] };
  };
}

/** Starts counting tab activations and window focus changes in the control page. @param {Driver} control */
function startCounting(control) {
  return control.evaluate(async () => {
    const w = /** @type {any} */ (window);
    w.focusLog = { activated: /** @type {number[]} */ ([]), focused: /** @type {number[]} */ ([]) };
    w.onAct ??= (/** @type {{ tabId: number }} */ i) => w.focusLog.activated.push(i.tabId);
    w.onFocus ??= (/** @type {number} */ id) => w.focusLog.focused.push(id);
    browser.tabs.onActivated.addListener(w.onAct);
    browser.windows.onFocusChanged.addListener(w.onFocus);
    const [active] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
    return active?.id ?? null;
  });
}

/** @param {Driver} control @returns {Promise<{ activated: number[], focused: number[], active: number | null }>} */
function stopCounting(control) {
  return control.evaluate(async () => {
    const w = /** @type {any} */ (window);
    browser.tabs.onActivated.removeListener(w.onAct);
    browser.windows.onFocusChanged.removeListener(w.onFocus);
    const [active] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
    return { ...w.focusLog, active: active?.id ?? null };
  });
}

/** The browser's tab groups and their tabs, where it has them. @param {TestEnv} env */
function tabGroups(env) {
  return env.control.evaluate(async () => {
    const api = /** @type {any} */ (browser).tabGroups;
    if (!api || typeof /** @type {any} */ (browser.tabs).group !== 'function') return null;
    const tabs = await browser.tabs.query({});
    const groups = await api.query({});
    return groups.map((/** @type {any} */ g) => ({ title: g.title, tabs: tabs.filter((t) => /** @type {any} */ (t).groupId === g.id).map((t) => t.id).sort() }));
  });
}

scenario('runs at once', (ctx) => {
  // The person's tab is counted: the harness's clicks in the panels leave every tab where it is.
  before(() => setFrontFollowsInput(false));
  after(() => setFrontFollowsInput(true));
  before(async () => {
    await useMockProvider(ctx.env);
    const r = await ask(ctx.env.control, { type: 'settings.set', settings: { maxRunsAtOnce: 3 } });
    if (!r.ok) throw new Error(r.message);
  });
  after(async () => { await ask(ctx.env.control, { type: 'settings.set', settings: { maxRunsAtOnce: 4 } }); });

  it('three runs in three tabs go at once in their own groups, cards in their panels and the overview; a due job queues, then runs in its own group; focus never moves', async function () {
    this.timeout(150_000);
    const { env } = ctx;
    /** @type {() => void} */
    let releaseJob = () => {};
    const jobGate = new Promise((/** @type {(v: void) => void} */ r) => { releaseJob = r; });
    env.llm.usePolicy(model(env.site.url, jobGate));
    const opened = [];
    for (const n of RUNS) opened.push(await openPageWithPanel(env, `checkout.html?home=${n}`));
    const writesBefore = env.site.writes.filter((w) => w.path === '/api/orders').length;
    const hasGroups = await env.control.evaluate(() => typeof /** @type {any} */ (browser.tabs).group === 'function');
    const activeBefore = await startCounting(env.control);
    const t0 = Date.now();
    /** Where the scenario's time goes, for the report (never asserted). @param {string} what */
    const mark = (what) => console.log(`      [${ctx.kind}] ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    /** @type {string | null} */
    let jobId = null;
    try {
      for (const [i, o] of opened.entries()) await sendFromPanel(o.panel, task(RUNS[i]), 'act');
      // All three wait on their cards at once, each in its own tab's panel.
      for (const o of opened) {
        await o.panel.waitFor(() => Boolean(document.querySelector('#log .card.confirm.pending')), undefined, { timeout: 60_000, message: 'the run\'s card in its own panel' }).catch(async (e) => {
          // What each panel showed, for the report of a run that never reached its card.
          for (const p of opened) console.log(`      [${ctx.kind}] panel of tab ${p.tabId}:`, JSON.stringify((await transcript(p.panel)).map((i) => `${i.cls} ${i.tool ?? ''}`)));
          console.log(`      [${ctx.kind}] model requests: ${env.llm.requests.length}, problems: ${JSON.stringify(env.llm.problems)}, the mock server's traffic: ${JSON.stringify(env.llm.traffic())}`);
          // What the service knows of the runs (phase, step, what each waits on), for a run that stalled.
          console.log(`      [${ctx.kind}] runs.list:`, JSON.stringify(await ask(env.control, { type: 'runs.list' }).catch((err) => String(err))).slice(0, 4000));
          throw e;
        });
      }
      mark('three cards waiting');
      // The overview, opened in the first tab's panel, lists the three runs with their cards.
      const overview = opened[0].panel;
      await overview.click('#runs-toggle');
      const rows = await overview.waitFor((ids) => {
        const found = ids.map((id) => document.querySelector(`#runs-overview .run-row[data-tab-id="${id}"]`));
        if (found.some((r) => !r?.querySelector('.card.confirm.pending'))) return null;
        return found.map((r) => ({ phase: /** @type {HTMLElement} */ (r).dataset.phase, task: r?.querySelector('.run-task')?.textContent, group: { ...(/** @type {HTMLElement | null} */ (r?.querySelector('.run-group'))?.dataset ?? {}) }, cost: Number(/** @type {HTMLElement | null} */ (r?.querySelector('[data-run-cost]'))?.dataset.tokens ?? 0) }));
      }, opened.map((o) => o.tabId), { message: 'three runs with their cards in the overview' });
      expect(rows.map((r) => r.task)).to.deep.equal(RUNS.map(task));
      expect(rows.map((r) => r.phase)).to.deep.equal(['waiting', 'waiting', 'waiting']);
      // Each row says what its run has spent so far: the tokens the mock server reported for its calls.
      expect(rows.map((r) => r.cost > 0), JSON.stringify(rows.map((r) => r.cost))).to.deep.equal([true, true, true]);
      // Each run's tabs: its own and the one it opened, as a browser tab group named for the task (or a labelled set).
      for (const r of rows) expect({ grouped: r.group?.grouped, count: r.group?.tabs?.split(',').length }).to.deep.equal({ grouped: String(hasGroups), count: 2 });
      const groups = await tabGroups(env);
      if (hasGroups) for (const [i, o] of opened.entries()) expect(groups?.find((g) => g.title === task(RUNS[i]))?.tabs).to.include(o.tabId);

      // A job falls due while three runs go: at the limit of three it queues, and says so.
      const created = await ask(env.control, { type: 'jobs.create', job: { title: JOB_TITLE, prompt: JOB_PROMPT, mode: 'act', target: { type: 'url', url: `${env.site.url}/article.html` }, schedule: { kind: 'once', afterSeconds: 0 } } });
      if (!created.ok) throw new Error(created.message);
      jobId = created.data.job.id;
      const queued = await overview.waitFor((id) => document.querySelector(`#runs-overview .run-row.queued[data-queued-id="${id}"]`)?.textContent, jobId, { timeout: 30_000, message: 'the job queued in the overview' });
      expect(queued).to.contain(JOB_TITLE);
      expect(await overview.evaluate(() => document.querySelector('#runs-toggle')?.getAttribute('data-queued'))).to.equal('1');

      mark('the job queued');
      // The first run's card answered from the overview, the others from their own panels.
      await overview.click(`#runs-overview .run-row[data-tab-id="${opened[0].tabId}"] .confirm-yes`);
      for (const o of opened.slice(1)) await o.panel.click('#log .card.confirm .confirm-yes');
      for (const o of opened) {
        const items = await waitForIdle(o.panel, 60_000);
        expect(items.find((i) => i.cls.includes('final'))?.text).to.match(/Ordered the poster for shop \d/);
      }
      mark('three runs ended');
      expect(env.site.writes.filter((w) => w.path === '/api/orders').length - writesBefore).to.equal(3);
      expect(env.llm.problems).to.deep.equal([]);

      // A slot is free: the job runs, in a background tab of its own group, listed as the job's.
      const jobRow = await overview.waitFor(() => {
        const r = /** @type {HTMLElement | null} */ (document.querySelector('#runs-overview .run-row[data-kind="job"]'));
        const g = /** @type {HTMLElement | null} */ (r?.querySelector('.run-group') ?? null);
        return r && g && { tabId: Number(r.dataset.tabId), where: r.querySelector('.run-where')?.textContent, grouped: g.dataset.grouped };
      }, undefined, { timeout: 45_000, message: 'the job running in the overview' });
      expect(jobRow.where).to.contain(JOB_TITLE);
      expect(jobRow.grouped).to.equal(String(hasGroups));
      if (hasGroups) expect((await tabGroups(env))?.find((g) => g.title === JOB_TITLE)?.tabs).to.deep.equal([jobRow.tabId]);
      expect(opened.map((o) => o.tabId)).to.not.include(jobRow.tabId);
      mark('the job running');
      releaseJob();
      await env.control.waitFor(async (id) => {
        const r = await browser.runtime.sendMessage({ type: 'jobs.list' });
        return r.ok && r.data.jobs.find((/** @type {any} */ j) => j.id === id)?.state === 'completed';
      }, jobId, { timeout: 45_000, message: 'the job to complete' });
      await overview.waitFor(() => document.querySelectorAll('#runs-overview .run-row').length === 0, undefined, { message: 'the overview to empty' });

      mark('the job completed, the overview empty');
      const focus = await stopCounting(env.control);
      expect({ activated: focus.activated, focused: focus.focused, active: focus.active }).to.deep.equal({ activated: [], focused: [], active: activeBefore });
    } finally {
      releaseJob();
      await stopCounting(env.control).catch(() => {});
      if (jobId) await ask(env.control, { type: 'jobs.delete', id: jobId });
      for (const o of opened) { await o.page.close(); await o.panel.close(); }
      await env.control.evaluate(async () => {
        for (const t of await browser.tabs.query({})) if (t.url?.includes('checkout.html?shop=')) await browser.tabs.remove(/** @type {number} */ (t.id));
      });
    }
  });
});
