// Steps people can read without leaking: a password the agent types never appears in
// clear in the panel's DOM, at any moment of the run: a MutationObserver in the panel records every
// text, attribute and value the panel ever holds while the agent signs in, and, in a second run,
// while the typing step fails.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { findRef, lastToolResult, signInScript } from '../fixtures/llm/conversation.js';

const PASSWORD = 'hunter2';

/** Starts recording everything the panel's DOM holds. @param {import('./harness/driver.js').Driver} panel */
function watch(panel) {
  return panel.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.__seen = [];
    const keep = (/** @type {string | null | undefined} */ s) => { if (s) w.__seen.push(s); };
    const scan = (/** @type {Node} */ n) => {
      if (n.nodeType === Node.TEXT_NODE) keep(n.textContent);
      if (n instanceof Element) {
        for (const a of n.attributes) keep(a.value);
        if (n instanceof HTMLInputElement || n instanceof HTMLTextAreaElement) keep(n.value);
        n.childNodes.forEach(scan);
      }
    };
    w.__observer = new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'characterData') keep(r.target.textContent);
        if (r.type === 'attributes' && r.target instanceof Element) keep(r.target.getAttribute(/** @type {string} */ (r.attributeName)));
        r.addedNodes.forEach(scan);
      }
    });
    w.__observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    scan(document.body);
  });
}

/** @param {import('./harness/driver.js').Driver} panel @returns {Promise<string[]>} */
function seen(panel) {
  return panel.evaluate(() => { const w = /** @type {any} */ (window); w.__observer.disconnect(); return w.__seen; });
}

scenario('the panel never shows a password', (ctx) => {
  before(async () => { await useMockProvider(ctx.env); });

  it('while the agent signs in, not even in the pending card', async () => {
    const { env } = ctx;
    // Slow turns, so the pending card of each step stays on screen a while.
    env.llm.script(signInScript().map((t) => (typeof t === 'function' ? (/** @type {any} */ req) => ({ ...t(req), chunkDelayMs: 30 }) : { ...t, chunkDelayMs: 30 })));
    const { page, panel } = await openPageWithPanel(env, 'login.html');
    try {
      await watch(panel);
      // The agent types into a password field only what the person gave (otherwise the person signs in themselves).
      await sendFromPanel(panel, 'Sign in as alice with password hunter2', 'act');
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(await page.text('h1')).to.equal('Welcome, alice');
      const all = await seen(panel);
      expect(all.length).to.be.above(20);
      expect(all.filter((s) => s.includes(PASSWORD))).to.deep.equal([]);
      expect(all.some((s) => s.includes('••••••'))).to.equal(true);
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('when typing the password into its field fails (the field is locked)', async () => {
    const { env } = ctx;
    env.llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (req) => ({ toolCalls: [{ name: 'type', args: { ref: findRef(lastToolResult(req.body), 'textbox', 'Password'), text: PASSWORD } }], chunkDelayMs: 30 }),
      { text: 'I could not type it.' },
    ]);
    const { page, panel } = await openPageWithPanel(env, 'locked-login.html');
    try {
      await watch(panel);
      await sendFromPanel(panel, 'Type my password hunter2', 'act');
      const items = await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(items.find((i) => i.tool === 'type')?.cls).to.include('failed');
      const all = await seen(panel);
      expect(all.filter((s) => s.includes(PASSWORD))).to.deep.equal([]);
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
