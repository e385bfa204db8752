// Retry on the last answer asks the last request again, as typed and in its mode, from the keyboard;
// only the newest answer of a finished run carries it.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';

scenario('retry the last answer', (ctx) => {
  it('reruns the last request from a keyboard press and answers again', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    env.llm.script([{ text: 'The first answer.' }, { text: 'The second answer.' }]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await sendFromPanel(panel, 'Who kept the light?', 'ask');
      await waitForIdle(panel);
      const retry = await panel.waitFor(() => {
        const b = /** @type {HTMLButtonElement | null} */ (document.querySelector('#log > .msg.assistant.final:last-child button.retry-answer'));
        return b ? { label: b.getAttribute('aria-label'), focusable: b.tabIndex >= 0 && !b.disabled, answer: b.parentElement?.textContent } : null;
      }, undefined, { message: 'Retry on the answer' });
      expect(retry).to.deep.equal({ label: 'Retry: ask this again', focusable: true, answer: 'The first answer.' });
      const before = env.llm.requests.length;

      await panel.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('button.retry-answer')).focus());
      await panel.press('Enter');
      await panel.waitFor(() => document.querySelector('#log > .msg.assistant.final:last-child')?.textContent === 'The second answer.', undefined, { message: 'the second answer' });
      await waitForIdle(panel);

      // One more request, whose last user message is the same question; the mode stayed Ask.
      expect(env.llm.requests.length).to.equal(before + 1);
      const body = /** @type {any} */ (env.llm.requests[before].body);
      const users = body.messages.filter((/** @type {any} */ m) => m.role === 'user').map((/** @type {any} */ m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
      expect(users.filter((/** @type {string} */ u) => u.includes('Who kept the light?'))).to.have.length(2);
      const shown = await panel.evaluate(() => ({
        users: [...document.querySelectorAll('#log > .msg.user')].map((u) => [u.textContent, /** @type {HTMLElement} */ (u).dataset.mode]),
        retries: [...document.querySelectorAll('#log button.retry-answer')].map((b) => b.parentElement?.textContent),
      }));
      expect(shown.users).to.deep.equal([['Who kept the light?', 'ask'], ['Who kept the light?', 'ask']]);
      expect(shown.retries).to.deep.equal(['The second answer.']);
      expect(env.llm.problems).to.deep.equal([]);
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
