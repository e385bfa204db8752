// Every UI string comes from _locales: a key used in the UI must exist in every locale, and all
// locales must hold the same keys with the same placeholders.
import { expect } from 'chai';
import { readdir, readFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUN_END_CARDS } from '../../src/chrome/agent/error-codes.js';

const tree = join(dirname(fileURLToPath(import.meta.url)), '../../src/chrome');
const REQUIRED_LOCALES = ['ar', 'de', 'en', 'es', 'fr', 'it', 'ja', 'ko', 'pt_BR', 'ru', 'zh_CN'];
/**
 * Keys built from a catalog rather than written out: the prefix of the template the UI passes to
 * t(), and the keys the catalog makes of it (the error card's headlines, from RUN_END_CARDS).
 */
const CATALOG_KEYS = { errHead_: Object.keys(RUN_END_CARDS).map((code) => `errHead_${code}`) };

/** @param {string} dir @returns {Promise<string[]>} */
async function filesUnder(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...await filesUnder(p)); else out.push(p);
  }
  return out;
}

/** @returns {Promise<Record<string, Record<string, { message: string, placeholders?: Record<string, unknown> }>>>} */
async function locales() {
  /** @type {Record<string, any>} */
  const out = {};
  for (const loc of await readdir(join(tree, '_locales'))) {
    out[loc] = JSON.parse(await readFile(join(tree, '_locales', loc, 'messages.json'), 'utf8'));
  }
  return out;
}

/**
 * Keys the UI asks for: data-i18n* attributes in HTML, t('…') and ctx.t('…') (cards) calls in ui/**, getMessage('…') in
 * content scripts and the background, and __MSG_…__ in the manifests.
 * A t( or getMessage( whose first argument is not a string literal is reported as a problem:
 * a computed key cannot be checked here.
 */
async function usedKeys() {
  /** @type {Map<string, string>} key → first file using it */
  const keys = new Map();
  /** @type {string[]} */
  const dynamic = [];
  const files = [
    ...await filesUnder(join(tree, 'ui')), ...await filesUnder(join(tree, 'content')), ...await filesUnder(join(tree, 'service')),
    join(tree, 'manifest.json'), join(tree, '../firefox/manifest.json'),
  ];
  for (const file of files) {
    if (!/\.(html|js|json)$/.test(file)) continue;
    const text = await readFile(file, 'utf8');
    const add = (/** @type {string} */ k) => { if (!keys.has(k)) keys.set(k, file.slice(tree.length - 10)); };
    for (const m of text.matchAll(/data-i18n(?:-[a-z-]+)?="([^"]*)"/g)) add(m[1]);
    for (const m of text.matchAll(/__MSG_(\w+)__/g)) add(m[1]);
    if (file.endsWith('.js')) {
      for (const m of text.matchAll(/(?<![\w.])(?:ctx\.)?(?:t|getMessage)\(\s*([^\s)])/g)) {
        const rest = text.slice(/** @type {number} */ (m.index) + m[0].length - 1);
        const lit = /^'([^']+)'|^"([^"]+)"/.exec(rest);
        const fromCatalog = Object.entries(CATALOG_KEYS).find(([prefix]) => rest.startsWith(`\`${prefix}\${`));
        if (lit) add(lit[1] ?? lit[2]);
        else if (fromCatalog) fromCatalog[1].forEach(add);
        // i18n.js itself passes attribute values through t(); those are checked as data-i18n above.
        else if (!file.endsWith(join('ui', 'i18n.js'))) dynamic.push(`${file.slice(tree.length - 10)}: ${rest.slice(0, 40)}`);
      }
    }
  }
  return { keys, dynamic };
}

describe('i18n', () => {
  it('has English, German, French, Spanish, Japanese, Simplified Chinese, Brazilian Portuguese, Italian, Korean, Russian and Arabic', async () => {
    expect(Object.keys(await locales())).to.include.members(REQUIRED_LOCALES);
  });

  it('every locale has the same keys and the same placeholders as English', async () => {
    const all = await locales();
    const en = all.en;
    for (const [loc, messages] of Object.entries(all)) {
      expect(Object.keys(messages).sort(), `${loc} keys`).to.deep.equal(Object.keys(en).sort());
      for (const [key, m] of Object.entries(en)) {
        expect(Object.keys(messages[key].placeholders ?? {}), `${loc}.${key} placeholders`).to.deep.equal(Object.keys(m.placeholders ?? {}));
        for (const name of Object.keys(m.placeholders ?? {})) {
          expect(messages[key].message.toUpperCase(), `${loc}.${key} uses $${name.toUpperCase()}$`).to.contain(`$${name.toUpperCase()}$`);
        }
        expect(messages[key].message.trim(), `${loc}.${key} is empty`).to.not.equal('');
      }
    }
  });

  it('every string the UI uses is in every locale', async () => {
    const all = await locales();
    const { keys } = await usedKeys();
    expect(keys.size).to.be.greaterThan(50);
    /** @type {string[]} */
    const missing = [];
    for (const [key, file] of keys) {
      if (key.startsWith('@@')) continue; // predefined by the browser (@@bidi_dir, @@ui_locale)
      for (const [loc, messages] of Object.entries(all)) if (!(key in messages)) missing.push(`${loc}: ${key} (used in ${file})`);
    }
    expect(missing).to.deep.equal([]);
  });

  it('every t() and getMessage() call names its key literally, so this test can check it', async () => {
    const { dynamic } = await usedKeys();
    expect(dynamic).to.deep.equal([]);
  });
});

describe('the privacy policy page', () => {
  it('has no text of its own outside a translated element, and every locale translates each paragraph', async () => {
    const { JSDOM } = await import('jsdom');
    const doc = new JSDOM(await readFile(join(tree, 'ui/privacy.html'), 'utf8')).window.document;
    /** @type {string[]} */
    const loose = [];
    const walker = doc.createTreeWalker(doc.body, 4 /* NodeFilter.SHOW_TEXT */);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.textContent?.trim() && !n.parentElement?.closest('[data-i18n]')) loose.push(n.textContent.trim().slice(0, 40));
    }
    expect(loose, 'text no locale translates').to.deep.equal([]);
    const keys = [...doc.querySelectorAll('[data-i18n]')].map((el) => /** @type {string} */ (el.getAttribute('data-i18n')));
    expect(keys.length).to.be.greaterThan(10);
    const all = await locales();
    for (const [loc, messages] of Object.entries(all)) {
      if (loc === 'en') continue;
      const same = keys.filter((k) => messages[k]?.message === all.en[k].message);
      expect(same, `${loc}: still English`).to.deep.equal([]);
    }
  });
});
