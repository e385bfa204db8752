// Tabwright's notes in the panel's log (ui/cards/notice-card.js): a saved recording is information
// (a quiet line, not a warning's red bar), said in the person's language with the size in their units.
import { expect } from 'chai';
import { JSDOM } from 'jsdom';
import { readFileSync } from 'node:fs';
import { noticeCard } from '../../src/chrome/ui/cards/notice-card.js';

/** The panel's t() over one locale's messages, with $1… substituted as the browser does. @param {string} loc */
function localeT(loc) {
  const messages = JSON.parse(readFileSync(new URL(`../../src/chrome/_locales/${loc}/messages.json`, import.meta.url), 'utf8'));
  return (/** @type {string} */ key, /** @type {string | string[] | undefined} */ subs) => {
    const m = messages[key];
    if (!m) return '';
    const args = Array.isArray(subs) ? subs : subs === undefined ? [] : [subs];
    return m.message.replace(/\$(\w+)\$/g, (/** @type {string} */ _, /** @type {string} */ name) => {
      const at = /\$(\d)/.exec(m.placeholders?.[name.toLowerCase()]?.content ?? '');
      return at ? args[Number(at[1]) - 1] ?? '' : '';
    });
  };
}

/** @param {string} loc @param {any} item */
function render(loc, item) {
  const dom = new JSDOM('<!doctype html><body></body>');
  const saved = { document: globalThis.document, browser: /** @type {any} */ (globalThis).browser };
  globalThis.document = dom.window.document;
  /** @type {any} */ (globalThis).browser = { i18n: { getUILanguage: () => loc.replace('_', '-') } };
  try {
    const n = noticeCard({ kind: 'notice', id: 'n1', ...item }, { t: localeT(loc), request: async () => ({ ok: true, data: null }), tabId: () => 1 });
    return { text: n.textContent, info: n.classList.contains('info'), title: n.title };
  } finally {
    globalThis.document = saved.document;
    /** @type {any} */ (globalThis).browser = saved.browser;
  }
}

const english = 'Recording saved to your downloads as Tabwright/127.0.0.1 x.webm (315 KB, 2 s).';

describe('notice cards', () => {
  it('a saved recording is a quiet line with its size in kilobytes, not "0.0 MB"', () => {
    const n = render('en', { code: 'RECORDING_SAVED', message: english, args: ['Tabwright/127.0.0.1 x.webm', String(315 * 1024), '2', 'stopped'] });
    expect(n).to.deep.equal({ text: 'Recording saved to your downloads as Tabwright/127.0.0.1 x.webm (315 kB, 2 s).', info: true, title: english });
  });

  it('in German, with the reason it stopped by itself', () => {
    const n = render('de', { code: 'RECORDING_SAVED', message: english, args: ['Tabwright/a.webm', String(3 * 1_048_576 + 300_000), '300', 'max_duration'] });
    expect(n.text).to.equal('Aufnahme in Ihren Downloads gespeichert als Tabwright/a.webm (3,3 MB, 300 s). Sie endete von selbst (Längenbegrenzung).');
  });

  it('a notice without its values (stored before they were sent) keeps the English message', () => {
    expect(render('de', { code: 'RECORDING_SAVED', message: english }).text).to.equal(english);
  });
});
