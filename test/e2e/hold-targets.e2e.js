// The hold on what a tab sends through its other senders (docs/SECURITY.md, "What is held"), in both
// browsers: a write from a dedicated worker, from the page's service worker (the page posts it a
// message; the worker fetches), and from a frame on another site (Chromium runs it in another
// process). Each is held before it leaves and shown on a card with its fields; declined, it never
// reaches the server; allowed, it does.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { sendFromPanel, tabIdOf, useMockProvider, waitForIdle } from './harness/env.js';
import { findRef, toolResults } from '../fixtures/llm/conversation.js';
import { startTargetsSite } from '../fixtures/targets/server.js';

/** @import { Driver } from './harness/driver.js' */

/** Answer the next pending card; returns what it showed. @param {Driver} panel @param {'yes' | 'no'} answer */
async function answerCard(panel, answer) {
  const card = /** @type {{ rule: string, text: string }} */ (await panel.waitFor(() => {
    const c = /** @type {HTMLElement | null} */ (document.querySelector('.card.confirm.pending'));
    return c && { rule: c.dataset.rule ?? '', text: c.textContent ?? '' };
  }, undefined, { message: 'a confirmation card' }));
  const answered = await panel.evaluate(() => document.querySelectorAll('.card.confirm:not(.pending)').length);
  await panel.click(`.card.confirm.pending .confirm-${answer}`);
  // A clicked card's buttons stay disabled until the background has the answer: on a loaded machine
  // (a held worker request in Firefox) that once took over 15 s. A hang guard of 60 s, and a failure
  // that says whether the click reached the button at all.
  const state = () => panel.evaluate((n) => ({
    answered: document.querySelectorAll('.card.confirm:not(.pending)').length > n,
    sending: Boolean(document.querySelector('.card.confirm.pending button:disabled')),
  }), answered);
  await panel.waitFor((n) => document.querySelectorAll('.card.confirm:not(.pending)').length > n, answered, { timeout: 60_000, message: 'the card to be answered' })
    .catch(async (err) => { throw new Error(`${err.message}; ${JSON.stringify(await state())} (sending: the click reached the button and the answer is on its way)`); });
  return card;
}

