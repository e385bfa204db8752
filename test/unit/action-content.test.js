// The content side of the acting tools on jsdom (content/input.js, keys.js, editing.js, widgets.js): option
// choice (several options, exact over partial, ambiguous parts), the editing keys' default actions for
// synthetic key events, and finding targets through deeply nested shadow roots. The browsers' own
// behaviour is covered end to end in test/e2e/actions-real.e2e.js.
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadContent } from './content-dom.js';
import { moduleOrder } from '../../scripts/content-join.mjs';

const FILES = ['dom.js', 'roles.js', 'accname.js', 'actionable.js', 'refs.js', 'listeners.js', 'frames.js', 'secret-patterns.js', 'secrets.js', 'outline.js',
  'capabilities.js', 'page-text.js', 'input.js', 'pointer.js', 'keys.js', 'editing.js', 'drag.js', 'scroll.js', 'widgets.js', 'page-events.js'];

/** What jsdom lacks and the scripts use: innerText (as textContent) and MessageChannel. @param {any} window */
function shim(window) {
  Object.defineProperty(window.HTMLElement.prototype, 'innerText', { get() { return this.textContent; }, configurable: true });
  window.MessageChannel = class {
    constructor() {
      /** @type {{ onmessage: null | (() => void) }} */
      this.port1 = { onmessage: null };
      this.port2 = { postMessage: () => setTimeout(() => this.port1.onmessage?.()) };
    }
  };
}

const TEAM = `<select id="team" multiple>
  <option value="john">John</option><option value="joanna">Joanna</option><option value="ann">Ann</option>
  <option value="anna">Anna</option><option value="mary" selected>Mary</option><option value="zed" disabled>Zed</option></select>
  <select id="one"><option value="no">Norway (+47)</option><option value="ni">Nicaragua</option></select>`;

describe('select_option in the page (content/widgets.js)', () => {
  /** @param {string} html */
  function page(html) {
    const { document, tw } = loadContent(html, FILES, shim);
    const events = /** @type {string[]} */ ([]);
    for (const s of document.querySelectorAll('select')) for (const t of ['input', 'change']) s.addEventListener(t, () => events.push(`${s.id}:${t}`));
    const selected = (/** @type {string} */ id) => [.../** @type {HTMLSelectElement} */ (document.getElementById(id)).selectedOptions].map((o) => o.value);
    return { document, tw, events, selected };
  }

  it('replaces the selection of a <select multiple> with one input and one change event', () => {
    const p = page(TEAM);
    const r = p.tw.widgets.selectNative(p.document.getElementById('team'), { labels: ['John', 'Ann'] });
    expect(r.ok).to.equal(true);
    expect(p.selected('team')).to.deep.equal(['john', 'ann']);
    expect(p.events).to.deep.equal(['team:input', 'team:change']);
    p.tw.widgets.selectNative(p.document.getElementById('team'), { values: ['anna'] });
    expect(p.selected('team')).to.deep.equal(['anna']);
    // The same selection again changes nothing, and fires nothing, as a user's would not.
    const same = p.tw.widgets.selectNative(p.document.getElementById('team'), { values: ['anna'] });
    expect(same.data.changed).to.equal(false);
    expect(p.events).to.have.length(4);
  });

  it('prefers an exact label, takes a unique part, and refuses an ambiguous part naming the candidates', () => {
    const p = page(TEAM);
    const team = p.document.getElementById('team');
    expect(p.tw.widgets.selectNative(team, { label: 'Ann' }).ok).to.equal(true);
    expect(p.selected('team')).to.deep.equal(['ann']);
    const amb = p.tw.widgets.selectNative(team, { label: 'jo' });
    expect(amb).to.include({ ok: false, code: 'AMBIGUOUS_OPTION' });
    expect(amb.message).to.contain('"John"').and.to.contain('"Joanna"');
    expect(p.selected('team')).to.deep.equal(['ann']);
    expect(p.tw.widgets.selectNative(p.document.getElementById('one'), { label: 'Norway' }).ok).to.equal(true);
    expect(p.selected('one')).to.deep.equal(['no']);
  });

  it('refuses several options for a single select, a disabled option and an unknown one', () => {
    const p = page(TEAM);
    expect(p.tw.widgets.selectNative(p.document.getElementById('one'), { labels: ['Norway', 'Nicaragua'] })).to.include({ ok: false, code: 'INVALID_ARGUMENTS' });
    expect(p.tw.widgets.selectNative(p.document.getElementById('team'), { labels: ['Zed'] })).to.include({ ok: false, code: 'DISABLED' });
    expect(p.tw.widgets.selectNative(p.document.getElementById('team'), { values: ['nobody'] })).to.include({ ok: false, code: 'NO_SUCH_OPTION' });
    expect(p.events).to.deep.equal([]);
  });
});

