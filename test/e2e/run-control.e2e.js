// Run control: Stop ends a streaming answer (the time it took is logged), and clarify
// pauses the run for the user's answer in the panel, then resumes.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle, waitForHistory } from './harness/env.js';
import { lastToolResult } from '../fixtures/llm/conversation.js';

scenario('run control', (ctx) => {
  before(async () => { await useMockProvider(ctx.env); });

  it('stops a streaming answer when the user presses Stop', async () => {
    const { env } = ctx;
    const answer = 'The lighthouse stands on a reef far out at sea, and its keepers were relieved by boat every few weeks in good weather.';
    env.llm.script([{ text: answer, chunkDelayMs: 2_000 }]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await sendFromPanel(panel, 'Tell me about the lighthouse', 'ask');
      await panel.waitFor(() => document.querySelector('.msg.assistant.streaming')?.textContent, undefined, { message: 'the answer to start streaming' });
      const pressed = Date.now();
      await panel.click('#stop');
      await panel.waitFor(() => document.body.dataset.running === 'false', undefined, { interval: 20, message: 'the run to stop' });
      const took = Date.now() - pressed;
      console.log(`      [${ctx.kind}] Stop pressed mid-stream → run stopped in ${took} ms`);
      const items = await waitForIdle(panel);
      expect(items.some((i) => i.code === 'ABORTED')).to.equal(true);
      const streamed = items.find((i) => i.cls.includes('assistant'))?.text ?? '';
      expect(answer.startsWith(streamed)).to.equal(true);
      expect(streamed.length).to.be.lessThan(answer.length);
      expect(items.some((i) => i.cls.includes('final'))).to.equal(false);
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('pauses for a clarify question and resumes with the answer typed in the panel', async () => {
    const { env } = ctx;
    env.llm.script([
      { toolCalls: [{ name: 'clarify', args: { question: 'Which account should I sign in to?' } }] },
      (req) => {
        const result = lastToolResult(req.body);
        if (result !== 'The user answered: the savings account') throw new Error(`unexpected clarify result: ${result}`);
        return { text: 'Thanks. I will use the savings account.' };
      },
    ]);
    const { page, panel } = await openPageWithPanel(env, 'login.html');
    try {
      await sendFromPanel(panel, 'Sign me in', 'act');
      const question = await panel.waitFor(() => document.querySelector('.card.clarify.pending .clarify-question')?.textContent, undefined, { message: 'the question card' });
      expect(question).to.equal('Which account should I sign in to?');
      expect(env.llm.requests).to.have.length(1);
      expect(await panel.evaluate(() => document.body.dataset.running)).to.equal('true');
      await panel.fill('.card.clarify .clarify-input', 'the savings account');
      await panel.click('.card.clarify .clarify-send');
      const items = await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(items.at(-1)?.text).to.equal('Thanks. I will use the savings account.');
      expect(await panel.text('.card.clarify .clarify-answer')).to.equal('the savings account');
      // The finished conversation is in the IndexedDB history (kept across browser restarts).
      // It is saved as the run ends, so poll.
      const entry = await waitForHistory(env, (run) => run.items.some((/** @type {any} */ i) => i.kind === 'user' && i.text === 'Sign me in')
        && run.items.some((/** @type {any} */ i) => i.kind === 'assistant' && i.final));
      expect(entry.items.find((/** @type {any} */ i) => i.kind === 'clarify')).to.deep.include({ answer: 'the savings account', status: 'answered' });
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
