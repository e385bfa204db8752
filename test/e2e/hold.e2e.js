// The hold on every kind of request an acting step can cause (docs/SECURITY.md), in both browsers:
// a form post that navigates, a beacon, and a link to another site. Each waits for its card; what
// the user declines never reaches a server, what they allow does.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { findRef, lastToolResult, toolResults } from '../fixtures/llm/conversation.js';

/** @import { Driver } from './harness/driver.js' */

/** Answer the next pending card; returns what it showed. @param {Driver} panel @param {'yes' | 'no'} answer */
async function answerCard(panel, answer) {
  const card = /** @type {{ rule: string, text: string }} */ (await panel.waitFor(() => {
    const c = /** @type {HTMLElement | null} */ (document.querySelector('.card.confirm.pending'));
    return c && { rule: c.dataset.rule ?? '', text: c.textContent ?? '' };
  }, undefined, { message: 'a confirmation card' }));
  const answered = await panel.evaluate(() => document.querySelectorAll('.card.confirm:not(.pending)').length);
  await panel.click(`.card.confirm.pending .confirm-${answer}`);
  await panel.waitFor((n) => document.querySelectorAll('.card.confirm:not(.pending)').length > n, answered, { message: 'the card to be answered' });
  return card;
}

scenario('request hold: forms, beacons, other sites', (ctx) => {
  it('holds a form post, a beacon and a navigation to another site; only what the user allows leaves', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    const other = env.site.url.replace('127.0.0.1', 'localhost') + '/article.html';
    /** @param {any} req @param {string} name */
    const click = (req, name) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(toolResults(req.body)[0], name === 'Partner offers' ? 'link' : 'button', name) } }] });
    env.llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (req) => click(req, 'Send feedback'),
      (req) => { if (!lastToolResult(req.body).startsWith('Error USER_DECLINED')) throw new Error(lastToolResult(req.body)); return click(req, 'Mark as read'); },
      (req) => { if (lastToolResult(req.body).startsWith('Error')) throw new Error(lastToolResult(req.body)); return click(req, 'Partner offers'); },
      (req) => { if (!lastToolResult(req.body).startsWith('Error USER_DECLINED')) throw new Error(lastToolResult(req.body)); return { text: 'Sent the read mark only.' }; },
    ]);
    const { page, panel } = await openPageWithPanel(env, `hold.html?other=${encodeURIComponent(other)}`);
    const before = env.site.writes.length;
    try {
      await sendFromPanel(panel, 'Mark the item as read', 'act');
      const form = await answerCard(panel, 'no');
      expect(form.rule).to.equal('server_write');
      expect(form.text).to.contain(`POST to ${env.site.url}/api/feedback`);
      expect(form.text).to.contain('Loved the poster');
      const beacon = await answerCard(panel, 'yes');
      expect(beacon.rule).to.equal('server_write');
      expect(beacon.text).to.contain(`POST to ${env.site.url}/api/read`);
      const away = await answerCard(panel, 'no');
      expect(away.rule).to.equal('leave_scope');
      expect(away.text).to.contain(other);
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      await page.waitFor(() => document.getElementById('pinged')?.textContent === 'queued', undefined, { message: 'the beacon to be queued' });
      // The beacon arrives (allowed); the form post never does, and the tab stayed on the page.
      const deadline = Date.now() + 5000;
      while (!env.site.writes.slice(before).some((w) => w.path === '/api/read') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(env.site.writes.slice(before).map((w) => `${w.method} ${w.path} ${w.body}`)).to.deep.equal(['POST /api/read item=42']);
      expect(await page.evaluate(() => location.pathname)).to.equal('/hold.html');
    } catch (err) {
      console.log(JSON.stringify(await panel.evaluate(() => [...document.querySelectorAll('#log > *')].map((e) => e.className + ': ' + (e.textContent ?? '').slice(0, 300))), null, 1), env.llm.problems, env.site.writes.slice(before));
      throw err;
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
