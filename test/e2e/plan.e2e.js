// Plan mode (seed 000): the plan shows in the panel; approved, its steps run on the
// executor model with the earlier steps' outputs; an edited step runs as edited.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { QUICK_SETTLE_MS, ask, openPageWithPanel, sendFromPanel, useMockProvider, useSettle, waitForIdle } from './harness/env.js';
import { findRef, lastToolResult } from '../fixtures/llm/conversation.js';

/** @import { RecordedRequest } from '../fixtures/llm/server.js' */

const STEPS = ['Type alice into the Username field', 'Type hunter2 into the Password field', 'Click the Sign in button'];

/**
 * The executor, rule-based: read the step from its brief, take a snapshot, act on the ref the
 * step names, then report done.
 * @param {RecordedRequest} req
 */
function executor(req) {
  const msgs = req.body.messages;
  const brief = String(msgs[1]?.content ?? '');
  const step = /Now do step \d+: (.*)$/.exec(brief)?.[1];
  if (!step) throw new Error(`not an executor request: ${brief.slice(0, 200)}`);
  const tools = msgs.filter((/** @type {any} */ m) => m.role === 'tool');
  if (tools.length === 0) return { toolCalls: [{ name: 'snapshot', args: {} }] };
  if (tools.length === 1) {
    const outline = lastToolResult(req.body);
    const typed = /^Type (\S+) into the (\w+) field$/.exec(step);
    if (typed) return { toolCalls: [{ name: 'type', args: { ref: findRef(outline, 'textbox', typed[2]), text: typed[1] } }] };
    const clicked = /^Click the (.+) button$/.exec(step);
    if (clicked) return { toolCalls: [{ name: 'click', args: { ref: findRef(outline, 'button', clicked[1]) } }] };
    throw new Error(`the mock executor cannot do "${step}"`);
  }
  return { toolCalls: [{ name: 'done', args: { summary: `Did: ${step}` } }] };
}

scenario('plan mode', (ctx) => {
  before(async () => {
    await useMockProvider(ctx.env);
    await ask(ctx.env.control, { type: 'settings.set', settings: { roles: { executor: { providerId: '', model: 'mock-2' } } } });
    // Each executor step is a run of its own with its settle period; the sign-in page sends and
    // changes nothing after a step (its script answers the click at once), so the shortest will do.
    await useSettle(ctx.env, QUICK_SETTLE_MS);
  });
  after(async () => {
    await ask(ctx.env.control, { type: 'settings.set', settings: { roles: {} } });
    await useSettle(ctx.env, null);
  });

  it('shows the plan for approval; once approved the steps run on the executor model', async () => {
    const { env } = ctx;
    env.llm.script([{ text: 'Three steps.', toolCalls: [{ name: 'propose_plan', args: { steps: STEPS } }] }, ...Array(9).fill(executor)]);
    const { page, panel } = await openPageWithPanel(env, 'login.html');
    try {
      await sendFromPanel(panel, 'Sign in as alice with password hunter2', 'plan');
      const shown = await panel.waitFor(() => {
        const card = document.querySelector('.card.plan.pending');
        return card && [...card.querySelectorAll('textarea')].map((t) => /** @type {HTMLTextAreaElement} */ (t).value);
      }, undefined, { message: 'the plan card waiting for approval' });
      expect(shown).to.deep.equal(STEPS);
      // Nothing runs before approval.
      expect(env.llm.requests).to.have.length(1);
      expect(await page.evaluate(() => /** @type {HTMLInputElement} */ (document.querySelector('#user')).value)).to.equal('');
      await panel.click('.card.plan .plan-approve');
      await waitForIdle(panel);

      expect(env.llm.problems).to.deep.equal([]);
      expect(await page.text('h1')).to.equal('Welcome, alice');
      const reqs = env.llm.requests;
      expect(reqs).to.have.length(10);
      expect(reqs[0].body.model).to.equal('mock-1');
      expect(reqs[0].body.tools.map((/** @type {any} */ t) => t.function.name)).to.include('propose_plan');
      expect(reqs.slice(1).every((r) => r.body.model === 'mock-2')).to.equal(true);
      // Step 3 saw the outputs of steps 1 and 2.
      expect(reqs[7].body.messages[1].content).to.contain('Step 1 output: Did: Type alice into the Username field');
      // What went into the password field is a secret from then on: masked in what later steps see.
      expect(reqs[7].body.messages[1].content).to.contain('Step 2 output: Did: Type •••••• into the Password field');
      const card = await panel.evaluate(() => {
        const c = /** @type {HTMLElement} */ (document.querySelector('.card.plan'));
        return { status: c.dataset.status, steps: [...c.querySelectorAll('li')].map((li) => /** @type {HTMLElement} */ (li).dataset.status) };
      });
      expect(card).to.deep.equal({ status: 'done', steps: ['ok', 'ok', 'ok'] });
      expect(await panel.text('.msg.assistant.final')).to.contain('Plan completed (3 steps)');
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('runs a step as the user edited it, and a rejected plan does nothing', async () => {
    const { env } = ctx;
    env.llm.script([{ toolCalls: [{ name: 'propose_plan', args: { steps: STEPS } }] }, ...Array(9).fill(executor)]);
    const { page, panel } = await openPageWithPanel(env, 'login.html');
    try {
      await sendFromPanel(panel, 'Sign in as alice with password hunter2', 'plan');
      await panel.waitFor(() => Boolean(document.querySelector('.card.plan.pending textarea')), undefined, { message: 'the plan card' });
      await panel.fill('.card.plan.pending textarea', 'Type bob into the Username field');
      await panel.click('.card.plan .plan-approve');
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(env.llm.requests[1].body.messages[1].content).to.contain('Now do step 1: Type bob into the Username field');
      expect(await page.evaluate(() => /** @type {HTMLInputElement} */ (document.querySelector('#user')).value)).to.equal('bob');
      expect(await page.text('#message')).to.equal('Wrong username or password.');

      // Reject: no executor request, the page stays as it is.
      env.llm.script([{ toolCalls: [{ name: 'propose_plan', args: { steps: ['Click the Sign in button'] } }] }]);
      await sendFromPanel(panel, 'Try again', 'plan');
      await panel.waitFor(() => Boolean(document.querySelector('.card.plan.pending')), undefined, { message: 'the second plan card' });
      await panel.click('.card.plan.pending .plan-reject');
      const items = await waitForIdle(panel);
      expect(env.llm.requests).to.have.length(1);
      expect(env.llm.problems).to.deep.equal([]);
      expect(items.at(-1)?.text).to.contain('Plan rejected');
      expect(await panel.evaluate(() => /** @type {HTMLElement} */ ([...document.querySelectorAll('.card.plan')].at(-1)).dataset.status)).to.equal('rejected');
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