describe('editing keys for synthetic key events (content/keys.js, content/editing.js)', () => {
  function field() {
    const { document, tw, window } = loadContent('<input id="f" value="Hello world"><textarea id="t">first line\nsecond line</textarea><input id="code" value="ABCDEF">', FILES, shim);
    /** @param {string} id */
    const el = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
    /** @param {string} id @param {string} chord */
    const press = (id, chord) => { el(id).focus(); const c = tw.input.parseChord(chord); tw.input.syntheticKey(c.key, tw.input.mods(c.mods)); };
    /** @param {string} id */
    const sel = (id) => el(id).value.slice(el(id).selectionStart ?? 0, el(id).selectionEnd ?? 0);
    return { document, tw, window, el, press, sel };
  }

  it('extends the selection with Shift+arrows (Control: by word) and Shift+Home/End', () => {
    const f = field();
    f.el('f').setSelectionRange(11, 11);
    for (let i = 0; i < 5; i++) f.press('f', 'Shift+ArrowLeft');
    expect(f.sel('f')).to.equal('world');
    f.press('f', 'Shift+ArrowRight');
    expect(f.sel('f')).to.equal('orld');
    f.press('f', 'End');
    f.press('f', 'Control+Shift+ArrowLeft');
    expect(f.sel('f')).to.equal('world');
    f.press('f', 'Shift+Home');
    expect(f.sel('f')).to.equal('Hello world');
    f.press('f', 'ArrowRight');
    expect([f.el('f').selectionStart, f.el('f').selectionEnd]).to.deep.equal([11, 11]);
  });

  it('selects a textarea line with Shift+Home, everything with Control+A, and deletes the selection with Backspace', () => {
    const f = field();
    f.el('t').setSelectionRange(22, 22);
    f.press('t', 'Shift+Home');
    expect(f.sel('t')).to.equal('second line');
    // From the end of the second line, up reaches the end of the (shorter) first.
    f.press('t', 'Control+End');
    f.press('t', 'Shift+ArrowUp');
    expect(f.sel('t')).to.equal('\nsecond line');
    f.press('t', 'Control+A');
    expect(f.sel('t')).to.equal('first line\nsecond line');
    f.press('t', 'Backspace');
    expect(f.el('t').value).to.equal('');
  });

  it('does nothing when the page prevented the keydown', () => {
    const f = field();
    f.el('code').addEventListener('keydown', (e) => { if (e.key.startsWith('Arrow')) e.preventDefault(); });
    f.el('code').setSelectionRange(6, 6);
    f.press('code', 'Shift+ArrowLeft');
    expect([f.el('code').selectionStart, f.el('code').selectionEnd]).to.deep.equal([6, 6]);
  });

  it('sends the letter a keyboard sends for a chord: "b" for Control+B', () => {
    const f = field();
    /** @type {string[]} */
    const keys = [];
    f.el('f').addEventListener('keydown', (e) => keys.push(`${e.ctrlKey ? 'C-' : ''}${e.key}`));
    f.press('f', 'Control+B');
    f.press('f', 'Control+Shift+b');
    expect(keys).to.deep.equal(['C-b', 'C-B']);
  });
});

describe('targets through deep shadow trees (content/input.js)', () => {
  it('finds a button and a field 60 shadow roots deep, by text and by selector', () => {
    const { document, tw } = loadContent('<div id="root"></div>', FILES, shim);
    let host = /** @type {Element} */ (document.getElementById('root'));
    for (let i = 1; i <= 60; i++) {
      const root = host.attachShadow({ mode: 'open' });
      if (i === 60) { root.innerHTML = '<button id="deep">Deep button</button><input id="deep-input">'; break; }
      host = document.createElement('div');
      root.append(host);
    }
    const all = [...tw.dom.deepElements(document)];
    expect(all.filter((e) => e.localName === 'div')).to.have.length(60);
    expect(all.at(-2)?.id).to.equal('deep');
    const bySelector = tw.input.find({ selector: '#deep-input' });
    expect(bySelector.el?.id).to.equal('deep-input');
  });
});

describe('the acting content scripts in both manifests', () => {
  const src = join(dirname(fileURLToPath(import.meta.url)), '../../src');
  it('load input.js, then pointer and keys, and editing, drag and scroll, before widgets.js (joined into the one script of the main entry, in the order the modules run); the page-world helper (with the input hooks) and its key hand-over at document_start, the helper first', async () => {
    for (const tree of ['chrome', 'firefox']) {
      const m = JSON.parse(await readFile(join(src, tree, 'manifest.json'), 'utf8'));
      expect(m.content_scripts.find((/** @type {{ js: string[] }} */ e) => e.js.includes('content/main.js')).js, tree).to.deep.equal(['vendor/browser-polyfill.js', 'content/main.js']);
      const main = moduleOrder(join(src, tree), ['content/src/main.js']).map((x) => x.path.replace('content/src/', 'content/'));
      const at = (/** @type {string} */ n) => main.indexOf(`content/${n}.js`);
      // keys.js and editing.js use each other at call time only: either may run first.
      const order = ['input', 'pointer', 'keys', 'drag', 'scroll', 'widgets'].map(at);
      expect(order.every((i, k) => i >= 0 && (k === 0 || i > order[k - 1])) && at('editing') >= 0 && at('editing') < at('widgets'), `${tree}: ${main.join(' ')}`).to.equal(true);
      const entries = m.content_scripts.map((/** @type {{ js: string[] }} */ e) => e.js.join(','));
      const hooks = m.content_scripts[entries.indexOf('content/page-world.js')];
      expect(hooks, tree).to.include({ world: 'MAIN', run_at: 'document_start', all_frames: true });
      const channel = m.content_scripts[entries.indexOf('content/page-channel.js')];
      expect(channel, tree).to.include({ run_at: 'document_start', all_frames: true });
      expect(channel.world, tree).to.equal(undefined);
      // The key is handed over after the helper listens for it, before any page script.
      expect(entries.indexOf('content/page-world.js')).to.be.below(entries.indexOf('content/page-channel.js'));
    }
  });
});
