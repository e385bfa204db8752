// Write-ahead persistence, Chrome only (Firefox's MV2 background page is persistent):
// the service worker is stopped through CDP at the worst moments of a run (50, 150 and 300 ms
// after Send, and right after a click reached the page), and once deep into a 40-step run on a
// big page whose snapshots all differ. Every finished step comes back, and Continue completes the
// task with exactly one click on the page.
import { expect } from 'chai';
import { browsers, ask, getEnv, openPageWithPanel, sendFromPanel, useMockProvider } from './harness/env.js';
import { findRef } from '../fixtures/llm/conversation.js';

/**
 * The tool calls of an OpenAI-format request body with their results, in order.
 * @param {any} body @returns {{ name: string, result: string }[]}
 */
function steps(body) {
  /** @type {Map<string, string>} */
  const names = new Map();
  /** @type {{ name: string, result: string }[]} */
  const out = [];
  for (const m of body.messages ?? []) {
    for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
    if (m.role === 'tool') out.push({ name: names.get(m.tool_call_id) ?? '?', result: String(m.content ?? '') });
  }
  return out;
}

/**
 * The counter task as a careful model does it: look, click "Add one" unless the page already
 * shows Count: 1, look again after every click (finished or interrupted) and after an interrupted
 * look, then report. Slow
 * enough (60 ms between chunks) for a stop to land mid-answer.
 * @param {any} req
 */
function counterModel(req) {
  const done = steps(req.body);
  const last = done.at(-1);
  const slow = { chunkDelayMs: 60 };
  // A look the stop interrupted is taken again (on a loaded machine the stop can land inside it).
  if (!last || last.name !== 'snapshot' || last.result.startsWith('Error ')) return { ...slow, toolCalls: [{ name: 'snapshot', args: {} }] };
  if (/Count: 1\b/.test(last.result)) return { ...slow, toolCalls: [{ name: 'done', args: { summary: 'The counter shows Count: 1.' } }] };
  return { ...slow, toolCalls: [{ name: 'click', args: { ref: findRef(last.result, 'button', 'Add one') } }] };
}

/** @param {import('./harness/env.js').TestEnv} env */
async function stopWorker(env) {
  const ctx = env.browser.raw;
  const cdp = await ctx.newCDPSession(ctx.pages()[0]);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await cdp.detach().catch(() => {});
}

/**
 * After the stop: the interrupted card, what the panel shows, then Continue until the run ends.
 * @param {import('./harness/driver.js').Driver} panel @param {number} [timeout] for the continued run
 */
async function continueAfterStop(panel, timeout = 60_000) {
  await panel.waitFor(() => document.querySelector('.card.interrupted.pending') && document.body.dataset.running === 'false', undefined, { timeout: 20_000, message: 'the interrupted card' });
  const shown = await panel.evaluate(() => [...document.querySelectorAll('#log > *')].map((e) => ({ cls: e.className, text: e.textContent ?? '' })));
  const runs = Number(await panel.evaluate(() => document.body.dataset.runs ?? 0));
  await panel.click('.card.interrupted .continue-run');
  await panel.waitFor((n) => Number(document.body.dataset.runs ?? 0) > n && document.body.dataset.running === 'false', runs, { timeout, message: 'the continued run to finish' });
  return shown;
}

