// Errors for people: a failed run says what happened in the user's words with a button
// that does the next thing (Retry goes on from the conversation as it stands), the code behind
// Details; the user's own Stop is a quiet line with Continue.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { openPageWithPanel, sendFromPanel, transcript, useMockProvider } from './harness/env.js';

scenario('errors for people', (ctx) => {
  before(async () => { await useMockProvider(ctx.env); });

  it('a cut stream offers Retry, which answers the same message; Stop offers Continue', async () => {
    const { env } = ctx;
    /** @type {(v?: unknown) => void} */
    let cut = () => {};
    const cutWhen = new Promise((resolve) => { cut = resolve; });
    env.llm.script([
      // Cut once the panel shows the first words: a cut before anything arrived is retried unseen.
      { text: 'This answer will be cut off half way through, mid sentence.', textChunks: 12, cutAfterChunks: 5, cutWhen },
      (req) => {
        const users = req.body.messages.filter((/** @type {any} */ m) => m.role === 'user');
        if (users.length !== 1 || users[0].content !== 'What is on this page?') throw new Error(`retry sent ${JSON.stringify(users)}`);
        return { text: 'An article about a lighthouse.' };
      },
      { text: 'A long answer that arrives slowly so that it can be stopped before it ends, word by word.', textChunks: 30, chunkDelayMs: 300 },
      { text: 'Going on after the stop.' },
    ]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await sendFromPanel(panel, 'What is on this page?', 'ask');
      await panel.waitFor(() => document.querySelector('.msg.assistant.streaming')?.textContent, undefined, { message: 'the first words' });
      cut();
      await panel.waitFor(() => document.body.dataset.running === 'false' && Boolean(document.querySelector('.msg.error')), undefined, { message: 'the error' });
      const card = /** @type {{ head: string, buttons: string[], code: string }} */ (await panel.evaluate(() => {
        const c = /** @type {HTMLElement} */ (document.querySelector('.msg.error'));
        return { head: c.querySelector('.err-head')?.textContent ?? '', buttons: [...c.querySelectorAll('.err-actions button')].map((b) => b.textContent ?? ''), code: c.querySelector('.err-code code')?.textContent ?? '' };
      }));
      expect(card).to.deep.equal({ head: 'The connection broke while the model was answering. Retry.', buttons: ['Retry'], code: 'STREAM_CUT' });
      await panel.click('.msg.error .err-retry');
      await panel.waitFor(() => [...document.querySelectorAll('.msg.assistant')].some((m) => m.textContent === 'An article about a lighthouse.'), undefined, { message: 'the retried answer' });

      await sendFromPanel(panel, 'Tell me more', 'ask');
      await panel.waitFor(() => document.querySelector('.msg.assistant.streaming')?.textContent, undefined, { message: 'streaming' });
      await panel.click('#stop');
      await panel.waitFor(() => document.body.dataset.running === 'false' && Boolean(document.querySelector('.marker.stopped')), undefined, { message: 'the stopped line' });
      expect(await panel.text('.marker.stopped')).to.include('Stopped. The conversation is kept.');
      await panel.click('.marker.stopped .err-retry');
      await panel.waitFor(() => [...document.querySelectorAll('.msg.assistant')].some((m) => m.textContent === 'Going on after the stop.'), undefined, { message: 'the run to go on' });
      expect(env.llm.problems).to.deep.equal([]);
      expect((await transcript(panel)).filter((i) => i.cls.includes('error')).map((i) => i.code)).to.deep.equal(['STREAM_CUT']);
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
