// First run. Before the user picks a model the panel probes only this machine (Ollama,
// LM Studio, the browser's built-in model), sends nothing to any model, and guides to an API key.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, useMockProvider } from './harness/env.js';
import { localModels } from './harness/local-models.js';

/**
 * A stand-in for Ollama at its real address, localhost:11434, as the test browsers see it: the
 * harness routes that address to a port of its own (harness/local-models.js), so an Ollama
 * running on this machine is neither probed nor in the way. Records every request.
 */
async function fakeOllama() {
  const local = await localModels();
  /** @type {string[]} */
  const seen = [];
  local.serve('ollama', (req, res, path) => {
    seen.push(`${req.method} ${path}`);
    res.writeHead(path === '/api/tags' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(path === '/api/tags' ? { models: [{ name: 'llama3.2:3b' }, { name: 'qwen2.5:7b' }] } : {}));
  });
  return { seen, close: async () => { local.off('ollama'); } };
}

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
      // No local server answers (the harness's stand-ins are off, whatever runs on this machine): the card says so and points to the API key.
      expect(card?.detected).to.equal('none');
      expect(card?.status).to.contain('No local model server is running');
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

  it('offers a local Ollama with its models and uses the one the user picks', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    await ask(env.control, { type: 'settings.set', settings: { onboarded: false } });
    env.llm.script([]);
    const ollama = await fakeOllama();
    /** @type {Awaited<ReturnType<typeof openPageWithPanel>> | null} */
    let opened = null;
    try {
      opened = await openPageWithPanel(env, 'article.html');
      const { panel } = opened;
      const row = await panel.waitFor(() => {
        const li = /** @type {HTMLElement | null} */ (document.querySelector('#welcome li[data-candidate=ollama][data-found=true]'));
        return li ? { text: li.textContent, models: [...li.querySelectorAll('option')].map((o) => o.textContent) } : null;
      }, undefined, { message: 'Ollama to be offered' });
      expect(row?.models).to.deep.equal(['llama3.2:3b', 'qwen2.5:7b']);
      // Before the choice the footer names no model (the stored default, llama3.1, is not installed here).
      const footer = () => panel.evaluate(() => { const sel = /** @type {HTMLSelectElement} */ (document.querySelector('#model-switch')); return { text: sel.selectedOptions[0]?.textContent, disabled: sel.disabled }; });
      expect(await footer()).to.deep.equal({ text: 'No model chosen yet', disabled: true });
      expect(await panel.text('#welcome .detect-status')).to.equal('Found on this computer:');
      // Before the choice: one probe of the model list, nothing else, and nothing to the hosted model.
      expect(ollama.seen.every((r) => r === 'GET /api/tags')).to.equal(true);
      expect(env.llm.requests).to.have.length(0);

      await panel.evaluate(() => {
        const sel = /** @type {HTMLSelectElement} */ (document.querySelector('#welcome li[data-candidate=ollama] select'));
        sel.value = 'qwen2.5:7b';
      });
      // The mode new conversations start in is chosen here: Ask is suggested (checked); the person picks Act.
      expect(await panel.evaluate(() => /** @type {HTMLInputElement | null} */ (document.querySelector('#welcome .fr-mode input[value=ask]'))?.checked)).to.equal(true);
      await panel.evaluate(() => /** @type {HTMLInputElement} */ (document.querySelector('#welcome .fr-mode input[value=act]')).click());
      await panel.click('#welcome li[data-candidate=ollama] button.use');
      await panel.waitFor(() => /** @type {HTMLElement} */ (document.querySelector('#welcome')).hidden, undefined, { message: 'the card to go after the choice' });
      const s = await ask(env.control, { type: 'settings.get' });
      if (!s.ok) throw new Error(s.message);
      // Saved as Ollama (not as an OpenAI-compatible server labelled "OpenAI"), with the model picked.
      expect(s.data.provider).to.include({ kind: 'ollama', baseUrl: 'http://localhost:11434', model: 'qwen2.5:7b', apiKey: '' });
      expect(await footer()).to.include({ text: 'Ollama (local) · qwen2.5:7b' });
      expect(s.data.onboarded).to.equal(true);
      expect(s.data.defaultMode).to.equal('act');
      expect(await panel.evaluate(() => /** @type {HTMLInputElement} */ (document.querySelector('input[name=mode][value=act]')).checked)).to.equal(true);
      expect(await panel.evaluate(() => document.activeElement?.id)).to.equal('prompt');
    } finally {
      await ollama.close();
      await useMockProvider(env);
      await opened?.page.close();
      await opened?.panel.close();
    }
  });
});
