// The outline's one budget (content/outline-budget.js) on jsdom: a page that fits is untouched; a
// big one is summarised by region and its walk stops once it has produced enough, and every
// actionable element left out is reachable through the calls the text names.
import { expect } from 'chai';
import { loadContent } from './content-dom.js';

const FILES = ['dom.js', 'roles.js', 'accname.js', 'actionable.js', 'refs.js', 'listeners.js', 'frames.js', 'outline.js'];
/** @param {string} html */
const load = (html) => loadContent(html, FILES, (w) => { w.Tabwright = { handlers: {}, listeners: { collect: () => new WeakSet() } }; });

import { followUps } from '../fixtures/follow-ups.js';

/** @param {string} text */
const refsIn = (text) => new Set([...text.matchAll(/\[((?:f\d+:)?e\d+)\]/g)].map((m) => m[1]));

/**
 * Follows every call an outline names (and the calls those name) and returns the refs seen, the
 * calls made, and any call whose answer names that same call again (a follow-up that returns its
 * own line: a model that obeys the outline loops).
 * @param {any} tw @param {string} text @param {number} maxChars
 */
function followAll(tw, text, maxChars) {
  const seen = new Set(refsIn(text));
  const queue = followUps(text);
  const key = (/** @type {any} */ c) => `${c.ref} ${c.from ?? ''} ${c.to ?? ''}`;
  const done = new Set();
  /** @type {string[]} */
  const loops = [];
  while (queue.length && done.size < 200) {
    const call = /** @type {{ ref: string, from?: number, to?: number }} */ (queue.shift());
    if (done.has(key(call))) continue;
    done.add(key(call));
    const more = tw.outline.build({ ...call, maxChars });
    expect(more.text.length, more.text.slice(0, 200)).to.be.at.most(maxChars);
    const next = followUps(more.text);
    if (next.some((c) => key(c) === key(call))) loops.push(`${key(call)} → ${more.text.slice(0, 160)}`);
    for (const x of refsIn(more.text)) seen.add(x);
    queue.push(...next);
  }
  return { seen, calls: done.size, loops };
}

