// The page-world helpers (content/page-world.js) as a hostile page sees them, on jsdom: no global
// left, wrapped methods that look native, and a channel to the isolated world the page can neither
// name, listen in on, nor fake (content/page-channel.js hands its key over before page scripts run).
import { expect } from 'chai';
import { loadContent } from './content-dom.js';

const FILES = ['page-world.js', 'page-channel.js', 'dom.js', 'roles.js', 'accname.js', 'actionable.js', 'refs.js', 'listeners.js', 'frames.js', 'outline.js'];
/** The names a page's own script can read on window, and the symbols. @param {any} w */
const globalsOf = (w) => w.eval('[Object.getOwnPropertyNames(window).length, Object.getOwnPropertySymbols(window).length]');

describe('page world (content/page-world.js, content/page-channel.js)', () => {
  it('leaves no global and no symbol on window', () => {
    const bare = loadContent('<p>x</p>', []).window;
    const { window } = loadContent('<p>x</p>', ['page-world.js']);
    expect(globalsOf(window)).to.deep.equal(globalsOf(bare));
    const symbols = 'Object.getOwnPropertySymbols(window).map(String)';
    expect(window.eval(symbols)).to.deep.equal(bare.eval(symbols));
  });

  it('wraps addEventListener, onclick, dialogs and console so they look built in', () => {
    const { window } = loadContent('<p>x</p>', ['page-world.js']);
    const LOOKS = `[
      EventTarget.prototype.addEventListener, Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'onclick').set,
      window.alert, window.confirm, window.prompt, console.log, Function.prototype.toString,
    ].map((f) => Function.prototype.toString.call(f))`;
    // What the same functions look like in a window without Tabwright (in a browser: "[native code]";
    // test/e2e/page-world.e2e.js asks the real browsers).
    const untouched = loadContent('<p>x</p>', []).window.eval(LOOKS);
    const looks = window.eval(LOOKS);
    expect(looks).to.deep.equal(untouched);
  });

  it('reports a real dialog to the isolated world, and ignores one the page fakes', () => {
    const { window, tw } = loadContent('<p>x</p>', FILES);
    const heard = /** @type {any[]} */ ([]);
    window.document.addEventListener(tw.pageChannel.name('dialog'), (/** @type {any} */ e) => heard.push(JSON.parse(e.detail)));
    // The page guesses the old fixed names, and hands over a key of its own.
    window.eval(`
      document.dispatchEvent(new CustomEvent('tabwright:dialog', { detail: JSON.stringify({ kind: 'alert', message: 'fake', accepted: true }) }));
      document.dispatchEvent(new CustomEvent('tabwright:key', { detail: 'a'.repeat(24) }));
      document.dispatchEvent(new CustomEvent('tabwright-' + 'a'.repeat(24) + ':dialog-policy', { detail: JSON.stringify({ accept: true, once: false }) }));
      window.answer = confirm('Delete everything?');
      alert('Saved');
    `);
    expect(heard.map((d) => `${d.kind}:${d.message}:${d.accepted}`)).to.deep.equal(['confirm:Delete everything?:false', 'alert:Saved:true']);
    expect(window.answer).to.equal(false);
  });

  it('takes the dialog policy only from the isolated world', () => {
    const { window, tw } = loadContent('<p>x</p>', FILES);
    window.document.dispatchEvent(new window.CustomEvent(tw.pageChannel.name('dialog-policy'), { detail: JSON.stringify({ accept: true, promptText: 'Ada', once: true }) }));
    expect(window.eval(`prompt('Name?')`)).to.equal('Ada');
    expect(window.eval(`prompt('Again?')`)).to.equal(null);
  });
});
