// Issue #7: first run. Before the user picks a model the panel probes only this machine (Ollama,
// LM Studio, the browser's built-in model), sends nothing to any model, and guides to an API key.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, useMockProvider } from './harness/env.js';

scenario('first run', (ctx) => {
  it('looks for local models, sends nothing, guides to an API key, and goes once a provider is chosen', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    const set = await ask(env.control, { type: 'settings.set', settings: { onboarded: false } });
    expect(set.ok).to.equal(true);
    env.llm.script([]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      const card = await panel.waitFor(() => {
        const w = /** @type {HTMLElement} */ (document.querySelector('#welcome'));
        return !w.hidden && w.dataset.detected ? {
          detected: w.dataset.detected,
          rows: [...w.querySelectorAll('.candidates li')].map((li) => `${/** @type {HTMLElement} */ (li).dataset.candidate}:${/** @type {HTMLElement} */ (li).dataset.found}`),
          status: w.querySelector('.detect-status')?.textContent,
          title: w.querySelector('h2')?.textContent,
        } : null;
      }, undefined, { message: 'the first-run card with its detection result' });
      expect(card?.title).to.equal('Welcome to Tabwright');
      expect(card?.rows.map((r) => r.split(':')[0])).to.deep.equal(['ollama', 'lmstudio', 'builtin']);
      // No local server runs on the test machine: the card says so and points to the API key.
      if (card?.detected === 'none') expect(card.status).to.contain('No local model server is running');
      expect(env.llm.requests).to.have.length(0);

      // "Set up an API key" brings up the settings page (an open one is focused rather than duplicated).
      const active = () => browser.tabs.query({ active: true }).then((t) => t.some((x) => x.url?.endsWith('/ui/options.html')));
      expect(await env.control.evaluate(active)).to.equal(false);
      await panel.click('#welcome .use-key');
      await env.control.waitFor(active, undefined, { message: 'the settings page to come to the front' });

      // Choosing a provider (here through the router, as the settings page does) ends the first run.
      await useMockProvider(env);
      await panel.waitFor(() => /** @type {HTMLElement} */ (document.querySelector('#welcome')).hidden, undefined, { message: 'the card to go' });
      const s = await ask(env.control, { type: 'settings.get' });
      expect(s.ok && s.data.onboarded).to.equal(true);
    } finally {
      await useMockProvider(env);
      await page.close();
      await panel.close();
    }
  });
});
