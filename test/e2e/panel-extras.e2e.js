// The rest of the panel: a step's screenshot as a thumbnail on its card; the agent's
// target outlined on the page while it acts; a ref the model cites in its answer shows that place
// on the page; History's delete; the welcome tab opens the panel.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { findRef, lastToolResult, toolResults } from '../fixtures/llm/conversation.js';
import { launchChromium } from './harness/browsers.js';

/** Counts, in the page, the outlines Tabwright draws (content/highlight.js: its host's z-index). */
const watchOutlines = () => {
  const w = /** @type {any} */ (window);
  w.__outlines = 0;
  new MutationObserver((list) => {
    for (const m of list) for (const n of m.addedNodes) if (n instanceof HTMLElement && /2147483646/.test(n.getAttribute('style') ?? '')) w.__outlines++;
  }).observe(document.documentElement, { childList: true });
};

scenario('panel extras', (ctx) => {
  before(async () => { await useMockProvider(ctx.env); });

  it('shows the screenshot a step took as a thumbnail on its card, large on click', async () => {
    const { env } = ctx;
    env.llm.script([{ toolCalls: [{ name: 'screenshot', args: {} }] }, { text: 'The page shows a counter.' }]);
    const { page, panel } = await openPageWithPanel(env, 'counter.html');
    try {
      await sendFromPanel(panel, 'What does the page look like?', 'ask');
      await waitForIdle(panel);
      const thumb = await panel.waitFor(() => {
        const img = /** @type {HTMLImageElement | null} */ (document.querySelector('#log .tool[data-tool="screenshot"] summary .thumb'));
        return img && img.complete && img.naturalWidth > 0 ? { src: img.src.slice(0, 22), h: img.getBoundingClientRect().height } : null;
      }, undefined, { message: 'the thumbnail' });
      expect(thumb?.src).to.equal('data:image/png;base64,');
      expect(thumb?.h).to.be.at.most(64);
      await panel.click('#log .tool[data-tool="screenshot"] summary .thumb');
      expect(await panel.evaluate(() => document.querySelector('#log .thumb')?.classList.contains('large'))).to.equal(true);
    } finally { await page.close(); await panel.close(); }
  });

  it('outlines the element the agent acts on, and a ref cited in the answer shows that place when clicked', async () => {
    const { env } = ctx;
    env.llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (req) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(lastToolResult(req.body), 'button', 'Add one') } }] }),
      (req) => ({ toolCalls: [{ name: 'done', args: { summary: `Added one with the button [${findRef(toolResults(req.body)[0], 'button', 'Add one')}].` } }] }),
    ]);
    const { page, panel } = await openPageWithPanel(env, 'counter.html');
    try {
      await page.evaluate(watchOutlines);
      await sendFromPanel(panel, 'Add one to the counter', 'act');
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      // The click's target was outlined while the agent acted.
      expect(await page.evaluate(() => /** @type {any} */ (window).__outlines)).to.be.at.least(1);
      // The step's outline has faded and its host is gone before the citation is clicked.
      await new Promise((r) => setTimeout(r, 1500));
      const before = await page.evaluate(() => /** @type {any} */ (window).__outlines);
      const cite = await panel.waitFor(() => document.querySelector('#log .msg.final .cite')?.textContent ?? null, undefined, { message: 'the cited ref' });
      expect(cite).to.match(/^e\d+$/);
      await panel.click('#log .msg.final .cite');
      await page.waitFor((n) => /** @type {any} */ (window).__outlines > n, before, { message: 'the cited place outlined' });
    } finally { await page.close(); await panel.close(); }
  });

  it('History deletes one run and keeps the others', async () => {
    const { env } = ctx;
    env.llm.script([{ text: 'First.' }, { text: 'Second.' }]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await sendFromPanel(panel, 'One', 'ask');
      await waitForIdle(panel);
      await sendFromPanel(panel, 'Two', 'ask');
      await waitForIdle(panel);
      const before = (await ask(env.control, { type: 'history.list' })).data;
      expect(before.slice(0, 2).map((/** @type {any} */ r) => r.task)).to.deep.equal(['Two', 'One']);
      await panel.click('#history-toggle');
      await panel.waitFor(() => Boolean(document.querySelector('#history .run-delete')), undefined, { message: 'the history list' });
      await panel.click('#history .runs li:first-child .run-delete');
      const after = await env.control.waitFor(async (n) => {
        const r = await browser.runtime.sendMessage({ type: 'history.list' });
        return r.data.length === n - 1 ? r.data : null;
      }, before.length, { message: 'one run fewer' });
      expect(after.map((/** @type {any} */ r) => r.id)).to.not.include(before[0].id);
      expect(after.map((/** @type {any} */ r) => r.id)).to.include(before[1].id);
      expect(await panel.evaluate(() => document.querySelectorAll('#history .runs .run-link').length)).to.equal(after.length);
    } finally { await page.close(); await panel.close(); }
  });

  it('the welcome tab opens the panel with one click', async function () {
    this.timeout(120_000);
    // Chrome's side panel, once open, narrows every tab of the window: a browser of its own, so the
    // shared one's pages keep their size.
    const own = ctx.kind === 'chromium' ? await launchChromium() : null;
    const page = await (own ?? ctx.env.browser).openExtensionPage('ui/welcome.html');
    try {
      expect(await page.text('h1')).to.equal('Welcome to Tabwright');
      await page.click('#open-panel');
      const said = await page.waitFor(() => document.getElementById('open-result')?.textContent || null, undefined, { message: 'the result' });
      expect(said).to.equal('Opened.');
    } finally { await page.close(); await own?.close(); }
  });
});
