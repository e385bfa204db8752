// A header that fits: at Firefox's 240 px sidebar and Chrome's 380 px side panel, in
// English, Japanese and Arabic (right to left), nothing scrolls sideways and every header action is
// reachable (below 480 px through the More menu, whose items press the header's own buttons). The
// other languages run in a browser of their own: Chromium takes its UI language from --lang, Firefox
// from intl.locale.requested with that language's pack installed (firefox-esr-l10n-ja and -ar, which
// .ci/run installs).
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { scenario } from './harness/scenario.js';
import { getVariantEnv, openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';

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
  // Chrome's panel also records the tab; Firefox has no tab capture, so no record button.
  const actions = ['new-chat', 'history-toggle', 'runs-toggle', 'open-jobs', 'open-settings', ...(kind === 'chromium' ? ['record'] : [])];
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

  // The panel in another UI language, in a browser of its own. Arabic is right to left: @@bidi_dir
  // sets the document's direction, so the header starts at the right edge and the More menu opens
  // towards the left, and still nothing scrolls sideways.
  const LANGUAGES = [
    { tag: 'ja', name: 'Japanese', dir: 'ltr', newChat: '新しいチャット' },
    { tag: 'ar', name: 'Arabic', dir: 'rtl', newChat: 'محادثة جديدة' },
  ];
  for (const lang of LANGUAGES) {
    it(`in ${lang.name} too (${ctx.kind === 'chromium' ? `--lang=${lang.tag}` : `intl.locale.requested=${lang.tag}`}), ${lang.dir === 'rtl' ? 'right to left' : 'left to right'}`, async function () {
      this.timeout(120_000);
      // That language's browser, shared with the other suites that need it (harness/env.js).
      const own = (await getVariantEnv(ctx.kind, /** @type {'ja' | 'ar'} */ (lang.tag))).browser;
      const panel = await own.openExtensionPage('ui/panel.html?tabId=1');
      try {
        expect(await panel.evaluate(() => browser.i18n.getUILanguage()), 'the UI language').to.match(new RegExp(`^${lang.tag}`));
        await panel.waitFor((text) => document.querySelector('#new-chat')?.textContent === text, lang.newChat, { message: `${lang.name} strings` });
        // Chrome's record button appears once the background says the browser can record.
        if (ctx.kind === 'chromium') await panel.waitFor(() => !(/** @type {HTMLElement} */ (document.querySelector('#record'))).hidden, undefined, { message: 'the record button' });
        expect(await panel.evaluate(() => ({ dir: document.dir, lang: document.documentElement.lang }))).to.deep.equal({ dir: lang.dir, lang: lang.tag });
        await checkWidths(panel, lang.tag, ctx.kind);
        if (lang.dir === 'rtl') {
          await panel.viewport(380, 700);
          await panel.waitFor(() => innerWidth === 380, undefined, { message: 'width 380' });
          const edges = await panel.evaluate(async () => {
            // The header's first item (the brand, or below 480 px the modes) hugs the right edge, and the
            // More button, the last, the left one; its menu opens inside the panel.
            const items = [...document.querySelectorAll('.bar > *')].filter((e) => e.getBoundingClientRect().width > 0);
            const first = items[0].getBoundingClientRect();
            const more = /** @type {HTMLButtonElement} */ (document.querySelector('#more'));
            more.click();
            await new Promise((r) => requestAnimationFrame(r));
            const menu = /** @type {HTMLElement} */ (document.querySelector('#more-menu')).getBoundingClientRect();
            const item = /** @type {HTMLElement} */ (document.querySelector('#more-menu [role=menuitem]'));
            const align = getComputedStyle(item).textAlign;
            more.click();
            return { firstRight: innerWidth - first.right, moreLeft: more.getBoundingClientRect().left, menuLeft: menu.left, menuRight: innerWidth - menu.right, align, itemDir: getComputedStyle(item).direction };
          });
          expect(edges.firstRight, 'the header starts at the right edge').to.be.lessThan(24);
          expect(edges.moreLeft, 'More sits at the left edge').to.be.lessThan(24);
          expect(edges.menuLeft, 'the menu inside the panel, left').to.be.at.least(0);
          expect(edges.menuRight, 'the menu inside the panel, right').to.be.at.least(0);
          expect(edges.itemDir).to.equal('rtl');
        }
        // The privacy policy shipped in the package speaks the browser's language too, every paragraph.
        const privacy = await own.openExtensionPage('ui/privacy.html');
        try {
          const messages = JSON.parse(await readFile(new URL(`../../src/chrome/_locales/${lang.tag}/messages.json`, import.meta.url), 'utf8'));
          const shown = await privacy.waitFor((title) => (document.querySelector('h1')?.textContent !== title ? null : {
            dir: document.dir, lang: document.documentElement.lang,
            texts: [...document.querySelectorAll('main [data-i18n]')].map((el) => [el.getAttribute('data-i18n') ?? '', el.textContent]),
          }), messages.privacyTitle.message, { message: `the privacy page in ${lang.name}` });
          expect(shown && { dir: shown.dir, lang: shown.lang }).to.deep.equal({ dir: lang.dir, lang: lang.tag });
          for (const [key, text] of shown?.texts ?? []) expect(text, key ?? '').to.equal(messages[key].message);
        } finally {
          await privacy.close();
        }
      } finally {
        await panel.close();
      }
    });
  }

  // A model with an 8k window gets the compact tools, and the loop says so at every run: in the
  // panel that is one quiet line per conversation, in the person's language, not a red bar each time.
  it('at 240 px in Arabic, the small-context note is one quiet, translated, right-to-left line per conversation, and skill chips are translated', async function () {
    this.timeout(120_000);
    const env = await getVariantEnv(ctx.kind, 'ar');
    await useMockProvider(env, { contextWindow: 8_192 });
    env.llm.script([{ text: 'واحد.' }, { text: 'اثنان.' }]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await panel.viewport(240, 700);
      await sendFromPanel(panel, 'لخص الصفحة', 'act');
      await waitForIdle(panel);
      await sendFromPanel(panel, 'وماذا بعد؟', 'act');
      await waitForIdle(panel);
      const notes = await panel.evaluate(() => [...document.querySelectorAll('#log .marker.notice[data-code=TOOLS_COMPACT]')].map((n) => {
        const cs = getComputedStyle(n);
        return { hidden: /** @type {HTMLElement} */ (n).hidden, text: n.textContent, dir: cs.direction, bar: cs.borderInlineStartWidth, lines: Math.round(n.getBoundingClientRect().height / parseFloat(cs.lineHeight || '16')) };
      }));
      expect(notes.length, 'one note per run reached the panel').to.equal(2);
      const shown = notes.filter((n) => !n.hidden);
      expect(shown).to.have.length(1);
      const eight = await panel.evaluate(() => (8192).toLocaleString(browser.i18n.getUILanguage()));
      expect(shown[0].text).to.equal(`نافذة سياق من ${eight} رمز: أدوات أساسية بوصف مختصر.`);
      expect(shown[0].dir).to.equal('rtl');
      expect(shown[0].bar, 'no red bar').to.equal('0px');
      expect(shown[0].lines, 'lines at 240 px').to.be.at.most(2);
      // The bundled skills' chips speak the panel's language too.
      const chip = await panel.waitFor(() => document.querySelector('#skills .chip[data-skill="accessibility-check"]')?.textContent, undefined, { message: 'the skill chips' });
      expect(chip).to.equal('فحص سريع لإمكانية الوصول');
      expect(env.llm.problems).to.deep.equal([]);
    } finally {
      await useMockProvider(env);
      await page.close();
      await panel.close();
    }
  });

  // History at Firefox's 240 px sidebar: every entry fits, its delete button in view, nothing sideways.
  it('History at 240 px: entries fit and every delete button is in view', async function () {
    this.timeout(120_000);
    const { env } = ctx;
    await useMockProvider(env);
    env.llm.script([{ text: 'A short answer about the lighthouse keepers and their long watches.' }]);
    const { page, panel } = await openPageWithPanel(env, 'article.html');
    try {
      await sendFromPanel(panel, 'Summarise the history of the lighthouse keepers of Skerryvore in detail, please', 'ask');
      await waitForIdle(panel);
      await panel.viewport(240, 700);
      await panel.waitFor(() => innerWidth === 240, undefined, { message: 'width 240' });
      await panel.click('#more');
      await panel.click('#more-menu [data-for="history-toggle"]');
      await panel.waitFor(() => document.querySelectorAll('#history .runs li[data-run]').length > 0, undefined, { message: 'the History list' });
      const fit = await panel.evaluate(() => {
        const inView = (/** @type {Element} */ el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.left >= -1 && r.right <= innerWidth + 1; };
        const wide = [document.documentElement, document.body, ...document.querySelectorAll('#history, #history *')]
          .filter((el) => el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible' && !el.closest('select'))
          .map((el) => el.id || el.className || el.tagName);
        const rows = [...document.querySelectorAll('#history .runs li[data-run]')];
        return { wide, rows: rows.length, deletes: rows.map((li) => { const d = li.querySelector('.run-delete'); return Boolean(d && inView(d)); }), entries: rows.map((li) => inView(li)), tools: [...document.querySelectorAll('#history .history-head button, #history .history-tools > *')].map(inView) };
      });
      expect(fit.wide, 'what is wider than its box').to.deep.equal([]);
      expect(fit.deletes.every(Boolean), 'delete buttons in view').to.equal(true);
      expect(fit.entries.every(Boolean), 'entries in view').to.equal(true);
      expect(fit.tools.every(Boolean), 'head and filters in view').to.equal(true);
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
