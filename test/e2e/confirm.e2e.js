// Issue #5 confirmation gates (seed 001): a checkout click pauses for the user's confirmation in
// the panel, naming the action and the site; it happens only after Confirm, and Cancel leaves the
// page untouched.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { findRef, lastToolResult } from '../fixtures/llm/conversation.js';

/** @import { Turn } from '../fixtures/llm/server.js' */

/** snapshot, then click Place order; the third turn depends on what the user chose. @param {Turn} third @returns {Turn[]} */
const script = (third) => [
  { toolCalls: [{ name: 'snapshot', args: {} }] },
  (req) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(lastToolResult(req.body), 'button', 'Place order') } }] }),
  third,
];

scenario('confirmation gate', (ctx) => {
  before(async () => { await useMockProvider(ctx.env); });

  it('pauses a checkout click until the user confirms in the panel', async () => {
    const { env } = ctx;
    env.llm.script(script((req) => {
      if (lastToolResult(req.body).includes('Error')) throw new Error(`the click failed: ${lastToolResult(req.body)}`);
      return { toolCalls: [{ name: 'done', args: { summary: 'Ordered the poster. The page says "Thank you! Order #1001 is placed."' } }] };
    }));
    const { page, panel } = await openPageWithPanel(env, 'checkout.html');
    try {
      await sendFromPanel(panel, 'Buy what is in my cart', 'act');
      const text = await panel.waitFor(() => document.querySelector('.card.confirm.pending')?.textContent, undefined, { message: 'the confirmation card' });
      const site = new URL(env.site.url).host;
      expect(text).to.contain('Click button "Place order"');
      expect(text).to.contain(site);
      expect(text).to.contain('checkout or payment');
      // Waiting: the click has not happened and the model has not been asked again.
      expect(await page.evaluate(() => document.body.dataset.ordered ?? 'no')).to.equal('no');
      expect(env.llm.requests).to.have.length(2);
      await panel.click('.card.confirm .confirm-yes');
      const items = await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(await page.evaluate(() => document.body.dataset.ordered)).to.equal('1');
      expect(await page.text('#status')).to.equal('Thank you! Order #1001 is placed.');
      expect(await panel.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('.card.confirm')).dataset.status)).to.equal('yes');
      const final = items.find((i) => i.cls.includes('final'));
      expect(final?.text).to.contain('Ordered the poster');
      // The observation after done found the quoted words on the page.
      expect(await panel.evaluate(() => document.querySelector('.msg.final .check')?.className)).to.equal('check verified');
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('leaves the page untouched when the user cancels', async () => {
    const { env } = ctx;
    env.llm.script(script((req) => {
      const result = lastToolResult(req.body);
      if (!result.startsWith('Error USER_DECLINED')) throw new Error(`expected USER_DECLINED, got ${result}`);
      return { text: 'Understood: I did not place the order.' };
    }));
    const { page, panel } = await openPageWithPanel(env, 'checkout.html');
    try {
      await sendFromPanel(panel, 'Buy what is in my cart', 'act');
      await panel.waitFor(() => Boolean(document.querySelector('.card.confirm.pending')), undefined, { message: 'the confirmation card' });
      await panel.click('.card.confirm .confirm-no');
      const items = await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(items.at(-1)?.text).to.equal('Understood: I did not place the order.');
      expect(await page.evaluate(() => document.body.dataset.ordered ?? 'no')).to.equal('no');
      expect(await page.text('#status')).to.equal('');
      const clickCard = items.find((i) => i.tool === 'click');
      expect(clickCard?.cls).to.contain('failed');
      expect(await panel.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('.card.confirm')).dataset.status)).to.equal('no');
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