describe('outline budget (content/outline-budget.js)', () => {
  it('leaves an outline that fits as it is: no summary, no follow-up', () => {
    const { tw } = load('<nav aria-label="Main"><a href="/a">A</a> <a href="/b">B</a></nav><main><h1>Title</h1><button>Go</button></main>');
    const r = tw.outline.build({ maxChars: 30_000 });
    expect(r.text).to.equal('- navigation "Main"\n  - link "A" [e1]\n  - link "B" [e2]\n- main\n  - heading "Title" [level=1]\n  - button "Go" [e3]');
    expect(r.truncated).to.equal(false);
  });

  it('summarises the region that saves enough, names its refs by role, and shows it on request', () => {
    const links = Array.from({ length: 240 }, (_, i) => `<a href="/t/${i}">Topic number ${i}</a>`).join(' ');
    const { tw } = load(`<nav aria-label="Topics">${links}</nav><main><h1>Story</h1><p>Some text.</p><button>Buy now</button></main>`);
    const r = tw.outline.build({ maxChars: 4_000 });
    expect(r.text.length).to.be.at.most(4_000);
    // 240 links are more than one call of this budget holds: the summary names the parts that do.
    expect(r.text).to.match(/^- navigation "Topics": 240 links \[collapsed: snapshot ref=e\d+ with from=0 to=\d+, .* a part per call\]$/m);
    // What is not summarised is all there.
    expect(r.text).to.match(/- button "Buy now" \[e\d+\]/);
    const [{ ref }] = followUps(r.text);
    const nav = tw.outline.build({ ref, maxChars: 30_000 });
    expect(refsIn(nav.text).size).to.equal(240);
    const { seen, loops } = followAll(tw, r.text, 4_000);
    expect(loops).to.deep.equal([]);
    expect([...seen].length).to.equal(241);
  });

  it('stops walking once it has produced enough, and every element left out is one named call away', function () {
    this.timeout(180_000); // a hang guard: jsdom builds these pages slowly on a busy machine (28 s seen at a load of 30 on 2 cores)
    // 250 rows are about 9,000 characters of outline, three budgets' worth: enough to be cut and
    // followed in several calls (every jsdom walk costs CPU that the e2e beside it needs).
    const rows = Array.from({ length: 250 }, (_, i) => `<tr><td>Order ${i}</td><td><button>Refund ${i}</button></td></tr>`).join('');
    const { tw, document } = load(`<h1>Orders</h1><table><tbody>${rows}</tbody></table><footer><a href="/help">Help</a></footer>`);
    const r = tw.outline.build({ maxChars: 3_000 });
    expect(r.text.length).to.be.at.most(3_000);
    expect(r.truncated).to.equal(true);
    expect(r.text).to.match(/\[… \d+ more elements here \(\d+ actionable\) not outlined: snapshot ref=e\d+ (with )?from=\d+/);
    // Follow every named call (and the calls those name) until nothing is left: each button is seen.
    const seen = new Set(refsIn(r.text));
    const queue = followUps(r.text);
    let calls = 0;
    while (queue.length && calls < 100) {
      const call = /** @type {{ ref: string, from?: number, to?: number }} */ (queue.shift());
      const more = tw.outline.build({ ...call, maxChars: 3_000 });
      expect(more.text.length, more.text.slice(0, 200)).to.be.at.most(3_000);
      for (const x of refsIn(more.text)) seen.add(x);
      queue.push(...followUps(more.text));
      calls++;
    }
    const buttons = [...document.querySelectorAll('button, a')].map((el) => tw.refs.refOf(el));
    expect(buttons.filter((x) => x && seen.has(x))).to.have.length(251);
    expect(calls).to.be.below(15);
  });

  it('plans each named part to fit one call, by text as well as controls, and opens a table too big for one', function () {
    this.timeout(180_000); // a hang guard: jsdom builds these pages slowly on a busy machine (28 s seen at a load of 30 on 2 cores)
    // Sections heavy in text with two links each (the generated 100,000-element page's article in
    // small), then a table whose rows alone are more than one call can show; half the page against
    // half the budget plans the same parts (20 calls, 5 of them the table's body) for less jsdom work.
    const sections = Array.from({ length: 75 }, (_, i) => `<section><h2>Section ${i}</h2><p>Paragraph ${i} explains <a href="/r/${i}">reference ${i}</a> and <b>bold</b> words, with <i>emphasis</i> and more text.</p><p>Another paragraph with a <a href="/c/${i}">citation ${i}</a>.</p><ul><li>Point one</li><li>Point two</li></ul></section>`).join('');
    const rows = Array.from({ length: 100 }, (_, i) => `<tr><td>#${i}</td><td>Customer ${i}</td><td><button>Refund ${i}</button></td></tr>`).join('');
    const { tw, document } = load(`<main><article><h1>Long</h1>${sections}<table><thead><tr><th>Order</th><th>Customer</th><th>Action</th></tr></thead><tbody>${rows}</tbody></table></article></main>`);
    const r = tw.outline.build({ maxChars: 2_000 });
    expect(r.text.length).to.be.at.most(2_000);
    const calls = followUps(r.text);
    expect(calls.length).to.be.greaterThan(10);
    // One level of named calls, no more: each shows its whole part, with no "not outlined" line of its own.
    const seen = new Set(refsIn(r.text));
    for (const call of calls) {
      const more = tw.outline.build({ ...call, maxChars: 2_000 });
      expect(more.text.length).to.be.at.most(2_000);
      expect(more.text, JSON.stringify(call)).to.not.match(/not outlined|outline cut/);
      for (const x of refsIn(more.text)) seen.add(x);
    }
    const controls = [...document.querySelectorAll('a, button')];
    expect(controls.filter((el) => seen.has(/** @type {string} */ (tw.refs.refOf(el)))).length).to.equal(controls.length);
    // The table's rows are named in parts of its body, not as one call that cannot hold them.
    const body = tw.refs.refOf(document.querySelector('tbody'));
    expect(calls.filter((c) => c.ref === body).length).to.be.greaterThan(1);
  });

  it('keeps the "not outlined" lines in interactiveOnly outlines', () => {
    // 400 buttons are about four budgets' worth of outline.
    const items = Array.from({ length: 400 }, (_, i) => `<li><button>Item ${i}</button></li>`).join('');
    const { tw } = load(`<ul>${items}</ul>`);
    const r = tw.outline.build({ maxChars: 3_000, interactiveOnly: true });
    expect(followUps(r.text).length).to.be.greaterThan(0);
  });

  it('summarises main only when nothing else can give way', () => {
    const nav = Array.from({ length: 60 }, (_, i) => `<a href="/n/${i}">Nav ${i}</a>`).join(' ');
    const body = Array.from({ length: 200 }, (_, i) => `<p><a href="/p/${i}">Paragraph link ${i}</a></p>`).join('');
    const { tw } = load(`<nav aria-label="Site">${nav}</nav><main>${body}</main>`);
    const r = tw.outline.build({ maxChars: 7_000 });
    expect(r.text).to.match(/^- navigation "Site": 60 links \[collapsed/m);
  });
  it('opens a region bigger than the budget in parts: a prose page laid out in one table', function () {
    this.timeout(180_000); // a hang guard: jsdom is slow on a busy machine
    // The old web's layout: one table, a menu cell and a content cell of long prose with links.
    const prose = Array.from({ length: 290 }, (_, i) => `<p>Paragraph ${i} of a long essay that goes on about history, weather and boats, with <a href="/n/${i}">note ${i}</a> and more words after it to make it long enough.</p>`).join('');
    const { tw, document } = load(`<table><tbody><tr><td><a href="/">Home</a></td><td>${prose}</td></tr></tbody></table>`);
    const r = tw.outline.build({ maxChars: 6_000 });
    expect(r.text.length).to.be.at.most(6_000);
    const { seen, loops, calls } = followAll(tw, r.text, 6_000);
    expect(loops).to.deep.equal([]);
    const links = [...document.querySelectorAll('a')].map((el) => tw.refs.refOf(el));
    expect(links.filter((x) => x && seen.has(x)).length).to.equal(links.length);
    expect(calls).to.be.below(60);
  });

  it('opens a sidebar of over a thousand links by parts, and a region\'s own ref is never summarised into itself', function () {
    this.timeout(180_000); // a hang guard: jsdom is slow on a busy machine
    // 1,200 links are ten budgets' worth of outline (23 follow-up calls).
    const items = Array.from({ length: 1_200 }, (_, i) => `<li><a href="/c/${i}">Category ${i}</a></li>`).join('');
    const { tw, document } = load(`<nav aria-label="Categories"><ul>${items}</ul></nav><main><h1>Shop</h1><button>Buy</button></main>`);
    const r = tw.outline.build({ maxChars: 4_000 });
    const nav = tw.refs.refFor(document.querySelector('nav'), { role: 'navigation', name: 'Categories', landmark: '', index: 0 });
    const opened = tw.outline.build({ ref: nav, maxChars: 4_000 });
    expect(opened.text).to.not.match(new RegExp(`snapshot ref=${nav} shows`));
    expect(refsIn(opened.text).size).to.be.greaterThan(20);
    // A range past a region's children (the nav holds one list) says so, and names the call that shows it.
    const past = tw.outline.build({ ref: nav, from: 100, to: 200, maxChars: 4_000 });
    expect(past.text).to.match(new RegExp(`has 1 child node: from=100 to=200 selects none of them\\. snapshot ref=${nav} shows it`));
    const { seen, loops } = followAll(tw, r.text, 4_000);
    expect(loops).to.deep.equal([]);
    const links = [...document.querySelectorAll('a')].map((el) => tw.refs.refOf(el));
    expect(links.filter((x) => x && seen.has(x)).length).to.equal(links.length);
  });
});
