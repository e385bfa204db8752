// Answers: the composer says which model answers and switches between the configured
// providers; the next message goes to the one chosen, with its own key.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';

scenario('the model that answers', (ctx) => {
  // Leave one provider, as the other scenarios expect.
  after(async () => {
    await ask(ctx.env.control, { type: 'settings.set', settings: { providers: [] } });
    await useMockProvider(ctx.env);
  });

  it('is shown in the composer, and a switch sends the next message to the other provider with its key', async () => {
    const { env } = ctx;
    /** @type {import('../../src/chrome/types/messages').ProviderSettings} */
    const one = { id: 'one', name: 'Main', kind: 'openai', baseUrl: env.llm.baseUrl, model: 'mock-1', apiKey: 'sk-one-111' };
    /** @type {import('../../src/chrome/types/messages').ProviderSettings} */
    const two = { id: 'two', name: 'Second', kind: 'openai', baseUrl: env.llm.baseUrl, model: 'mock-2', apiKey: 'sk-two-222' };
    expect((await ask(env.control, { type: 'settings.set', settings: { provider: one, providers: [one, two] } })).ok).to.equal(true);
    env.llm.script([{ text: 'From one.' }, { text: 'From two.' }]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await panel.waitFor(() => (/** @type {HTMLSelectElement} */ (document.querySelector('#model-switch'))).options.length === 2, undefined, { message: 'the model switch' });
      expect(await panel.evaluate(() => (/** @type {HTMLSelectElement} */ (document.querySelector('#model-switch'))).selectedOptions[0].textContent)).to.equal('Main · mock-1');
      await sendFromPanel(panel, 'Hello', 'ask');
      await waitForIdle(panel);
      await panel.evaluate(() => {
        const s = /** @type {HTMLSelectElement} */ (document.querySelector('#model-switch'));
        s.value = 'two';
        s.dispatchEvent(new Event('change', { bubbles: true }));
      });
      await env.control.waitFor(async () => (await browser.runtime.sendMessage({ type: 'settings.get' })).data.provider.id === 'two', undefined, { message: 'the switch to be saved' });
      await sendFromPanel(panel, 'Hello again', 'ask');
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(env.llm.requests.map((r) => [r.body.model, r.headers.authorization])).to.deep.equal([['mock-1', 'Bearer sk-one-111'], ['mock-2', 'Bearer sk-two-222']]);
      expect(await panel.evaluate(() => (/** @type {HTMLSelectElement} */ (document.querySelector('#model-switch'))).selectedOptions[0].textContent)).to.equal('Second · mock-2');
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
