// The listener tracker (content/page-world.js, the page world) and its isolated-world side
// (content/listeners.js) on jsdom: script-wired elements get refs, and a later snapshot asks the
// page world only for what was wired since, without losing what it learned before.
import { expect } from 'chai';
import { loadContent, injectContent } from './content-dom.js';


const FILES = ['page-world.js', 'page-channel.js', 'dom.js', 'roles.js', 'accname.js', 'actionable.js', 'refs.js', 'listeners.js', 'frames.js', 'secret-patterns.js', 'secrets.js', 'outline-budget.js', 'ref-rule.js', 'select-options.js', 'line-states.js', 'outline.js'];

/** @param {any} window @param {any} tw @returns {{ count: () => number }} how many elements the page world told of since the last count */
function countTold(window, tw) {
  let n = 0;
  // Registered before content/listeners.js registers its own (per snapshot), so it sees every event first.
  window.addEventListener(tw.pageChannel.name('listener'), () => { n++; }, true);
  return { count: () => { const c = n; n = 0; return c; } };
}

describe('listener tracker (content/page-world.js, content/listeners.js)', () => {
  it('gives a ref to an element wired with addEventListener, and tells the isolated world of it only once', () => {
    const { window, document, tw } = loadContent('<div id="app"><span id="a">Alpha</span><span id="b">Beta</span></div>', FILES);
    const told = countTold(window, tw);
    window.eval(`document.getElementById('a').addEventListener('click', () => {});`);
    expect(tw.outline.build().text).to.equal('- clickable "Alpha" [e1]\nBeta');
    expect(told.count()).to.equal(1);

    // Wired after the first snapshot: the next one asks only for the new element, and keeps the old.
    window.eval(`document.getElementById('b').addEventListener('mousedown', () => {});`);
    expect(tw.outline.build().text).to.equal('- clickable "Alpha" [e1]\n- clickable "Beta" [e2]');
    expect(told.count()).to.equal(1);

    // Nothing new: nothing is dispatched, and both refs stay.
    expect(tw.outline.build().text).to.equal('- clickable "Alpha" [e1]\n- clickable "Beta" [e2]');
    expect(told.count()).to.equal(0);
    expect(document.getElementById('a')?.getAttributeNames()).to.deep.equal(['id'], 'no DOM is changed');
  });

  it('tells of an element wired while detached once it is in the document', () => {
    const { window, tw } = loadContent('<div id="app"></div>', FILES);
    window.eval(`window.card = document.createElement('span'); card.textContent = 'Later'; card.onclick = () => {};`);
    expect(tw.outline.build().text).to.equal('');
    window.eval(`document.getElementById('app').append(card);`);
    expect(tw.outline.build().text).to.equal('- clickable "Later" [e1]');
  });

  it('a re-injected page world and content script (extension reloaded) note what is wired from then on', () => {
    const { window, tw } = loadContent('<span id="a">Alpha</span><span id="b">Beta</span>', FILES);
    window.eval(`document.getElementById('a').addEventListener('click', () => {});`);
    expect(tw.outline.build().text).to.equal('- clickable "Alpha" [e1]\nBeta');
    // The old page world keeps its key (a page could hand over one of its own otherwise); the new
    // pair talks on a new key, and learns what is wired after it came.
    window.eval('delete window.Tabwright');
    injectContent(window, FILES);
    window.eval(`document.getElementById('b').addEventListener('click', () => {});`);
    expect(window.Tabwright.outline.build().text).to.match(/^Alpha\n- clickable "Beta" \[e\d+\]$/);
  });
});

