// The network hold (docs/SECURITY.md): a click whose page then POSTs an order is held before the
// request leaves the browser (Chrome: CDP Fetch; Firefox: blocking webRequest). The panel's card
// names the method, the site and the fields; the order reaches the server only after Allow, and
// never after Decline, while the run goes on.
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

scenario('network hold', (ctx) => {
  before(async () => { await useMockProvider(ctx.env); });

  it('holds the order a click sends, shows it, and lets it go only on Allow', async () => {
    const { env } = ctx;
    env.llm.script(script((req) => {
      if (lastToolResult(req.body).includes('Error')) throw new Error(`the click failed: ${lastToolResult(req.body)}`);
      return { toolCalls: [{ name: 'done', args: { summary: 'Ordered the poster. The page says "Thank you! Order #1001 is placed."' } }] };
    }));
    const { page, panel } = await openPageWithPanel(env, 'checkout.html');
    const before = env.site.writes.length;
    try {
      await sendFromPanel(panel, 'Buy what is in my cart', 'act');
      const card = /** @type {{ text: string, rule: string, severity: string, site: string, fields: string[] }} */ (await panel.waitFor(() => {
        const c = /** @type {HTMLElement | null} */ (document.querySelector('.card.confirm.pending'));
        return c && { text: c.textContent, rule: c.dataset.rule, severity: c.dataset.severity, site: c.dataset.site, fields: [...c.querySelectorAll('dt')].map((d) => `${d.textContent}=${d.nextElementSibling?.textContent}`) };
      }, undefined, { message: 'the confirmation card' }));
      const site = new URL(env.site.url).host;
      expect(card.rule).to.equal('server_write');
      expect(card.severity).to.equal('high');
      expect(card.site).to.equal(site);
      expect(card.text).to.contain(`POST to ${env.site.url}/api/orders`);
      expect(card.text).to.contain('checkout or payment');
      expect(card.text).to.contain('click button "Place order"');
      expect(card.fields).to.deep.equal(['item=Lighthouse poster', 'qty=1', 'total=24.00']);
      // Held: the request has not reached the server, the page is still waiting for its answer.
      expect(env.site.writes.length).to.equal(before);
      expect(await page.evaluate(() => document.body.dataset.ordered ?? 'no')).to.equal('no');
      await panel.click('.card.confirm .confirm-yes');
      const items = await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(env.site.writes.slice(before).map((w) => `${w.method} ${w.path} ${w.body}`)).to.deep.equal(['POST /api/orders {"item":"Lighthouse poster","qty":1,"total":"24.00"}']);
      expect(await page.text('#status')).to.equal('Thank you! Order #1001 is placed.');
      expect(await panel.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('.card.confirm')).dataset.status)).to.equal('yes');
      expect(items.find((i) => i.cls.includes('final'))?.text).to.contain('Ordered the poster');
      expect(await panel.evaluate(() => document.querySelector('.msg.final .check')?.className)).to.equal('check verdict verified');
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('drops it on Decline: nothing reaches the server, the model hears USER_DECLINED and the run goes on', async () => {
    const { env } = ctx;
    env.llm.script(script((req) => {
      const result = lastToolResult(req.body);
      if (!result.startsWith('Error USER_DECLINED')) throw new Error(`expected USER_DECLINED, got ${result}`);
      return { text: 'Understood: I did not place the order.' };
    }));
    const { page, panel } = await openPageWithPanel(env, 'checkout.html');
    const before = env.site.writes.length;
    try {
      await sendFromPanel(panel, 'Buy what is in my cart', 'act');
      await panel.waitFor(() => Boolean(document.querySelector('.card.confirm.pending')), undefined, { message: 'the confirmation card' });
      await panel.click('.card.confirm .confirm-no');
      const items = await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(await panel.evaluate(answerText)).to.equal('Understood: I did not place the order.');
      // The user's own decision, said as such: not a step that failed, nor a change that never happened.
      const note = await panel.evaluate(() => {
        const n = /** @type {HTMLElement | null} */ (document.querySelector('.msg.final .check.verdict'));
        return { verdict: n?.dataset.verdict ?? '', text: n?.textContent ?? '' };
      });
      expect(note.verdict).to.equal('not_verified');
      expect(note.text).to.contain('You declined the change');
      expect(note.text).to.not.contain('Some steps failed');
      expect(note.text).to.not.contain('nothing was sent');
      expect(env.site.writes.length).to.equal(before);
      expect(await page.evaluate(() => document.body.dataset.ordered ?? 'no')).to.equal('no');
      expect(await page.text('#status')).to.equal('The order could not be placed.');
      expect(items.find((i) => i.tool === 'click')?.cls).to.contain('failed');
      expect(await panel.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('.card.confirm')).dataset.status)).to.equal('no');
    } finally {
      await page.close();
      await panel.close();
    }
  });
});

/** The final answer's own text, without the verdict note under it. */
function answerText() {
  const copy = /** @type {HTMLElement | undefined} */ ([...document.querySelectorAll('#log .msg.final')].at(-1)?.cloneNode(true));
  copy?.querySelector(':scope > .check')?.remove();
  return copy?.textContent ?? '';
}
