// Settings validated by one schema: an import with wrong types is refused with each field
// named and nothing changed; an oversized file is refused before it is read; a bad site on the form
// is refused and the form keeps what the user typed; unknown fields are left out and said so.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, useMockProvider } from './harness/env.js';

/** @param {import('./harness/driver.js').Driver} page @param {string} text @param {string} [name] */
function chooseFile(page, text, name = 'tabwright-settings.json') {
  return page.evaluate(([body, file]) => {
    const input = /** @type {HTMLInputElement} */ (document.querySelector('#import-file'));
    const dt = new DataTransfer();
    dt.items.add(new File([body], file, { type: 'application/json' }));
    input.files = dt.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, [text, name]);
}

/** @param {import('./harness/driver.js').Driver} page @param {string} before the message shown before */
async function nextMessage(page, before) {
  return /** @type {{ text: string, failed: boolean }} */ (await page.waitFor((b) => {
    const el = document.querySelector('#result');
    const text = el?.textContent ?? '';
    return text && text !== b ? { text, failed: el?.classList.contains('failed') ?? false } : null;
  }, before, { message: 'a message on the settings page' }));
}

scenario('settings validation', (ctx) => {
  it('refuses an import with wrong types, naming each field, and changes nothing', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    const page = await env.browser.openExtensionPage('ui/options.html');
    try {
      await page.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: 'the settings page to load' });
      const before = await ask(env.control, { type: 'settings.get' });
      const bad = { format: 'tabwright-settings', version: 1, settings: {
        provider: { kind: 7, baseUrl: env.llm.baseUrl, model: 'mock-1', timeoutMs: 'soon', maxRetries: -2 },
        maxSteps: 25,
      } };
      await chooseFile(page, JSON.stringify(bad));
      const shown = await nextMessage(page, '');
      expect(shown.failed).to.equal(true);
      for (const field of ['provider.kind', 'provider.timeoutMs', 'provider.maxRetries']) expect(shown.text).to.include(field);
      expect(shown.text).to.match(/nothing was changed/);
      expect(await ask(env.control, { type: 'settings.get' })).to.deep.equal(before);

      // 1.5 MB: refused before it is read.
      await chooseFile(page, JSON.stringify({ format: 'tabwright-settings', version: 1, settings: { pad: 'x'.repeat(1_500_000) } }), 'big.json');
      const big = await nextMessage(page, shown.text);
      expect(big.failed).to.equal(true);
      expect(big.text).to.match(/1\.5 MB.*at most 1 MB/);
      expect(await ask(env.control, { type: 'settings.get' })).to.deep.equal(before);

      // A good file with a field Tabwright does not know: imported, the field left out and named.
      await chooseFile(page, JSON.stringify({ format: 'tabwright-settings', version: 1, settings: { maxSteps: 33, theme: 'dark' } }));
      const good = await nextMessage(page, big.text);
      expect(good.failed).to.equal(false);
      expect(good.text).to.match(/^Imported\..*Left out, unknown to Tabwright: theme\./);
      const after = await ask(env.control, { type: 'settings.get' });
      expect(after.ok && after.data.maxSteps).to.equal(33);
      expect(after.ok && after.data).to.not.have.property('theme');
    } finally {
      await ask(env.control, { type: 'settings.set', settings: { maxSteps: 100 } });
      await page.close();
    }
  });

  it('refuses a bad value from the form or a message, keeps what the user typed, stores nothing', async () => {
    const { env } = ctx;
    const page = await env.browser.openExtensionPage('ui/options.html');
    try {
      await page.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: 'the settings page to load' });
      const before = await ask(env.control, { type: 'settings.get' });
      await page.fill('#sitesAllow', 'example.com\nnot a site!');
      await page.click('#save');
      const shown = await nextMessage(page, '');
      expect(shown.failed).to.equal(true);
      expect(shown.text).to.include('"not a site!"');
      expect(await page.evaluate(() => /** @type {HTMLTextAreaElement} */ (document.querySelector('#sitesAllow')).value)).to.equal('example.com\nnot a site!');
      expect(await ask(env.control, { type: 'settings.get' })).to.deep.equal(before);

      // The same schema answers any extension page that sends settings.set.
      const reply = await ask(env.control, { type: 'settings.set', settings: /** @type {any} */ ({ maxSteps: 'soon', defaultMode: 'yolo' }) });
      expect(reply).to.deep.include({ ok: false, code: 'INVALID_SETTINGS' });
      expect(reply.message).to.include('maxSteps').and.to.include('defaultMode');
      expect(await ask(env.control, { type: 'settings.get' })).to.deep.equal(before);
    } finally {
      await page.close();
    }
  });
});