/** Poll (a hang guard, not a timed assertion) until the server has a write. @param {() => boolean} arrived */
async function until(arrived, what = 'the write to arrive') {
  const deadline = Date.now() + 15_000;
  while (!arrived()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const CASES = [
  { sender: 'a dedicated worker', button: 'Save with worker', path: '/api/worker-note', note: 'Buy milk', from: 'worker' },
  { sender: "the page's service worker", button: 'Save offline', path: '/api/sw-note', note: 'Call Anna', from: 'sw' },
  { sender: 'a frame on another site', button: 'Share with partner', path: '/api/frame-note', note: 'Water plants', from: 'frame' },
  // The frame is added by the run's first step, after the hold began: held all the same.
  { sender: 'a frame added after the hold began', first: 'Add second partner', button: 'Share with second partner', path: '/api/frame-note', note: 'Feed cat', from: 'frame2' },
];

scenario('request hold: workers, service worker, cross-site frame', (ctx) => {
  /** @type {Awaited<ReturnType<typeof startTargetsSite>>} */
  let site;
  before(async () => { site = await startTargetsSite(); });
  after(async () => { await site?.close(); });

  for (const c of CASES) {
    it(`holds a write sent by ${c.sender}: declined it never leaves, allowed it arrives`, async () => {
      const { env } = ctx;
      await useMockProvider(env);
      /** @param {any} req @param {string} name */
      const click = (req, name) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(toolResults(req.body)[0], 'button', name) } }] });
      const first = c.first;
      env.llm.script([
        { toolCalls: [{ name: 'snapshot', args: {} }] },
        ...(first ? [(/** @type {any} */ req) => click(req, first)] : []),
        (req) => click(req, c.button),
        (req) => click(req, c.button),
        { text: 'Saved the note once.' },
      ]);
      const url = `${site.url}/targets.html?other=${encodeURIComponent(site.otherUrl)}`;
      const page = await env.browser.openPage(url);
      const tabId = await tabIdOf(env, url);
      const panel = await env.browser.openExtensionPage(`ui/panel.html?tabId=${tabId}`);
      await panel.waitFor(() => document.body.dataset.tabId, undefined, { message: 'the panel to attach to its tab' });
      await page.waitFor(() => document.getElementById('sw-state')?.textContent === 'ready', undefined, { message: 'the service worker to be ready' });
      const before = site.writes.length;
      const mine = () => site.writes.slice(before).filter((w) => w.path === c.path);
      try {
        await sendFromPanel(panel, 'Save my note', 'act');
        const declined = await answerCard(panel, 'no');
        expect(declined.rule).to.equal('server_write');
        expect(declined.text).to.contain(`POST to ${site.url}${c.path}`);
        expect(declined.text).to.contain(c.note);
        const allowed = await answerCard(panel, 'yes');
        expect(allowed.rule).to.equal('server_write');
        expect(allowed.text).to.contain(`POST to ${site.url}${c.path}`);
        await waitForIdle(panel);
        expect(env.llm.problems).to.deep.equal([]);
        await until(() => mine().length > 0);
        // Only the allowed note reached the server: the declined one never left the browser. Each card
        // names its write's n (the page counts its clicks). A new worker starts after the click's step
        // has ended, so the model's second click can come first and its write be asked about first.
        const nOf = (/** @type {string} */ text) => new RegExp(`from\\s*${c.from}\\s*n\\s*(\\d+)`).exec(text)?.[1];
        expect([nOf(declined.text), nOf(allowed.text)].sort()).to.deep.equal(['1', '2']);
        expect(mine().map((w) => w.body)).to.deep.equal([new URLSearchParams({ note: c.note, from: c.from, n: /** @type {string} */ (nOf(allowed.text)) }).toString()]);
        await page.waitFor(() => /saved 200/.test(document.getElementById('status')?.textContent ?? ''), undefined, { message: 'the page to see the answer' });
        // The run is over and its hold released: nothing is held or left paused, the page's own write goes.
        await page.evaluate((name) => [...document.querySelectorAll('button')].find((b) => b.textContent === name)?.click(), c.button);
        await until(() => mine().length === 2, 'the write after the run to arrive without a card');
        expect(mine()[1].body).to.contain('n=3');
        expect(await panel.evaluate(() => document.querySelectorAll('.card.confirm.pending').length)).to.equal(0);
      } catch (err) {
        console.log(JSON.stringify(await panel.evaluate(() => [...document.querySelectorAll('#log > *')].map((e) => e.className + ': ' + (e.textContent ?? '').slice(0, 300))), null, 1), env.llm.problems, site.writes.slice(before));
        throw err;
      } finally {
          await page.close();
        await panel.close();
      }
    });
  }

  // The honest difference between the browsers (docs/SECURITY.md, "What is held"): Chromium's Fetch
  // never sees a page request its service worker answers (it does not leave; what the worker sends
  // on is held in the worker's session), Firefox holds the page's request before the worker gets it.
  it("a write the page's service worker answers itself: nothing reaches the server; Firefox asks first, Chromium sees no request", async () => {
    const { env } = ctx;
    await useMockProvider(env);
    env.llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (req) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(toolResults(req.body)[0], 'button', 'Queue offline') } }] }),
      { text: 'Queued.' },
    ]);
    const url = `${site.url}/targets.html?other=${encodeURIComponent(site.otherUrl)}`;
    const page = await env.browser.openPage(url);
    const tabId = await tabIdOf(env, url);
    const panel = await env.browser.openExtensionPage(`ui/panel.html?tabId=${tabId}`);
    try {
      await panel.waitFor(() => document.body.dataset.tabId, undefined, { message: 'the panel to attach to its tab' });
      await page.waitFor(() => Boolean(navigator.serviceWorker.controller), undefined, { message: 'the service worker to control the page' });
      const before = site.writes.length;
      await sendFromPanel(panel, 'Queue my note', 'act');
      if (ctx.kind === 'firefox') {
        const card = await answerCard(panel, 'yes');
        expect(card.text).to.contain(`POST to ${site.url}/api/queue`);
        expect(card.text).to.contain('Pay rent');
      }
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      await page.waitFor(() => document.getElementById('status')?.textContent === 'queue: {"queued":true}', undefined, { message: "the service worker's answer" });
      expect(await panel.evaluate(() => document.querySelectorAll('.card.confirm').length)).to.equal(ctx.kind === 'firefox' ? 1 : 0);
      expect(site.writes.slice(before)).to.deep.equal([]);
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
