// Perception and actions on jsdom, the parts that need no layout: a tree item named by its own
// label while its children load, two options with the same label refused as AMBIGUOUS_OPTION, and
// a custom element's closed shadow root walked by the outline with its slots found.
import { expect } from 'chai';
import { loadContent } from './content-dom.js';
import { pressNote } from '../../src/chrome/agent/tools/input.js';

const FILES = ['dom.js', 'roles.js', 'accname.js', 'actionable.js', 'refs.js', 'listeners.js', 'frames.js', 'outline.js', 'input.js', 'pointer.js', 'keys.js', 'editing.js', 'drag.js', 'widgets.js'];
/** What jsdom lacks and the scripts use: innerText (as textContent) and MessageChannel (as test/unit/action-content.test.js shims them). @param {any} w */
function shim(w) {
  Object.defineProperty(w.HTMLElement.prototype, 'innerText', { get() { return this.textContent; }, configurable: true });
  w.MessageChannel = class {
    constructor() {
      /** @type {{ onmessage: null | (() => void) }} */
      this.port1 = { onmessage: null };
      this.port2 = { postMessage: () => setTimeout(() => this.port1.onmessage?.()) };
    }
  };
}
/** @param {string} html */
const load = (html) => loadContent(html, FILES, (w) => { shim(w); w.Tabwright = { handlers: {}, listeners: { collect: () => new WeakSet() } }; });

describe('widgets, round 3 (content scripts on jsdom)', () => {
  it('names a tree item by its own label, not by the child items loading under it', () => {
    const { tw, document } = load('<ul role="tree"><li role="treeitem" aria-expanded="true"><span>Documents</span><ul role="group"><li>Loading…</li></ul></li></ul>');
    expect(tw.accname.name(document.querySelector('[role=treeitem]'))).to.equal('Documents');
  });

  it('refuses a label two options share, naming their index and value; an exact label still wins over partial ones', () => {
    const { tw, document } = load('<select id="c"><option value="il">Springfield</option><option value="mo">Springfield</option><option value="x">Springfield Falls</option></select>');
    const sel = /** @type {HTMLSelectElement} */ (document.getElementById('c'));
    const twin = tw.widgets.selectNative(sel, { label: 'springfield' });
    expect(twin).to.include({ ok: false, code: 'AMBIGUOUS_OPTION' });
    expect(twin.message).to.contain('index 0 value "il"').and.contain('index 1 value "mo"');
    expect(tw.widgets.selectNative(sel, { label: 'Springfield Falls' })).to.include({ ok: true });
    expect(sel.value).to.equal('x');
    expect(tw.widgets.selectNative(sel, { value: 'mo' })).to.include({ ok: true });
    expect(sel.value).to.equal('mo');
  });

  it('finds the slot a light child is shown in inside a closed root, for the flat tree', () => {
    const { tw, window, document } = load('<x-sw><span slot="a">Wi-Fi</span></x-sw>');
    const host = /** @type {Element} */ (document.querySelector('x-sw'));
    const root = host.attachShadow({ mode: 'closed' });
    root.innerHTML = '<button><slot name="a"></slot></button>';
    // jsdom has neither openOrClosedShadowRoot nor chrome.dom: the content scripts' own way in is stood in for.
    Object.defineProperty(window.Element.prototype, 'openOrClosedShadowRoot', { configurable: true, get() { return this === host ? root : this.shadowRoot; } });
    const span = document.querySelector('span');
    expect(tw.dom.parentOf(span)).to.equal(root.querySelector('slot'));
    expect(tw.dom.composedContains(root.querySelector('button'), span)).to.equal(true);
    expect(tw.dom.childrenOf(host)).to.deep.equal([...root.childNodes]);
  });
});

describe('a trusted press in a frame, as the click reports it (agent/tools/input.js)', () => {
  it('says nothing more when it landed on the target; says the target re-rendered, or that it cannot tell', () => {
    expect(pressNote({ ok: true, data: true })).to.equal('');
    expect(pressNote({ ok: true, data: 'changed' })).to.match(/re-rendered.*Do not click it again/);
    expect(pressNote({ ok: false, code: 'NO_CONTENT_REPLY', message: 'gone' })).to.match(/cannot be told/);
  });
});
