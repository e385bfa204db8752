// Names and text fallbacks keep word boundaries: box boundaries (block, table
// cell, flex or grid item, inline-block) are a space, inline elements are not; hidden descendants
// are no part of a name; every name is capped with "…"; editors are named by label or placeholder
// and marked [multiline]. Run on jsdom (content/accname.js, actionable.js, dom.js, outline.js).
import { expect } from 'chai';
import { loadContent } from './content-dom.js';

const FILES = ['dom.js', 'roles.js', 'accname.js', 'actionable.js', 'refs.js', 'listeners.js', 'frames.js', 'outline.js'];
/** @param {string} html */
const load = (html) => loadContent(html, FILES);
/** The outline text of a body. @param {string} html */
const outline = (html) => load(html).tw.outline.build().text;
/** The accessible name of #t. @param {string} html */
function nameOf(html) {
  const { document, tw } = load(html);
  return tw.accname.name(/** @type {Element} */ (document.getElementById('t')));
}

const ROW = '<td>Jane Doe</td><td>$12.00</td><td>Shipped</td>';

describe('names keep word boundaries (content/accname.js, actionable.js)', () => {
  it('reads a table row wrapped in a clickable element cell by cell', () => {
    // Markup as frameworks build it: no whitespace between the cells.
    expect(outline(`<table><tbody><tr onclick="open()">${ROW}</tr></tbody></table>`)).to.equal('- table\n  - row "Jane Doe $12.00 Shipped" [e1]');
    expect(nameOf(`<a id="t" href="/o/1"><table><tbody><tr>${ROW}</tr></tbody></table></a>`)).to.equal('Jane Doe $12.00 Shipped');
    expect(outline(`<div onclick="open()"><table><tbody><tr>${ROW}</tr></tbody></table></div>`)).to.equal('- clickable "Jane Doe $12.00 Shipped" [e1]');
  });

  it('reads a card link as its heading, then its text', () => {
    expect(outline('<a href="/notes"><h3>Release notes</h3><p>What changed in 2.0</p></a>')).to.equal('- link "Release notes What changed in 2.0" [e1]');
    expect(outline('<a href="/n"><div><div><h3>A</h3></div></div><div><p>B</p></div></a>')).to.equal('- link "A B" [e1]');
    // A block inside an inline wrapper still breaks the line; an inline run after it does not start a word.
    expect(nameOf('<a id="t" href="#"><span><div>Title</div></span><span>Subtitle</span><span><b>!</b></span>ok</a>')).to.equal('Title Subtitle!ok');
    expect(nameOf('<a id="t" href="#">Price<span><!-- c --><span><p>$5</p></span>\n</span></a>')).to.equal('Price $5');
    expect(outline('<a href="/l"><li>One</li><li>Two</li></a><button>Line one<br>Line two</button>'))
      .to.equal('- link "One Two" [e1]\n- button "Line one Line two" [e2]');
  });

  it('sets inline-block chips, flex and grid items apart', () => {
    expect(outline('<button><span style="display:inline-block">Red</span><span style="display:inline-block">Large</span><span style="display:inline-flex">2 left</span></button>'))
      .to.equal('- button "Red Large 2 left" [e1]');
    expect(nameOf('<a id="t" href="#" style="display:flex"><span>Total</span><span>$5.00</span></a>')).to.equal('Total $5.00');
    expect(nameOf('<a id="t" href="#"><div style="display:grid">Total<b>$5.00</b></div></a>')).to.equal('Total $5.00');
    expect(nameOf('<button id="t"><span style="display:contents"><p>Save</p></span><span style="display:contents"><p>draft</p></span></button>')).to.equal('Save draft');
  });

  it('does not add spaces inside words: inline elements run on', () => {
    expect(nameOf('<button id="t">Sec<b>ret</b></button>')).to.equal('Secret');
    expect(nameOf('<a id="t" href="#">un<span>believ</span><em>able</em> <i>deal</i>s</a>')).to.equal('unbelievable deals');
    expect(outline('<p><a href="#">x<span>y</span>z</a></p>')).to.equal('- link "xyz" [e1]');
  });

  it('leaves hidden descendants out of names and text fallbacks', () => {
    const hidden = '<span style="display:none">None</span><span aria-hidden="true">Aria</span><span style="visibility:hidden">Invisible</span><span hidden>Attr</span>';
    expect(outline(`<a href="#">Visible${hidden}</a>`)).to.equal('- link "Visible" [e1]');
    expect(outline(`<div onclick="go()"><p>Card</p>${hidden}<p>body</p></div>`)).to.equal('- clickable "Card body" [e1]');
    expect(outline('<label onclick="go()"><span>Shown</span><span aria-hidden="true">★</span></label>')).to.equal('- clickable "Shown" [e1]');
  });

  it('keeps hidden content reached through aria-labelledby only when the referenced node is hidden (accname 2A)', () => {
    expect(nameOf('<div id="a" hidden><p>Hidden</p><p style="display:none">label</p>s<b>!</b></div><button id="t" aria-labelledby="a">x</button>')).to.equal('Hidden label s!');
    expect(nameOf('<span id="a">Shown<span style="display:none">gone</span></span><button id="t" aria-labelledby="a">x</button>')).to.equal('Shown');
  });

  it('caps every name at 120 characters with "…", at a word boundary when one is near', () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    for (const html of [`<a href="#" id="t">${words}</a>`, `<a href="#" id="t"><h3>${words}</h3><p>more</p></a>`, `<div onclick="go()" id="t"><p>${words}</p></div>`, `<div id="t" role="textbox" aria-placeholder="${words}"></div>`]) {
      const { document, tw } = load(html);
      const text = tw.outline.build().text;
      const name = /** @type {string} */ (/"(.*)"/.exec(text)?.[1]);
      expect(name.length, html).to.be.at.most(120);
      expect(name.endsWith('…'), name).to.equal(true);
      const kept = name.slice(0, -1);
      expect(words.startsWith(kept) && words[kept.length] === ' ', `cut mid-word: ${name}`).to.equal(true);
      // The ref's fingerprint is the name shown, so it still re-binds after a re-render (script-wired
      // elements have no role to find them again by: content/refs.js).
      if (html.includes('onclick')) continue;
      const el = /** @type {Element} */ (document.getElementById('t'));
      el.replaceWith(el.cloneNode(true));
      expect(tw.refs.lookup('e1').rebound, html).to.equal(true);
    }
  });

  it('caps without a space to cut at, never splits a surrogate pair, and says "…" when the text was too long to read whole', () => {
    const { tw, document } = load(`<button id="t">${'x'.repeat(118)}😀tail</button><div onclick="go()" id="u">${'<p>ab</p>'.repeat(3000)}</div>`);
    expect(tw.dom.cap('x'.repeat(300), 120)).to.equal(`${'x'.repeat(119)}…`);
    expect(tw.accname.name(document.getElementById('t'))).to.equal(`${'x'.repeat(118)}…`);
    const long = tw.actionable.nameFor(document.getElementById('u'), 'clickable', 'listener');
    expect(long.length).to.be.within(110, 120);
    expect(long).to.match(/^(ab )+ab…$/);
    expect(tw.dom.cap('short', 120)).to.equal('short');
  });

  it('names an unnamed multi-line editor by its label or placeholder and marks it [multiline]', () => {
    expect(outline('<textarea placeholder="Write a comment"></textarea><input placeholder="Search">'))
      .to.equal('- textbox "Write a comment" [multiline] [e1]\n- textbox "Search" [e2]');
    expect(outline('<label for="c">Comment</label><textarea id="c" required></textarea>')).to.equal('- textbox "Comment" [multiline] [required] [e1]');
    // ProseMirror/Tiptap: data-placeholder on the empty first paragraph; Quill: on the editor itself.
    expect(outline('<div class="ProseMirror" contenteditable="true"><p data-placeholder="Write a reply" class="is-empty"><br></p></div>'))
      .to.equal('- textbox "Write a reply" [multiline] [e1]');
    expect(outline('<div class="ql-editor ql-blank" contenteditable="true" data-placeholder="Compose an epic"><p><br></p></div>'))
      .to.equal('- textbox "Compose an epic" [multiline] [e1]');
    expect(outline('<div role="textbox" aria-multiline="true" aria-placeholder="Notes" tabindex="0"></div>')).to.equal('- textbox "Notes" [multiline] [e1]');
    expect(outline('<div role="textbox" contenteditable="true" aria-multiline="false" aria-label="Tag"></div>')).to.equal('- textbox "Tag" [e1]');
    expect(outline('<label for="bio">About you</label><div id="bio" contenteditable="true"></div>')).to.equal('About you\n- textbox "About you" [multiline] [e1]');
  });

  it('finds an editor again by the same placeholder name after a re-render', () => {
    const { tw, document } = load('<div id="ed" role="textbox" contenteditable="true"><p data-placeholder="Write a reply"></p></div>');
    expect(tw.outline.build().text).to.equal('- textbox "Write a reply" [multiline] [e1]');
    const ed = /** @type {Element} */ (document.getElementById('ed'));
    ed.replaceWith(ed.cloneNode(true));
    expect(tw.refs.lookup('e1').rebound).to.equal(true);
  });
});
