// A multi-step task on the fixture shop (a list page, a form with several fields, a
// confirmation page) done by the mock model, saved from the panel's history as a workflow with two
// parameters, then replayed from the panel with other values and no request to the model; the same
// on a page re-rendered with other ids and order; a removed button stops the replay with its
// reason; with repair on, one model request fixes that step and the repaired step is saved back.
// Every replayed write shows the same card as the agent's. Then the trace viewer and a scheduled
// workflow job on real alarms.
import { expect } from 'chai';
import { writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, sendFromPanel, useMockProvider, waitForHistory, waitForIdle } from './harness/env.js';
import { Driver } from './harness/driver.js';
import { findRef, firstUserText } from '../fixtures/llm/conversation.js';
import { flowTask } from '../fixtures/llm/flow-task.js';

/** @import { TestEnv } from './harness/env.js' */

/** @param {TestEnv} env @param {number} from @param {number} count */
async function writesSince(env, from, count) {
  const deadline = Date.now() + 10_000;
  while (env.site.writes.length - from < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return env.site.writes.slice(from).map((w) => JSON.parse(w.body));
}

/** @param {Driver} page @param {string} name */
const thanked = (page, name) => page.waitFor((n) => document.getElementById('thanks')?.textContent?.includes(`Thank you, ${n}`), name, { message: `the confirmation page for ${name}` });

/**
 * Click something that opens an extension page in a new tab; returns a driver for that tab.
 * @param {TestEnv} env @param {Driver} from @param {string} selector @param {string} urlPart
 */
async function clickOpening(env, from, selector, urlPart) {
  const find = async () => {
    if (env.browser.kind === 'chromium') return env.browser.raw.pages().find((/** @type {any} */ p) => p.url().includes(urlPart));
    for (const p of await env.browser.raw.pages()) {
      const href = await p.evaluate(() => location.href).catch(() => '');
      if (href.includes(urlPart)) return p;
    }
    return undefined;
  };
  await from.click(selector);
  const deadline = Date.now() + 15_000;
  let page;
  while (!(page = await find())) {
    if (Date.now() > deadline) throw new Error(`no tab at ${urlPart} opened`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const d = new Driver(env.browser.kind, page);
  await d.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: `${urlPart} to load` });
  return d;
}

/** @param {Driver} page @param {string} variant */
const setVariant = (page, variant) => page.evaluate((v) => { localStorage.setItem('flowVariant', v); }, variant);

/**
 * Runs a workflow from the panel's workflow bar with its parameter form; answers the card(s).
 * @param {Driver} panel @param {Record<string, string>} values @param {{ repair?: boolean, cards?: number }} [opts]
 */
async function runFromPanel(panel, values, opts = {}) {
  const before = Number(await panel.evaluate(() => document.body.dataset.runs ?? 0));
  await panel.waitFor(() => Boolean(document.querySelector('#workflows .chip.workflow')), undefined, { message: 'the workflow button in the panel' });
  await panel.click('#workflows .chip.workflow');
  await panel.waitFor(() => !(/** @type {HTMLElement} */ (document.getElementById('workflow-params'))).hidden);
  for (const [name, value] of Object.entries(values)) await panel.fill(`#workflow-params input[name="${name}"]`, value);
  if (opts.repair) await panel.evaluate(() => /** @type {HTMLInputElement} */ (document.querySelector('#workflow-params input[name=repair]')).click());
  await panel.click('#workflow-params button[type=submit]');
  for (let i = 0; i < (opts.cards ?? 0); i++) {
    await panel.waitFor(() => Boolean(document.querySelector('.card.confirm.pending')), undefined, { message: 'the confirmation card of the replayed write', timeout: 20_000 });
    await panel.click('.card.confirm.pending .confirm-yes');
  }
  await panel.waitFor((n) => Number(document.body.dataset.runs ?? 0) > n && document.body.dataset.running === 'false', before, { timeout: 40_000, message: 'the replay to finish' });
  return panel.evaluate(() => [...document.querySelectorAll('#log > *')].map((el) => ({ cls: el.className, tool: /** @type {HTMLElement} */ (el).dataset.tool ?? null, code: /** @type {HTMLElement} */ (el).dataset.code ?? null, text: el.textContent ?? '' })));
}

/** @param {TestEnv} env */
async function listWorkflows(env) {
  const r = await ask(env.control, { type: 'workflows.list' });
  if (!r.ok) throw new Error(r.message);
  return /** @type {import('../../src/chrome/types/workflows').Workflow[]} */ (r.data);
}

scenario('workflows: save, replay with zero model calls, fail closed, repair', (ctx) => {
  /** @type {{ runId: string, workflowId: string }} */
  const state = { runId: '', workflowId: '' };

  before(async () => {
    await useMockProvider(ctx.env);
    for (const w of await listWorkflows(ctx.env)) await ask(ctx.env.control, { type: 'workflows.delete', id: w.id });
  });

  it('the mock model does the task (list, form, confirmation); the run is saved from the history as a workflow with two parameters', async () => {
    const { env } = ctx;
    env.llm.script(flowTask());
    const { page, panel } = await openPageWithPanel(env, 'flow/list.html');
    await setVariant(page, '');
    const writes = env.site.writes.length;
    try {
      await sendFromPanel(panel, 'Order the Paper floor lamp for Ada Lovelace (ada@example.com), 2 of them, express delivery.', 'act');
      await panel.waitFor(() => Boolean(document.querySelector('.card.confirm.pending')), undefined, { message: 'the card for the order the form sends', timeout: 30_000 });
      await panel.click('.card.confirm.pending .confirm-yes');
      await waitForIdle(panel, 40_000);
      expect(env.llm.problems).to.deep.equal([]);
      expect(env.llm.requests).to.have.length(6);
      expect(await writesSince(env, writes, 1)).to.deep.equal([{ item: 'paper', name: 'Ada Lovelace', email: 'ada@example.com', qty: '2', delivery: 'Express' }]);
      const run = await waitForHistory(env, (r) => r.items.some((/** @type {any} */ i) => i.kind === 'user' && i.text.startsWith('Order the Paper floor lamp')));
      state.runId = run.id;

      // The panel's history: the run, and its "Save as workflow" opening the review page.
      await panel.click('#history-toggle');
      await panel.waitFor((id) => Boolean(document.querySelector(`[data-run="${id}"]`)), run.id);
      await panel.click(`[data-run="${run.id}"]`);
      const review = await clickOpening(env, panel, '.run-actions .save-workflow', 'ui/workflows.html');
      try {
        const draft = await review.evaluate(() => ({
          name: /** @type {HTMLInputElement} */ (document.getElementById('wf-name')).value,
          params: [...document.querySelectorAll('#wf-params .param')].map((p) => /** @type {HTMLElement} */ (p).dataset.param),
          steps: [...document.querySelectorAll('#wf-steps > li')].map((li) => li.textContent),
        }));
        expect(draft.params).to.deep.equal(['full_name', 'email', 'quantity']);
        expect(draft.steps).to.have.length(7);
        expect(draft.steps[0]).to.contain('click link "Paper floor lamp"');
        expect(draft.steps[6]).to.contain('click button "Send request" in form "Order"');
        // The user names it and keeps the quantity fixed: two parameters.
        await review.fill('#wf-name', 'Order a lamp');
        await review.evaluate(() => /** @type {HTMLInputElement} */ (document.querySelector('#wf-params [data-param="quantity"] .use')).click());
        await review.click('#wf-save');
        await review.waitFor(() => Boolean(document.querySelector('#workflows li[data-workflow]')), undefined, { message: 'the saved workflow in the list' });
      } finally {
        await review.close();
      }
      const [wf] = await listWorkflows(env);
      state.workflowId = wf.id;
      expect(wf.name).to.equal('Order a lamp');
      expect(wf.params.map((p) => [p.name, p.default])).to.deep.equal([['full_name', 'Ada Lovelace'], ['email', 'ada@example.com']]);
      expect(wf.steps.map((s) => s.tool)).to.deep.equal(['click', 'type', 'type', 'type', 'select_option', 'check', 'click']);
      expect(wf.steps[3].args).to.deep.equal({ text: '2' });
      // Value-free: no ref, no id, no typed value outside the parameters' defaults.
      const text = JSON.stringify(wf.steps);
      expect(text).to.not.match(/"ref"|\be\d+\b/);
      expect(text).to.not.contain('Ada Lovelace');
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('replays from the panel with other values and 0 requests to the model; the write shows the same card', async () => {
    const { env } = ctx;
    env.llm.script([]);
    const { page, panel } = await openPageWithPanel(env, 'flow/list.html');
    const writes = env.site.writes.length;
    try {
      const items = await runFromPanel(panel, { full_name: 'Grace Hopper', email: 'grace@example.com' }, { cards: 1 });
      expect(env.llm.requests).to.have.length(0);
      expect(env.llm.problems).to.deep.equal([]);
      expect(await writesSince(env, writes, 1)).to.deep.equal([{ item: 'paper', name: 'Grace Hopper', email: 'grace@example.com', qty: '2', delivery: 'Express' }]);
      await thanked(page, 'Grace Hopper');
      expect(items.filter((i) => i.tool).map((i) => i.tool)).to.deep.equal(['click', 'type', 'type', 'type', 'select_option', 'check', 'click']);
      expect(items.at(-1)?.text).to.contain('Ordered the Paper floor lamp for Grace Hopper');
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('still replays when the pages are re-rendered with other ids and another order', async () => {
    const { env } = ctx;
    env.llm.script([]);
    const { page, panel } = await openPageWithPanel(env, 'flow/list.html');
    await setVariant(page, 'shuffled');
    await page.reload();
    await page.waitFor(() => document.readyState === 'complete' && document.querySelector('li')?.id.startsWith('item-'));
    const writes = env.site.writes.length;
    try {
      await runFromPanel(panel, { full_name: 'Mary Somerville', email: 'mary@example.com' }, { cards: 1 });
      expect(env.llm.requests).to.have.length(0);
      expect((await writesSince(env, writes, 1)).map((w) => w.name)).to.deep.equal(['Mary Somerville']);
      await thanked(page, 'Mary Somerville');
    } finally {
      await setVariant(page, '');
      await page.close();
      await panel.close();
    }
  });

  it('a workflow scheduled as a job runs at a real alarm with no model call and shows in the jobs page history', async () => {
    const { env } = ctx;
    env.llm.script([]);
    const site = new URL(env.site.url).host;
    const conf = await ask(env.control, { type: 'settings.get' });
    // Unattended: the user lets Tabwright act without asking on the fixture site.
    await ask(env.control, { type: 'settings.set', settings: { sites: { allow: [site], confirm: [] } } });
    const wfPage = await env.browser.openExtensionPage('ui/workflows.html');
    const writes = env.site.writes.length;
    /** @type {Driver | null} */
    let jobsPage = null;
    try {
      await wfPage.waitFor(() => Boolean(document.querySelector('#workflows li[data-workflow] .schedule')));
      await wfPage.click('#workflows li[data-workflow] .schedule');
      await wfPage.evaluate(() => { /** @type {HTMLSelectElement} */ (document.querySelector('form.schedule select')).value = 'once'; });
      await wfPage.fill('form.schedule input[name=amount]', '3');
      await wfPage.click('form.schedule button[type=submit]');
      await wfPage.waitFor(() => !document.querySelector('form.schedule'), undefined, { message: 'the job to be created' });
      const jobs = await ask(env.control, { type: 'jobs.list' });
      const job = jobs.data.jobs.find((/** @type {any} */ j) => j.kind === 'workflow');
      expect(job).to.deep.include({ kind: 'workflow', title: 'Order a lamp', workflow: { id: state.workflowId, values: {} } });
      expect((await env.control.evaluate(() => browser.alarms.getAll())).map((a) => a.name)).to.include('tabwright-jobs');
      jobsPage = await env.browser.openExtensionPage('ui/jobs.html');
      const done = await jobsPage.waitFor((id) => {
        const el = /** @type {HTMLElement | null} */ (document.getElementById(id));
        return el?.dataset.state === 'completed' ? { result: el.querySelector('.result')?.textContent, history: el.querySelector('.history')?.textContent } : null;
      }, job.id, { timeout: 40_000, message: 'the workflow job to complete' });
      expect(done?.result).to.contain('Ordered the Paper floor lamp for Ada Lovelace');
      expect(done?.history).to.contain('History (1 runs)');
      const after = (await ask(env.control, { type: 'jobs.list' })).data.jobs.find((/** @type {any} */ j) => j.id === job.id);
      expect(after.history[0].startedAt - after.createdAt).to.be.greaterThan(2500);
      expect(env.llm.requests).to.have.length(0);
      expect((await writesSince(env, writes, 1)).map((w) => w.name)).to.deep.equal(['Ada Lovelace']);
      await ask(env.control, { type: 'jobs.delete', id: job.id });
    } finally {
      await ask(env.control, { type: 'settings.set', settings: { sites: conf.data.sites ?? { allow: [], confirm: [] } } });
      await jobsPage?.close();
      await wfPage.close();
    }
  });

  it('a removed button fails closed: the replay stops before acting and says which step and why', async () => {
    const { env } = ctx;
    env.llm.script([]);
    const { page, panel } = await openPageWithPanel(env, 'flow/list.html');
    await setVariant(page, 'nobutton');
    const writes = env.site.writes.length;
    try {
      const items = await runFromPanel(panel, { full_name: 'Ada Byron', email: 'ab@example.com' });
      expect(env.llm.requests).to.have.length(0);
      const err = items.find((i) => i.code === 'WORKFLOW_TARGET_MISSING');
      expect(err?.text).to.contain('Step 7 (click button "Send request" in form "Order")').and.contain('there is no button "Send request" in form "Order" on the page any more');
      expect(env.site.writes.length).to.equal(writes);
      expect(await page.evaluate(() => location.pathname)).to.match(/\/flow\/form\.html$/);
    } finally {
      await setVariant(page, '');
      await page.close();
      await panel.close();
    }
  });

  it('with repair on, the mock model fixes that one step, the run completes, and the repaired step is saved back', async () => {
    const { env } = ctx;
    env.llm.script([(req) => {
      const text = firstUserText(req.body);
      if (!text.includes('Step 7 failed')) throw new Error(`not a repair request: ${text.slice(0, 200)}`);
      return { toolCalls: [{ name: 'click', args: { ref: findRef(text, 'button', 'Submit order') } }] };
    }]);
    const { page, panel } = await openPageWithPanel(env, 'flow/list.html');
    await setVariant(page, 'nobutton');
    const writes = env.site.writes.length;
    try {
      const items = await runFromPanel(panel, { full_name: 'Ada Byron', email: 'ab@example.com' }, { repair: true, cards: 1 });
      expect(env.llm.problems).to.deep.equal([]);
      expect(env.llm.requests).to.have.length(1);
      expect(env.llm.requests[0].body.tools.map((/** @type {any} */ t) => t.function.name)).to.deep.equal(['click']);
      expect(items.some((i) => i.code === 'WORKFLOW_REPAIRED')).to.equal(true);
      expect((await writesSince(env, writes, 1)).map((w) => w.name)).to.deep.equal(['Ada Byron']);
      await thanked(page, 'Ada Byron');

      // Saved back from the workflows page: the next replay on this page needs no model.
      const wfPage = await env.browser.openExtensionPage('ui/workflows.html');
      try {
        await wfPage.waitFor(() => Boolean(document.querySelector('#workflows .repairs[data-step="6"]')), undefined, { message: 'the repaired step offered' });
        expect(await wfPage.text('#workflows .repairs')).to.contain('click button "Submit order"');
        await wfPage.click('#workflows .repairs .repair-save');
        await wfPage.waitFor(() => !document.querySelector('#workflows .repairs'));
      } finally {
        await wfPage.close();
      }
      const [wf] = await listWorkflows(env);
      expect(wf.steps[6].target).to.deep.equal({ role: 'button', name: 'Submit order', landmark: 'form "Order"' });
      env.llm.script([]);
      await page.evaluate(() => { location.href = 'list.html'; });
      await page.waitFor(() => location.pathname.endsWith('/list.html') && document.readyState === 'complete');
      await runFromPanel(panel, { full_name: 'Ada Byron', email: 'ab@example.com' }, { cards: 1 });
      expect(env.llm.requests).to.have.length(0);
      await thanked(page, 'Ada Byron');
    } finally {
      await setVariant(page, '');
      await page.close();
      await panel.close();
    }
  });

  it('the trace viewer opens the run, shows every request\'s page data, and exports JSON and an HTML report that shows the same steps', async () => {
    const { env } = ctx;
    const viewer = await env.browser.openExtensionPage(`ui/traces.html#${encodeURIComponent(state.runId)}`);
    try {
      await viewer.waitFor(() => document.body.dataset.view === 'trace' && document.querySelectorAll('.timeline > li').length > 0, undefined, { message: 'the trace timeline' });
      const view = await viewer.evaluate(() => ({
        models: [...document.querySelectorAll('.timeline > li.model')].map((li) => ({
          pageData: [...li.querySelectorAll('.page-data li')].map((p) => ({ source: /** @type {HTMLElement} */ (p).dataset.source, text: p.textContent })),
        })),
        tools: [...document.querySelectorAll('.timeline > li.tool')].map((li) => /** @type {HTMLElement} */ (li).dataset.tool),
        ledger: document.querySelector('.ledger')?.textContent ?? '',
        totals: document.querySelector('.trace-totals')?.getAttribute('data-model-calls'),
        steps: document.querySelectorAll('.timeline > li').length,
      }));
      expect(view.models).to.have.length(6);
      expect(view.totals).to.equal('6');
      // Every request carried the system prompt's page; from the second on, the snapshots it sent.
      for (const m of view.models) expect(m.pageData.some((p) => p.source === 'system')).to.equal(true);
      expect(view.models[1].pageData.some((p) => p.source === 'tool' && p.text.includes('/flow/list.html'))).to.equal(true);
      expect(view.models[3].pageData.some((p) => p.source === 'tool' && p.text.includes('/flow/form.html'))).to.equal(true);
      expect(view.tools).to.deep.equal(['snapshot', 'click', 'snapshot', 'type', 'type', 'type', 'select_option', 'check', 'click', 'done']);
      expect(view.ledger).to.contain(`${env.llm.baseUrl.replace(/\/v1$/, '')}`).and.contain('/flow/form.html');

      // Exports: catch the file the page offers.
      await viewer.evaluate(() => {
        const w = /** @type {any} */ (window);
        w.__files = [];
        HTMLAnchorElement.prototype.click = function () { w.__files.push({ href: this.href, name: this.download }); };
      });
      await viewer.click('#export-json');
      await viewer.click('#export-html');
      const files = await viewer.evaluate(async () => Promise.all(/** @type {any} */ (window).__files.map(async (/** @type {any} */ f) => ({ name: f.name, text: await (await fetch(f.href)).text() }))));
      expect(files.map((f) => f.name)).to.satisfy((/** @type {string[]} */ n) => n[0].endsWith('.json') && n[1].endsWith('.html'));
      const json = JSON.parse(files[0].text);
      expect(json.id).to.equal(state.runId);
      expect(json.steps).to.have.length(view.steps);
      expect(files[1].text).to.not.contain('<script');
      const dir = await mkdtemp(join(tmpdir(), 'tw-report-'));
      const file = join(dir, 'report.html');
      await writeFile(file, files[1].text);
      const report = await env.browser.openPage(pathToFileURL(file).href);
      try {
        const shown = await report.evaluate(() => ({
          steps: [...document.querySelectorAll('.timeline > li')].map((li) => /** @type {HTMLElement} */ (li).dataset.tool ?? 'model'),
          task: document.querySelector('.trace-task')?.textContent,
        }));
        expect(shown.steps).to.deep.equal(await viewer.evaluate(() => [...document.querySelectorAll('.timeline > li')].map((li) => /** @type {HTMLElement} */ (li).dataset.tool ?? 'model')));
        expect(shown.task).to.contain('Order the Paper floor lamp');
      } finally {
        await report.close();
      }
      // Nothing secret in a trace: the mock's API key never appears.
      expect(files[0].text).to.not.contain('sk-test-123');
      // The exported JSON imported back is shown as it was, marked as not stored.
      await viewer.click('#back');
      await viewer.waitFor(() => document.body.dataset.view === 'list');
      await viewer.evaluate((text) => {
        const input = /** @type {HTMLInputElement} */ (document.getElementById('import'));
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'trace.json', { type: 'application/json' }));
        input.files = dt.files;
        input.dispatchEvent(new Event('change', { bubbles: true }));
      }, files[0].text);
      await viewer.waitFor(() => document.body.dataset.view === 'trace' && !(/** @type {HTMLElement} */ (document.getElementById('imported'))).hidden);
      expect(await viewer.evaluate(() => document.querySelectorAll('.timeline > li').length)).to.equal(view.steps);
      // Screenshot thumbnails (service/thumbnail.js) are made in this browser: a JPEG at most 240 px wide.
      const thumb = await env.control.evaluate(async () => {
        const { thumbnail } = await import(browser.runtime.getURL('service/thumbnail.js'));
        const c = Object.assign(document.createElement('canvas'), { width: 800, height: 600 });
        /** @type {CanvasRenderingContext2D} */ (c.getContext('2d')).fillRect(0, 0, 400, 300);
        const out = await thumbnail(c.toDataURL('image/png'));
        const img = new Image();
        await new Promise((r) => { img.onload = r; img.src = out; });
        return { type: out.slice(0, 23), width: img.naturalWidth, height: img.naturalHeight };
      });
      expect(thumb).to.deep.equal({ type: 'data:image/jpeg;base64,', width: 240, height: 180 });
    } finally {
      await viewer.close();
    }
  });

});
