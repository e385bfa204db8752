// Answers: a finished answer has a copy button (its markdown) and so does each code block
// (the code); the buttons add no text to the answer. The clipboard is observed through
// navigator.clipboard.writeText, replaced in the panel to record what it is given.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { openPageWithPanel, sendFromPanel, transcript, useMockProvider, waitForIdle } from './harness/env.js';

const ANSWER = 'Run this:\n\n```sh\nnpm install\nnpm test\n```\n\nThen open the **panel**.';

scenario('copy buttons', (ctx) => {
  before(async () => { await useMockProvider(ctx.env); });

  it('copy the answer\'s markdown and a code block\'s code, without adding to the answer\'s text', async () => {
    const { env } = ctx;
    env.llm.script([{ text: ANSWER }]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await panel.evaluate(() => {
        const w = /** @type {any} */ (window);
        w.__copied = [];
        Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (/** @type {string} */ s) => { w.__copied.push(s); } } });
      });
      await sendFromPanel(panel, 'How do I test it?', 'ask');
      const items = await waitForIdle(panel);
      expect(items.at(-1)?.text.replace(/\s+/g, ' ').trim()).to.equal('Run this: npm install npm test Then open the panel.');
      await panel.click('.msg.assistant .copy-code');
      await panel.click('.msg.assistant .copy-answer');
      expect(await panel.evaluate(() => /** @type {any} */ (window).__copied)).to.deep.equal(['npm install\nnpm test\n', ANSWER]);
      expect(await panel.evaluate(() => document.querySelector('.msg.assistant .copy-answer')?.getAttribute('aria-label'))).to.equal('Copied');
      expect((await transcript(panel)).at(-1)?.text).to.equal(items.at(-1)?.text);
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
