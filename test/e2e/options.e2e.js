// The settings page driven like a user: add a provider, test it, pick a model from its
// list, make it active, a model per role, screenshot policy, site lists, export and import without keys.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, useMockProvider } from './harness/env.js';

scenario('settings page', (ctx) => {
  it('adds and tests a provider, picks its model, saves roles and sites, exports and imports without keys', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    const page = await env.browser.openExtensionPage('ui/options.html');
    try {
      await page.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: 'the settings page to load' });
      expect(await page.evaluate(() => document.querySelectorAll('fieldset.provider').length)).to.equal(1);

      // Add a second provider and test it: the model list comes from the provider's own /models.
      await page.click('#add-provider');
      const card = 'fieldset.provider:last-of-type';
      await page.fill(`${card} .name`, 'Second');
      await page.fill(`${card} .baseUrl`, env.llm.baseUrl);
      await page.fill(`${card} .apiKey`, 'sk-second-456');
      env.llm.requireKey('sk-second-456');
      await page.click(`${card} .test`);
      await page.waitFor((c) => document.querySelector(`${c} .test-result`)?.textContent?.startsWith('Connected'), card, { message: 'the connection test' });
      expect(await page.text(`${card} .test-result`)).to.equal('Connected: 2 models available.');
      expect(await page.evaluate((c) => [...document.querySelectorAll(`${c} .model-list option`)].map((o) => /** @type {HTMLOptionElement} */ (o).value), card)).to.deep.equal(['', 'mock-1', 'mock-2']);
      await page.evaluate((c) => {
        const list = /** @type {HTMLSelectElement} */ (document.querySelector(`${c} .model-list`));
        list.value = 'mock-2';
        list.dispatchEvent(new Event('change', { bubbles: true }));
      }, card);
      expect(await page.evaluate((c) => /** @type {HTMLInputElement} */ (document.querySelector(`${c} .model`)).value, card)).to.equal('mock-2');
      await page.click(`${card} input[name=active]`);

      // A model per role, the screenshot policy and the site lists.
      const newId = await page.evaluate((c) => /** @type {HTMLElement} */ (document.querySelector(c)).dataset.id, card);
      await page.evaluate((id) => {
        const sel = /** @type {HTMLSelectElement} */ (document.querySelector('#role-planner'));
        sel.value = /** @type {string} */ (id);
        /** @type {HTMLInputElement} */ (document.querySelector('[data-role=planner] .role-model')).value = 'mock-1';
        /** @type {HTMLSelectElement} */ (document.querySelector('#screenshotPolicy')).value = 'never';
      }, newId);
      await page.fill('#sitesAllow', 'Example.com\n\n*.example.org');
      await page.fill('#sitesConfirm', 'not a site!');
      await page.click('#save');
      await page.waitFor(() => document.querySelector('#result')?.textContent?.includes('not a site'), undefined, { message: 'the site pattern error' });
      await page.fill('#sitesConfirm', 'bank.example');
      await page.click('#save');
      await page.waitFor(() => document.querySelector('#result')?.textContent === 'Saved.', undefined, { message: 'the save' });

      const got = await ask(env.control, { type: 'settings.get' });
      if (!got.ok) throw new Error(got.message);
      const s = got.data;
      expect(s.providers.map((/** @type {any} */ p) => p.name)).to.include('Second');
      expect(s.provider).to.include({ id: newId, name: 'Second', model: 'mock-2', apiKey: '••••' });
      expect(s.roles).to.deep.equal({ planner: { providerId: newId, model: 'mock-1' } });
      expect(s.screenshotPolicy).to.equal('never');
      expect(s.sites).to.deep.equal({ allow: ['example.com', '*.example.org'], confirm: ['bank.example'] });
      // The real key was stored (the page only ever saw it redacted): the active provider authenticates.
      const models = await ask(env.control, { type: 'provider.models' });
      expect(models.ok).to.equal(true);

      // Export: a file without any key.
      await page.evaluate(() => {
        /** @type {any} */ (window).__exported = null;
        URL.createObjectURL = (blob) => { /** @type {any} */ (window).__exported = blob; return 'about:blank'; };
        HTMLAnchorElement.prototype.click = function () {};
      });
      await page.click('#export');
      const exported = String(await page.waitFor(() => /** @type {any} */ (window).__exported?.text(), undefined, { message: 'the export' }));
      expect(exported).to.not.match(/sk-(second|test)/);
      expect(exported).to.not.contain('••••');
      const doc = JSON.parse(exported);
      expect(doc.format).to.equal('tabwright-settings');
      expect(doc.settings.providers).to.have.length(2);

      // Import the file back with a changed step cap: keys already stored are kept.
      doc.settings.maxSteps = 42;
      await page.evaluate((text) => {
        const input = /** @type {HTMLInputElement} */ (document.querySelector('#import-file'));
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'tabwright-settings.json', { type: 'application/json' }));
        input.files = dt.files;
        input.dispatchEvent(new Event('change', { bubbles: true }));
      }, JSON.stringify(doc));
      await page.waitFor(() => document.querySelector('#result')?.textContent?.startsWith('Imported'), undefined, { message: 'the import' });
      const after = await ask(env.control, { type: 'settings.get' });
      expect(after.ok && after.data.maxSteps).to.equal(42);
      expect((await ask(env.control, { type: 'provider.models' })).ok).to.equal(true);

      // A file that is not an export is refused with a sentence saying what to do.
      await page.evaluate(() => {
        const input = /** @type {HTMLInputElement} */ (document.querySelector('#import-file'));
        const dt = new DataTransfer();
        dt.items.add(new File(['{"hello": 1}'], 'other.json', { type: 'application/json' }));
        input.files = dt.files;
        input.dispatchEvent(new Event('change', { bubbles: true }));
      });
      await page.waitFor(() => document.querySelector('#result')?.textContent?.includes('not a Tabwright settings export'), undefined, { message: 'the import error' });
    } finally {
      env.llm.requireKey(null);
      await ask(env.control, { type: 'settings.set', settings: { maxSteps: 100, providers: [], roles: {}, sites: { allow: [], confirm: [] }, screenshotPolicy: 'auto' } });
      await useMockProvider(env);
      await page.close();
    }
  });
});
