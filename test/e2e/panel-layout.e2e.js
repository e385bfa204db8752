// Issue 19, a header that fits: at Firefox's 240 px sidebar and Chrome's 380 px side panel, in
// English and Japanese, nothing scrolls sideways and every header action is reachable (below 480 px
// through the More menu, whose items press the header's own buttons). Japanese is checked in
// Chromium: Firefox takes its UI language from an installed language pack, which the test machine
// lacks (the same reason as in screenshots.e2e.js).
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { openPageWithPanel } from './harness/env.js';
import { launchChromium } from './harness/browsers.js';

/** @import { Driver } from './harness/driver.js' */

/** What overflows and what the user can reach, at the panel's current width. @param {Driver} panel */
function layout(panel) {
  return /** @type {Promise<{ width: number, overflow: string[], header: string[], menu: string[], lang: string }>} */ (panel.evaluate(async () => {
    const fits = (/** @type {Element} */ el) => el.scrollWidth <= el.clientWidth + 1;
    const overflow = [document.documentElement, document.body, ...document.querySelectorAll('header, header *, #composer, #composer *')]
      .filter((el) => el.clientWidth > 1 && !el.closest('.sr-only') && !fits(el) && getComputedStyle(el).overflowX !== 'auto').map((el) => el.id || el.className || el.tagName);
    const inView = (/** @type {Element} */ el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.left >= -1 && r.right <= innerWidth + 1; };
    const header = [...document.querySelectorAll('header button, header label')].filter(inView).map((b) => b.id || b.textContent?.trim() || '');
    const more = /** @type {HTMLButtonElement} */ (document.querySelector('#more'));
    /** @type {string[]} */
    let menu = [];
    if (inView(more)) {
      more.click();
      await new Promise((r) => requestAnimationFrame(r));
      menu = [...document.querySelectorAll('#more-menu [role=menuitem]')].filter(inView).map((b) => /** @type {HTMLElement} */ (b).dataset.for ?? '');
      more.click();
    }
    return { width: innerWidth, overflow, header, menu, lang: browser.i18n.getUILanguage() };
  }));
}

/** @param {Driver} panel @param {string} who @param {'chromium' | 'firefox'} kind */
async function checkWidths(panel, who, kind) {
  // Chrome's panel also records the tab (issue 20); Firefox has no tab capture, so no record button.
  const actions = ['new-chat', 'history-toggle', 'open-jobs', 'open-settings', ...(kind === 'chromium' ? ['record'] : [])];
  // The record button shows once the background said the browser can record.
  if (kind === 'chromium') await panel.waitFor(() => !(/** @type {HTMLElement} */ (document.querySelector('#record'))).hidden, undefined, { message: 'the record button' });
  for (const width of [240, 380, 600]) {
    await panel.viewport(width, 700);
    await panel.waitFor((w) => innerWidth === w, width, { message: `width ${width}` });
    const l = await layout(panel);
    expect(l.overflow, `${who} at ${width}px: what scrolls sideways`).to.deep.equal([]);
    const reachable = new Set([...l.header, ...l.menu]);
    for (const id of actions) expect(reachable.has(id), `${who} at ${width}px: ${id}`).to.equal(true);
    // Narrow: through More; wide: in the header itself.
    if (width < 480) expect(l.menu).to.have.length(actions.length);
    else expect(l.menu).to.deep.equal([]);
  }
}

scenario('the panel header fits', (ctx) => {
  it('at 240, 380 and 600 px in English: nothing scrolls sideways, every action reachable, More opens History', async () => {
    const { env } = ctx;
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await checkWidths(panel, 'en', ctx.kind);
      await panel.viewport(240, 700);
      await panel.click('#more');
      await panel.click('#more-menu [data-for="history-toggle"]');
      await panel.waitFor(() => document.body.dataset.view === 'history' && !(/** @type {HTMLElement} */ (document.querySelector('#history'))).hidden, undefined, { message: 'History from the More menu' });
      expect(await panel.evaluate(() => (/** @type {HTMLElement} */ (document.querySelector('#more-menu'))).hidden)).to.equal(true);
    } finally {
      await page.close();
      await panel.close();
    }
  });

  if (ctx.kind === 'chromium') {
    it('in Japanese too (--lang=ja)', async function () {
      this.timeout(120_000);
      const own = await launchChromium({ locale: 'ja-JP', args: ['--lang=ja'], env: { ...process.env, LANGUAGE: 'ja', LANG: 'ja_JP.UTF-8' } });
      try {
        const panel = await own.openExtensionPage('ui/panel.html?tabId=1');
        expect(await panel.evaluate(() => browser.i18n.getUILanguage())).to.match(/^ja/);
        expect(await panel.text('#new-chat')).to.equal('新しいチャット');
        await checkWidths(panel, 'ja', 'chromium');
      } finally {
        await own.close();
      }
    });
  }
});
