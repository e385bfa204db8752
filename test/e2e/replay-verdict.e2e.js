// A replay is judged as an agent run is (agent/workflows/replay-outcome.js): the mock model applies
// on a form, the run is saved as a workflow, and the workflow replays Verified with a receipt. Then
// the server starts requiring a field the page does not have (only the server notices: 422 with its
// reason, the page still says "Application sent!"): the replay fails with the server's words in the
// panel, History, the trace list, the workflows page, and in the result of a scheduled workflow job.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, tabIdOf, useMockProvider, waitForHistory } from './harness/env.js';
import { findRef, lastToolResult } from '../fixtures/llm/conversation.js';
import { startLies } from '../fixtures/lies/server.js';
import { REPLAY_CASE } from '../fixtures/lies/replay-page.js';

/** @import { TestEnv } from './harness/env.js' */
/** @import { Driver } from './harness/driver.js' */

const SAID = 'The field Phone is required.';

scenario('workflow replays are judged: a refused write fails the replay in the server\'s words', (ctx) => {
  /** @type {import('../fixtures/lies/server.js').LiesServer} */
  let lies;
  /** @type {{ workflowId: string }} */
  const state = { workflowId: '' };
  before(async () => {
    lies = await startLies();
    await useMockProvider(ctx.env);
    await ask(ctx.env.control, { type: 'settings.set', settings: { sites: { allow: [new URL(lies.url).host], confirm: [] } } });
  });
  after(async () => {
    await ask(ctx.env.control, { type: 'settings.set', settings: { sites: { allow: [], confirm: [] } } });
    if (state.workflowId) await ask(ctx.env.control, { type: 'workflows.delete', id: state.workflowId });
    await lies?.close();
  });

  it('a run saved as a workflow replays Verified, with a receipt of the write the server accepted', async () => {
    const { env } = ctx;
    lies.reset(REPLAY_CASE.id);
    env.llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (req) => ({ toolCalls: [{ name: 'type', args: { ref: findRef(lastToolResult(req.body), 'textbox', 'Full name'), text: 'Ada Lovelace' } }] }),
      { toolCalls: [{ name: 'click', args: { text: 'Send application' } }] },
      { toolCalls: [{ name: 'done', args: { summary: REPLAY_CASE.summary } }] },
    ]);
    const { page, panel, tabId } = await open(env, lies);
    try {
      await runAndWait(panel, async () => {
        await panel.evaluate(() => /** @type {HTMLInputElement} */ (document.querySelector('input[name=mode][value=act]')).click());
        await panel.fill('#prompt', REPLAY_CASE.task);
        await panel.click('#send');
      });
      const run = await waitForHistory(env, (r) => r.items.some((/** @type {any} */ i) => i.kind === 'user' && i.text === REPLAY_CASE.task));
      const draft = await ask(env.control, { type: 'workflows.draft', runId: run.id });
      expect(draft.ok, draft.message).to.equal(true);
      const saved = await ask(env.control, { type: 'workflows.save', workflow: { ...draft.data.workflow, name: 'Apply for membership' } });
      expect(saved.ok, saved.message).to.equal(true);
      state.workflowId = saved.data.id;
      expect(saved.data.steps.map((/** @type {any} */ s) => s.tool)).to.deep.equal(['type', 'click']);

      // The replay, with no model: the server accepts, the panel says Verified with a receipt.
      env.llm.script([]);
      await page.reload();
      await page.waitFor(() => document.body.dataset.ready === 'true');
      const before = lies.arrivedOf(REPLAY_CASE.id).length;
      await runAndWait(panel, () => ask(env.control, { type: 'workflows.run', tabId, id: state.workflowId }));
      expect(lies.arrivedOf(REPLAY_CASE.id).length - before).to.equal(1);
      const note = await panel.evaluate(() => {
        const n = /** @type {HTMLElement | null} */ ([...document.querySelectorAll('.msg.final')].at(-1)?.querySelector('.check.verdict') ?? null);
        return { verdict: n?.dataset.verdict ?? '', receipt: [...(n?.querySelectorAll('.receipt-entry') ?? [])].map((e) => e.textContent ?? '') };
      });
      expect(note.verdict).to.equal('verified');
      expect(note.receipt.join('\n')).to.contain('POST').and.contain('/lies/replay-apply/api/applications').and.contain('201');
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('when the server starts requiring a field, the replay fails with the server\'s message in the panel, History, the trace list and the workflows page', async () => {
    const { env } = ctx;
    env.llm.script([]);
    lies.storeOf(REPLAY_CASE.id).requirePhone = true;
    const { page, panel, tabId } = await open(env, lies);
    try {
      await runAndWait(panel, () => ask(env.control, { type: 'workflows.run', tabId, id: state.workflowId }));
      expect(env.llm.requests).to.have.length(0);
      // The page lies; the server refused.
      expect(await page.text('#status')).to.equal('Application sent!');
      const shown = await panel.evaluate(() => ({
        error: [...document.querySelectorAll('#log > .error')].map((e) => ({ code: /** @type {HTMLElement} */ (e).dataset.code, text: e.textContent ?? '' })).at(-1),
        verified: document.querySelectorAll('#log [data-verdict="verified"]').length,
        final: document.querySelectorAll('#log .msg.final').length,
      }));
      expect(shown.error?.code).to.equal('WRITE_REFUSED');
      expect(shown.error?.text).to.contain('Step 2').and.contain('422').and.contain(SAID);
      expect(shown.verified).to.equal(0);
      const run = await waitForHistory(env, (r) => r.status === 'error' && r.items.some((/** @type {any} */ i) => i.kind === 'error' && String(i.message).includes('422')));
      expect(JSON.stringify(run.items)).to.contain(SAID);

      const traces = await env.browser.openExtensionPage('ui/traces.html');
      try {
        const line = await traces.waitFor((id) => document.querySelector(`#traces li[data-trace="${id}"]`)?.textContent ?? null, run.id, { message: 'the replay in the trace list' });
        expect(line).to.contain(SAID);
      } finally {
        await traces.close();
      }
      const wfPage = await env.browser.openExtensionPage('ui/workflows.html');
      try {
        const last = await wfPage.waitFor((id) => {
          const el = /** @type {HTMLElement | null} */ (document.querySelector(`#workflows li[data-workflow="${id}"] .last-run`));
          return el ? { verdict: el.dataset.verdict, text: el.textContent } : null;
        }, state.workflowId, { message: 'the last run on the workflows page' });
        expect(last?.verdict).to.equal('failed');
        expect(last?.text).to.contain(SAID);
      } finally {
        await wfPage.close();
      }
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('a scheduled workflow job whose write is refused reports the failure with the server\'s message, never completed', async () => {
    const { env } = ctx;
    env.llm.script([]);
    lies.storeOf(REPLAY_CASE.id).requirePhone = true;
    const created = await ask(env.control, { type: 'jobs.create', job: {
      kind: 'workflow', title: 'Apply for membership', prompt: 'Run workflow "Apply for membership"', mode: 'act', target: { type: 'url', url: lies.pageUrl(REPLAY_CASE.id) },
      schedule: { kind: 'once', afterSeconds: 3 }, workflow: { id: state.workflowId, values: {} },
    } });
    expect(created.ok, created.message).to.equal(true);
    const jobId = created.data.job.id;
    const jobs = await env.browser.openExtensionPage('ui/jobs.html');
    try {
      const result = await jobs.waitFor((id) => {
        const el = /** @type {HTMLElement | null} */ (document.getElementById(id));
        const r = /** @type {HTMLElement | null | undefined} */ (el?.querySelector('.result'));
        return r && !r.classList.contains('none') ? { state: el?.dataset.state, text: r.textContent ?? '', verdict: r.dataset.verdict } : null;
      }, jobId, { timeout: 45_000, message: 'the workflow job to run' });
      expect(result?.state).to.not.equal('completed');
      expect(result?.verdict).to.equal('failed');
      expect(result?.text).to.contain(SAID);
    } finally {
      await ask(env.control, { type: 'jobs.delete', id: jobId });
      await jobs.close();
    }
  });
});

/** A fresh tab on the application page with the panel pinned to it. @param {TestEnv} env @param {import('../fixtures/lies/server.js').LiesServer} lies */
async function open(env, lies) {
  const url = lies.pageUrl(REPLAY_CASE.id);
  const page = await env.browser.openPage(url);
  await page.waitFor(() => document.body.dataset.ready === 'true');
  const tabId = await tabIdOf(env, url);
  const panel = await env.browser.openExtensionPage(`ui/panel.html?tabId=${tabId}`);
  await panel.waitFor(() => document.body.dataset.tabId, undefined, { message: 'the panel to attach' });
  return { page, panel, tabId };
}

/** Starts a run and waits for the panel to count it and go idle. @param {Driver} panel @param {() => Promise<unknown>} start */
async function runAndWait(panel, start) {
  const before = Number(await panel.evaluate(() => document.body.dataset.runs ?? 0));
  await start();
  await panel.waitFor((n) => Number(document.body.dataset.runs ?? 0) > n && document.body.dataset.running === 'false', before, { timeout: 40_000, message: 'the run to finish' });
}
