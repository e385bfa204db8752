// Persistence, Chrome only: Chrome may stop the extension's service worker at any time
// (Firefox's MV2 background page is persistent, so there is nothing to stop there). The worker is
// stopped mid-run through CDP; the panel then shows the run as interrupted, and Continue completes it.
import { expect } from 'chai';
import { browsers, getEnv, openPageWithPanel, sendFromPanel, useMockProvider, waitForHistory } from './harness/env.js';
import { findRef, toolResults } from '../fixtures/llm/conversation.js';

// TW_BROWSERS=firefox narrows a hand run; npm test always includes Chromium.
(browsers().includes('chromium') ? describe : describe.skip)('service worker stopped mid-run [chromium]', function () {
  this.timeout(90_000);
  /** @type {import('./harness/env.js').TestEnv} */
  let env;
  before(async function () {
    this.timeout(120_000);
    env = await getEnv('chromium');
    await useMockProvider(env);
  });

  it('shows the interrupted run after the worker restarts, and Continue completes it', async () => {
    env.llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      // The worker is stopped while this slow answer streams.
      { text: 'Now I will type the username into the form, then the password.', chunkDelayMs: 3_000 },
      // After Continue: the model sees the snapshot from before the stop and goes on.
      (req) => ({ toolCalls: [{ name: 'type', args: { ref: findRef(toolResults(req.body)[0], 'textbox', 'Username'), text: 'alice' } }] }),
      { toolCalls: [{ name: 'done', args: { summary: 'Typed alice into "Username".' } }] },
    ]);
    const { page, panel, tabId } = await openPageWithPanel(env, 'login.html');
    try {
      await sendFromPanel(panel, 'Type alice as the username', 'act');
      await panel.waitFor(() => /** @type {HTMLElement | null} */ (document.querySelector('.msg.assistant.streaming'))?.textContent, undefined, { message: 'the slow answer to stream' });
      // The debounced save has the running conversation, snapshot included.
      await env.control.waitFor((key) => browser.storage.session.get(key).then((/** @type {any} */ r) => r[key]?.running === true && r[key].items.some((/** @type {any} */ i) => i.kind === 'tool' && i.result)), `session:${tabId}`, { message: 'the session in storage.session' });

      const ctx = env.browser.raw;
      const cdp = await ctx.newCDPSession(ctx.pages()[0]);
      const stoppedAt = Date.now();
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');

      const card = await panel.waitFor(() => document.querySelector('.card.interrupted.pending')?.textContent, undefined, { timeout: 20_000, message: 'the interrupted card' });
      console.log(`      [chromium] worker stopped → panel shows the interrupted run after ${Date.now() - stoppedAt} ms`);
      expect(card).to.contain('interrupted');
      // Nothing was lost: the user message and the snapshot are still in the panel.
      const before = await panel.evaluate(() => [...document.querySelectorAll('#log > *')].map((e) => e.className));
      expect(before.slice(0, 2)).to.deep.equal(['msg user', 'tool ok']);
      expect(await panel.evaluate(() => document.body.dataset.running)).to.equal('false');

      const runs = Number(await panel.evaluate(() => document.body.dataset.runs ?? 0));
      await panel.click('.card.interrupted .continue-run');
      await panel.waitFor((n) => Number(document.body.dataset.runs ?? 0) > n && document.body.dataset.running === 'false', runs, { timeout: 20_000, message: 'the continued run to finish' });

      expect(env.llm.problems).to.deep.equal([]);
      expect(env.llm.requests).to.have.length(4);
      expect(await page.evaluate(() => /** @type {HTMLInputElement} */ (document.querySelector('#user')).value)).to.equal('alice');
      expect(await panel.text('.msg.assistant.final')).to.contain('Typed alice');
      expect(await panel.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('.card.interrupted')).dataset.status)).to.equal('continued');
      // The continued request carries the whole conversation from before the stop.
      const resumed = env.llm.requests[2].body.messages;
      expect(resumed.find((/** @type {any} */ m) => m.role === 'user').content).to.equal('Type alice as the username');
      expect(resumed.filter((/** @type {any} */ m) => m.role === 'tool')).to.have.length(1);
      // And the conversation is in the IndexedDB history, which outlives a browser restart.
      // It is saved as the run ends, so poll.
      const entry = await waitForHistory(env, (run) => run.tabId === tabId && run.items.some((/** @type {any} */ i) => i.kind === 'assistant' && i.final));
      expect(entry.items.find((/** @type {any} */ i) => i.kind === 'user')?.text).to.equal('Type alice as the username');
      expect(entry.items.some((/** @type {any} */ i) => i.kind === 'interrupted')).to.equal(true);
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
