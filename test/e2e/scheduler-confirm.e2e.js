// A scheduled Act run obeys the safety gates. The order the click sends is
// held and its card waits in the tab's panel, the job shows as needs_user_input meanwhile, and it
// completes only after the user allows it.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, useMockProvider } from './harness/env.js';
import { findRef, lastToolResult } from '../fixtures/llm/conversation.js';

scenario('scheduled run meets a confirmation gate', (ctx) => {
  it('waits as needs_user_input until the user confirms in the panel, then completes', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    for (const job of (await ask(env.control, { type: 'jobs.list' })).data.jobs) await ask(env.control, { type: 'jobs.delete', id: job.id });
    env.llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (req) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(lastToolResult(req.body), 'button', 'Place order') } }] }),
      (req) => {
        if (lastToolResult(req.body).includes('Error')) throw new Error(`the click failed: ${lastToolResult(req.body)}`);
        return { toolCalls: [{ name: 'done', args: { summary: 'Placed the order.' } }] };
      },
    ]);
    const { page, panel, tabId } = await openPageWithPanel(env, 'checkout.html');
    try {
      const created = await ask(env.control, { type: 'jobs.create', job: { title: 'Buy the cart', prompt: 'Buy what is in my cart', mode: 'act', target: { type: 'tab', tabId }, schedule: { kind: 'once', afterSeconds: 0 } } });
      expect(created.ok, created.message).to.equal(true);
      const id = created.data.job.id;
      /** @param {string} state */
      const jobIn = (state) => env.control.waitFor(async ({ id, state }) => {
        const r = await browser.runtime.sendMessage({ type: 'jobs.list' });
        const j = r.ok && r.data.jobs.find((/** @type {any} */ x) => x.id === id);
        return j && j.state === state ? j : null;
      }, { id, state }, { timeout: 30_000, message: `the job to be ${state}` });

      await jobIn('needs_user_input');
      const card = await panel.waitFor(() => document.querySelector('.card.confirm.pending')?.textContent, undefined, { message: 'the confirmation card in the tab\'s panel' });
      expect(card).to.contain(`POST to ${env.site.url}/api/orders`);
      expect(await page.evaluate(() => document.body.dataset.ordered ?? 'no')).to.equal('no');

      await panel.click('.card.confirm .confirm-yes');
      const done = await jobIn('completed');
      expect(done.history.at(-1)).to.deep.include({ status: 'completed' });
      expect(await page.evaluate(() => document.body.dataset.ordered)).to.equal('1');
      expect(env.llm.problems).to.deep.equal([]);
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
