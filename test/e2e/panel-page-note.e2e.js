// A panel on a page Tabwright cannot read (here the welcome tab npm start opens) says so in the answer
// area, names a tab it can read, and takes the person there; on a web page it says nothing.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { openPageWithPanel, tabIdOf } from './harness/env.js';

scenario('panel on a page it cannot read', (ctx) => {
  it('says the page cannot be read and which tab to use, and goes there', async () => {
    const { env } = ctx;
    const { page, panel: onWeb, url } = await openPageWithPanel(env, 'article.html');
    const welcome = await env.browser.openExtensionPage('ui/welcome.html');
    const welcomeId = await tabIdOf(env, await welcome.evaluate(() => location.href));
    const panel = await env.browser.openExtensionPage(`ui/panel.html?tabId=${welcomeId}`);
    try {
      // On the web page the note stays hidden.
      await onWeb.waitFor(() => document.body.dataset.tabId, undefined, { message: 'the first panel attached' });
      expect(await onWeb.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#page-note')).hidden)).to.equal(true);

      const note = await panel.waitFor(() => {
        const el = /** @type {HTMLElement} */ (document.querySelector('#page-note'));
        const go = /** @type {HTMLElement} */ (el.querySelector('button'));
        return el.hidden ? null : { text: el.textContent, go: go.hidden ? '' : go.textContent, inLog: Boolean(el.closest('main')), role: el.getAttribute('role'), shown: el.getBoundingClientRect().height > 0 };
      }, undefined, { message: 'the note that this page cannot be read' });
      expect(note?.text).to.contain('Tabwright cannot read this page');
      expect(note?.text).to.contain('The Lighthouse Keepers of Skerryvore');
      expect(note).to.include({ go: 'Go to that tab', inLog: true, role: 'status', shown: true });

      await panel.click('#page-note button');
      const active = await env.control.waitFor((u) => browser.tabs.query({ active: true }).then((tabs) => tabs.find((x) => x.url === u)?.url), url, { message: 'the web page tab to come to the front' });
      expect(active).to.equal(url);
    } finally {
      await panel.close();
      await welcome.close();
      await onWeb.close();
      await page.close();
    }
  });
});
