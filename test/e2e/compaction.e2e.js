// Context compaction: a 50-step scripted run compacts at least twice mid-flight, the
// panel shows the markers, and the last request still carries the original task. The run compacts
// when it passes 50 messages and keeps the last 30 (agent/compaction.js), so the first compaction
// comes after about 25 steps and the next every 10: 50 steps show two or more (it was a 150-step
// run, about 45 s a browser, that proved nothing more).
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { findRef, toolResults } from '../fixtures/llm/conversation.js';

/** @import { RecordedRequest } from '../fixtures/llm/server.js' */

const TASK = 'Type the entries one to forty-eight into the journal, one at a time';
const STEPS = 50;

scenario('compaction', (ctx) => {
  before(async () => {
    await useMockProvider(ctx.env);
    await ask(ctx.env.control, { type: 'settings.set', settings: { maxSteps: 200 } });
  });
  after(async () => {
    await ask(ctx.env.control, { type: 'settings.set', settings: { maxSteps: 100 } });
  });

  it(`runs ${STEPS} steps, compacting at least twice, and keeps the original task`, async function () {
    this.timeout(180_000);
    const { env } = ctx;
    let step = 0;
    let summaries = 0;
    /** @type {string | null} */
    let entryRef = null;
    /** Rule-based: the summarizer's requests (no tools) get a summary; the agent's get the next step. @param {RecordedRequest} req */
    const turn = (req) => {
      if (!req.body.tools?.length) {
        summaries++;
        return { text: `Typed entries up to ${step} so far; the Entry textbox is ${entryRef}.`, chunkDelayMs: 0 };
      }
      step++;
      if (step === 1) return { toolCalls: [{ name: 'snapshot', args: {} }], chunkDelayMs: 0 };
      if (step === 2) entryRef = findRef(toolResults(req.body).at(-1) ?? '', 'textbox', 'Entry');
      if (step < STEPS) return { toolCalls: [{ name: 'type', args: { ref: entryRef, text: `entry ${step - 1}` } }], chunkDelayMs: 0 };
      return { toolCalls: [{ name: 'done', args: { summary: `Typed ${STEPS - 2} entries.` } }], chunkDelayMs: 0 };
    };
    env.llm.script(Array(STEPS + 40).fill(turn));
    const { page, panel } = await openPageWithPanel(env, 'journal.html');
    try {
      const started = Date.now();
      await sendFromPanel(panel, TASK, 'act');
      const items = await waitForIdle(panel, 170_000);
      console.log(`      [${ctx.kind}] ${STEPS} steps, ${summaries} compactions in ${Date.now() - started} ms`);
      expect(env.llm.problems).to.deep.equal([]);
      expect(step).to.equal(STEPS);
      expect(await page.evaluate(() => /** @type {HTMLInputElement} */ (document.querySelector('#entry')).value)).to.equal(`entry ${STEPS - 2}`);
      expect(await page.text('#count')).to.equal(String(STEPS - 2));
      const markers = items.filter((i) => i.cls.includes('compacted'));
      expect(markers.length).to.be.at.least(2);
      expect(markers.length).to.equal(summaries);
      expect(markers[0].text).to.match(/^Context compacted: older turns were summarized \(\d+ → \d+ messages\)\.$/);
      expect(items.at(-1)?.text).to.contain(`Typed ${STEPS - 2} entries.`);
      const agentRequests = env.llm.requests.filter((r) => r.body.tools?.length);
      expect(agentRequests).to.have.length(STEPS);
      const last = /** @type {RecordedRequest} */ (agentRequests.at(-1)).body.messages;
      expect(last[0].role).to.equal('system');
      expect(last[1]).to.deep.include({ role: 'user', content: TASK });
      expect(last[2].content).to.match(/^\[Summary of the earlier part of this task/);
      expect(last.length).to.be.at.most(52);
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
