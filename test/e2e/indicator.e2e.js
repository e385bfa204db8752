// While the agent acts, the page shows a border and a Stop button in a closed shadow root,
// out of reach of the page's CSS; the button stops the run; the indicator goes when the run ends.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';

/** @import { TestEnv } from './harness/env.js' */

/** @param {TestEnv} env @param {number} tabId */
function indicatorState(env, tabId) {
  return env.control.evaluate((id) => browser.tabs.sendMessage(id, { type: 'content.indicatorState' }, { frameId: 0 }).then((r) => r.data), tabId);
}

scenario('on-page indicator', (ctx) => {
  it('shows a Stop button the page CSS cannot hide, and stops the run from the page', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    env.llm.script([{ text: 'Looking at the order form, slowly, so the indicator stays up for a while.', chunkDelayMs: 2000 }]);
    const { page, panel, tabId } = await openPageWithPanel(env, 'hostile-styles.html');
    try {
      expect((await indicatorState(env, tabId)).shown).to.equal(false);
      await sendFromPanel(panel, 'Place the order', 'act');
      const state = await env.control.waitFor((id) => browser.tabs.sendMessage(id, { type: 'content.indicatorState' }, { frameId: 0 }).then((r) => (r.data.shown ? r.data : null)), tabId, { message: 'the indicator to show' });
      expect(state.visible).to.equal(true);
      const { x, y } = /** @type {{x: number, y: number}} */ (state.stop);

      // What the page itself can see: an element with a random name and no open shadow root, above its own content.
      const seen = await page.evaluate(({ x, y }) => {
        const hit = /** @type {Element} */ (document.elementFromPoint(x, y));
        return { tag: hit.tagName.toLowerCase(), shadow: hit.shadowRoot, bodyText: document.body.innerText, display: getComputedStyle(hit).display, opacity: getComputedStyle(hit).opacity };
      }, { x, y });
      expect(seen.tag).to.match(/^tw-[a-z0-9]+$/);
      expect(seen.shadow).to.equal(null);
      expect(seen.display).to.equal('block');
      expect(seen.opacity).to.equal('1');
      expect(seen.bodyText).to.not.contain('Tabwright');

      // A real (trusted) click on the page's Stop button ends the run.
      await /** @type {any} */ (page.page).bringToFront();
      await page.clickAt(x, y);
      const items = await waitForIdle(panel, 15_000);
      expect(items.some((i) => i.code === 'ABORTED' && i.cls.includes('stopped'))).to.equal(true);
      await env.control.waitFor((id) => browser.tabs.sendMessage(id, { type: 'content.indicatorState' }, { frameId: 0 }).then((r) => !r.data.shown), tabId, { message: 'the indicator to go' });
      expect(await page.evaluate(() => document.body.dataset.ordered ?? 'no')).to.equal('no');
      expect(env.llm.problems).to.deep.equal([]);
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('stays hidden in Ask mode, which only reads', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    env.llm.script([{ text: 'A slow answer that only reads the page.', chunkDelayMs: 600 }]);
    const { page, panel, tabId } = await openPageWithPanel(env, 'article.html');
    try {
      await sendFromPanel(panel, 'What is this?', 'ask');
      await panel.waitFor(() => document.querySelector('.msg.assistant.streaming')?.textContent, undefined, { message: 'the answer to stream' });
      expect((await indicatorState(env, tabId)).shown).to.equal(false);
      await waitForIdle(panel);
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
