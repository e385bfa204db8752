// The outline (content/outline.js and the passes it uses) on jsdom: what is shown, what is left
// out, refs and their re-binding. Layout-dependent rules (cursor:pointer, viewport) are covered by
// the e2e suite in real browsers.
import { expect } from 'chai';
import { loadContent } from './content-dom.js';

const FILES = ['dom.js', 'roles.js', 'accname.js', 'actionable.js', 'refs.js', 'listeners.js', 'frames.js', 'outline-budget.js', 'ref-rule.js', 'select-options.js', 'outline.js', 'capabilities.js'];
/** @param {string} html */
const load = (html) => loadContent(html, FILES);

describe('outline (content/outline.js)', () => {
  it('shows landmarks, headings, text and refs; dissolves generics; folds rows', () => {
    const { tw } = load(`<header><nav aria-label="Main"><ul><li><a href="/">Home</a></li><li><a href="/b">Blog</a></li></ul></nav></header>
      <main><div><div><h1>Title</h1></div><p>Some <b>bold</b> text.</p></div>
      <table><tr><th>Item</th><th>Price</th></tr><tr><td>Lamp</td><td><a href="#">Buy</a></td></tr></table></main>`);
    expect(tw.outline.build().text).to.equal([
      '- banner', '  - navigation "Main"', '    - list', '      - link "Home" [e1]', '      - link "Blog" [e2]',
      '- main', '  - heading "Title" [level=1]', '  Some bold text.', '  - table', '    - row: Item | Price', '    - row: Lamp | link "Buy" [e3]',
    ].join('\n'));
  });

  it('leaves out hidden, aria-hidden and inert content', () => {
    const { tw } = load('<p>Shown</p><p hidden>A</p><p style="display:none">B</p><div aria-hidden="true"><button>C</button></div><div inert><button>D</button></div><p style="visibility:hidden">E</p>');
    expect(tw.outline.build().text).to.equal('Shown');
  });

  it('walks through plain wrappers without asking for their rendering, and still leaves out what they hide', () => {
    const { tw } = load('<div style="display:none"><div><span>A</span><a href="/a">B</a></div></div>'
      + '<div style="visibility:hidden"><div>C<span style="visibility:visible">D</span><a href="/e">E</a></div></div>'
      + '<section><div><div>F</div></div></section>');
    expect(tw.outline.build().text).to.equal('D F');
  });

  it('names a control once: label text is not repeated beside it', () => {
    const { tw } = load('<label>Email <input type="email" required value="a@b.c"></label><label for="p">Password</label><input id="p" type="password" value="secret">');
    const text = tw.outline.build().text;
    expect(text).to.equal('- textbox "Email" value="a@b.c" [required] [e1]\n- textbox "Password" value="••••••" [password] [e2]');
    expect(text).to.not.contain('secret');
  });

  it('gives refs to script-wired elements, contenteditable, tabindex and summary', () => {
    const { tw } = load('<span onclick="go()">Wired</span><div contenteditable="true">Draft</div><div tabindex="0">Focusable</div><details><summary>More</summary>x</details>');
    const text = tw.outline.build().text;
    expect(text).to.contain('- clickable "Wired" [e1]');
    expect(text).to.contain('- textbox value="Draft" [multiline] [e2]');
    expect(text).to.contain('- clickable "Focusable" [e3]');
    expect(text).to.contain('- button "More" [collapsed] [e4]');
  });

  it('gives no ref to a script-wired or focusable container of other controls (delegation)', () => {
    const { tw } = load('<div onclick="route(event)"><a href="/a">One</a><a href="/b">Two</a></div><div tabindex="0"><button>Inside</button></div>');
    expect(tw.outline.build().text).to.equal('- link "One" [e1]\n- link "Two" [e2]\n- button "Inside" [e3]');
  });

  it('shows a hidden checkbox through the label that stands in for it', () => {
    const { tw } = load('<label class="switch"><input type="checkbox" style="display:none" checked> Dark mode</label>');
    expect(tw.outline.build().text).to.equal('- checkbox "Dark mode" [checked] [e1]');
  });

  it('hints icon-only controls from readable class words, never from hashes', () => {
    const { tw } = load('<button class="btn icon-close"><svg></svg></button><button class="css-1x2y3z sc-bdVaJa"><svg></svg></button><a href="#" class="social-twitter"><i class="fa fa-twitter"></i></a>');
    expect(tw.outline.build().text).to.equal('- button hint="close" [e1]\n- button [e2]\n- link hint="social twitter" [e3]');
  });

  it('outlines open shadow roots and slotted content', () => {
    const { tw, document } = load('<x-card><span slot="t">Slotted</span></x-card>');
    const host = /** @type {Element} */ (document.querySelector('x-card'));
    host.attachShadow({ mode: 'open' }).innerHTML = '<h2><slot name="t"></slot></h2><button>Inner</button>';
    expect(tw.outline.build().text).to.equal('- heading "Slotted" [level=2]\n- button "Inner" [e1]');
  });

  it('keeps refs stable across snapshots and re-binds by fingerprint after a re-render', () => {
    const { tw, document } = load('<nav aria-label="Menu"><button>Open</button></nav><ul id="l"><li><button>Del</button></li><li><button>Del</button></li></ul>');
    const first = tw.outline.build().text;
    expect(tw.outline.build().text).to.equal(first);
    const list = /** @type {Element} */ (document.getElementById('l'));
    list.innerHTML = '<li><button>Del</button></li><li><button>Del</button></li>';
    const second = tw.refs.lookup('e3');
    expect(second.el).to.equal(list.querySelectorAll('button')[1]);
    expect(second.rebound).to.equal(true);
    // Two twins became one: which row is left is unknown, so no guess.
    list.innerHTML = '<li><button>Del</button></li>';
    expect(tw.refs.lookup('e2')).to.deep.include({ ok: false, code: 'STALE_REF' });
    tw.outline.build();
    expect(tw.refs.lookup('e1').el?.textContent).to.equal('Open');
    expect(tw.refs.lookup('f3:e1')).to.deep.include({ ok: false, code: 'STALE_REF' });
  });

  it('qualifies refs with the frameId it was told, and ends a cut outline with the call that shows the rest', () => {
    const { tw } = load(`${'<button>B</button>'.repeat(50)}`);
    const r = tw.outline.build({ frameId: 7, maxChars: 200 });
    expect(r.text.split('\n')[0]).to.equal('- button "B" [f7:e1]');
    expect(r.truncated).to.equal(true);
    expect(r.text.split('\n').at(-1)).to.match(/^\[… .* snapshot ref=f7:e\d+ from=\d+ shows/);
  });

  it('interactiveOnly keeps refs and their landmarks, drops text', () => {
    const { tw } = load('<main><h1>T</h1><p>Text</p><button>Go</button></main>');
    expect(tw.outline.build({ interactiveOnly: true }).text).to.equal('- main\n  - button "Go" [e1]');
  });
});

describe('capabilities (content/capabilities.js)', () => {
  it('infers a login form, a search form and a product collection', () => {
    const { tw } = load(`<form role="search"><input type="search" aria-label="Search"><button>Go</button></form>
      <form><label>User <input name="u"></label><label>Pass <input type="password"></label><button type="submit">Log in</button></form>
      <h2>Deals</h2><div class="grid">${['A', 'B', 'C'].map((t, i) => `<div class="tile"><a href="/p/${i}">${t} chair</a><span>€${i + 10},00</span><button>Add to cart</button></div>`).join('')}</div>`);
    const { data } = tw.capabilities.summary();
    expect(data.forms.map((/** @type {any} */ f) => f.kind)).to.deep.equal(['search', 'login']);
    expect(data.forms[1].submit.name).to.equal('Log in');
    expect(data.collections[0]).to.include({ id: 'c1', kind: 'products', name: 'Deals', count: 3 });
    const rows = tw.capabilities.extract('c1', ['title', 'price']).data.rows;
    expect(rows).to.deep.equal([{ title: 'A chair', price: '€10,00' }, { title: 'B chair', price: '€11,00' }, { title: 'C chair', price: '€12,00' }]);
  });
});