(browsers().includes('chromium') ? describe : describe.skip)('worker stopped at any moment [chromium]', function () {
  this.timeout(90_000);
  /** @type {import('./harness/env.js').TestEnv} */
  let env;
  before(async function () {
    this.timeout(120_000);
    env = await getEnv('chromium');
    await useMockProvider(env);
  });

  for (const delay of [50, 150, 300, 'click']) {
    it(`${delay === 'click' ? 'right after a click' : `${delay} ms after Send`}: every finished step comes back, and Continue completes the task with one click`, async () => {
      env.llm.usePolicy(counterModel);
      const { page, panel } = await openPageWithPanel(env, 'counter.html');
      try {
        await sendFromPanel(panel, 'Add one to the counter', 'act');
        if (delay === 'click') await page.waitFor(() => document.querySelector('#count')?.textContent === 'Count: 1', undefined, { interval: 5, message: 'the click to reach the page' });
        else await new Promise((r) => setTimeout(r, /** @type {number} */ (delay)));
        await stopWorker(env);
        const shown = await continueAfterStop(panel);
        // The user's message was written before anything else: it is always there.
        expect(shown[0].cls).to.equal('msg user');
        expect(shown[0].text).to.include('Add one to the counter');
        if (delay === 'click') {
          // The click had finished (the page shows it): it came back as a step, with its result or as interrupted.
          expect(shown.some((i) => i.cls.startsWith('tool') && i.text.includes('click'))).to.equal(true);
        }
        expect(env.llm.problems).to.deep.equal([]);
        // Exactly one click reached the page, whatever the moment of the stop.
        expect(await page.evaluate(() => document.querySelector('#count')?.textContent)).to.equal('Count: 1');
        expect(await panel.text('.msg.assistant.final')).to.contain('Count: 1');
        // No tool card is left saying it runs.
        expect(await panel.evaluate(() => document.querySelectorAll('#log .tool.running, #log .tool.pending').length)).to.equal(0);
      } finally {
        await page.close();
        await panel.close();
      }
    });
  }

  // What the long run proves: a run deep enough that its outlines (each larger than the blob
  // threshold, all different: the page's clock ticks) go to IndexedDB by reference, and that
  // compaction has run, survives a stop with every stored step. 40 steps show both; 400 showed
  // nothing more and took four minutes.
  it('a 40-step run on a big page survives a worker stop with all its steps, stored by reference', async function () {
    // A hang guard: 40 model turns and snapshots of a big page, on a machine that may be busy.
    this.timeout(300_000);
    const STEPS = 40;
    const STOP_AFTER = 30;
    const saved = await ask(env.control, { type: 'settings.get' });
    await ask(env.control, { type: 'settings.set', settings: { maxSteps: 100 } });
    // The model's turns with a tool call, counted here: compaction takes old results out of later requests.
    let served = 0;
    let summaries = 0;
    let outline = 0;
    let stopAt = Infinity;
    env.llm.usePolicy((req) => {
      // Compaction's summary request offers no tools and wants text.
      if (!req.body.tools?.length) { summaries++; return { text: 'The agent has been taking snapshots of the big page; nothing else happened.' }; }
      const last = steps(req.body).at(-1);
      if (last?.name === 'snapshot') outline = Math.max(outline, last.result.length);
      if (served >= STEPS) return { toolCalls: [{ name: 'done', args: { summary: `Took ${served} snapshots.` } }] };
      served++;
      // Slow around the stop, so that it lands mid-answer.
      return { chunkDelayMs: served > stopAt && served <= stopAt + 5 ? 100 : 1, toolCalls: [{ name: 'snapshot', args: {} }] };
    });
    const { page, panel, tabId } = await openPageWithPanel(env, 'generated/big.html?elements=6000&rows=400&tick');
    /** @returns {Promise<{ tools: number, steps: number, chars: number }>} the stored tool items, those with a result, and the entry's size */
    const storedSession = () => env.control.evaluate((key) => browser.storage.session.get(key).then((/** @type {any} */ r) => ({
      tools: (r[key]?.items ?? []).filter((/** @type {any} */ i) => i.kind === 'tool').length,
      steps: (r[key]?.items ?? []).filter((/** @type {any} */ i) => i.kind === 'tool' && i.result).length,
      chars: JSON.stringify(r[key] ?? null).length,
    })), `session:${tabId}`);
    try {
      await sendFromPanel(panel, `Take ${STEPS} snapshots of this page`, 'act');
      stopAt = STOP_AFTER;
      await env.control.waitFor((args) => browser.storage.session.get(args.key).then((/** @type {any} */ r) => (r[args.key]?.items ?? []).filter((/** @type {any} */ i) => i.kind === 'tool' && i.result).length >= args.n), { key: `session:${tabId}`, n: STOP_AFTER }, { timeout: 240_000, interval: 200, message: `${STOP_AFTER} steps in storage` });
      const servedBefore = served;
      await stopWorker(env);
      const shown = await continueAfterStop(panel, 240_000);
      const tools = shown.filter((i) => i.cls.startsWith('tool'));
      // Every step before the stop came back: only the call being answered when the worker stopped may be missing.
      expect(tools.length).to.be.at.least(servedBefore - 1);
      expect(tools.filter((i) => i.text.includes('INTERRUPTED')).length).to.be.at.most(1);
      expect(await panel.evaluate(() => document.querySelectorAll('#log > .tool').length)).to.be.at.least(STEPS);
      const final = await panel.text('.msg.assistant.final');
      expect(final).to.include(`Took ${STEPS} snapshots`);
      // The sizes that make this run show something: outlines over the blob threshold, and compaction.
      expect(outline, 'an outline longer than the blob threshold (8,192 characters)').to.be.greaterThan(8_192);
      expect(summaries, 'compaction summaries during the run').to.be.at.least(1);
      // Stored by reference: every step in storage.session, each costing a small part of an outline.
      const stored = await storedSession();
      // Every step is stored; the call being answered when the worker stopped may have no result.
      expect(stored.tools).to.be.at.least(STEPS);
      expect(stored.steps).to.be.at.least(STEPS - 1);
      expect(stored.chars, `${stored.chars} characters stored for ${stored.steps} steps of outlines up to ${outline}`).to.be.lessThan(stored.steps * outline / 4);
      expect(env.llm.problems).to.deep.equal([]);
      console.log(`      [chromium] ${STEPS}-step run, worker stopped after ${servedBefore} steps: ${summaries} compactions, outlines up to ${outline} characters, ${stored.chars} characters stored for ${stored.steps} steps`);
    } finally {
      if (saved.ok) await ask(env.control, { type: 'settings.set', settings: { maxSteps: saved.data.maxSteps } });
      await page.close();
      await panel.close();
    }
  });

  it('the on-page indicator leaves when the worker dies mid-run', async () => {
    env.llm.script([{ text: 'Looking at the counter, slowly enough for the worker to be stopped meanwhile.', chunkDelayMs: 1_500 }]);
    const { page, panel, tabId } = await openPageWithPanel(env, 'counter.html');
    /** @param {number} id */
    const indicatorShown = (id) => env.control.evaluate((t) => browser.tabs.sendMessage(t, { type: 'content.indicatorState' }, { frameId: 0 }).then((r) => r.data.shown), id);
    try {
      await sendFromPanel(panel, 'Look at the counter', 'act');
      await env.control.waitFor((t) => browser.tabs.sendMessage(t, { type: 'content.indicatorState' }, { frameId: 0 }).then((r) => r.data.shown), tabId, { message: 'the indicator to show' });
      await stopWorker(env);
      // The page itself: no border or Stop button left claiming a run.
      await env.control.waitFor(async (t) => !(await browser.tabs.sendMessage(t, { type: 'content.indicatorState' }, { frameId: 0 })).data.shown, tabId, { timeout: 10_000, message: 'the indicator to leave' });
      expect(await indicatorShown(tabId)).to.equal(false);
      await panel.waitFor(() => document.querySelector('.card.interrupted.pending'), undefined, { timeout: 20_000, message: 'the interrupted card' });
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
