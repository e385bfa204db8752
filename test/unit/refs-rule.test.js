// Refs for every control (content/ref-rule.js and content/select-options.js) on jsdom: a
// control inside a script-wired container gets its own ref and the container keeps its own; layout
// and delegation around controls get none; slotted content is outlined once; native selects list
// their options. Clicking these refs in real browsers: test/e2e/refs.e2e.js.
import { expect } from 'chai';
import { loadContent } from './content-dom.js';

const FILES = ['dom.js', 'roles.js', 'accname.js', 'actionable.js', 'refs.js', 'listeners.js', 'frames.js', 'secret-patterns.js', 'secrets.js',
  'outline-budget.js', 'ref-rule.js', 'select-options.js', 'outline.js'];
/** @param {string} html */
const load = (html) => loadContent(html, FILES);
/** @param {string} html */
const outline = (html) => load(html).tw.outline.build().text;

describe('refs inside refs (content/ref-rule.js)', () => {
  it('gives an icon button in a clickable row its own ref, and the row its own, named by its own text', () => {
    expect(outline('<div onclick="open()"><span>Jane Doe</span> <span>Admin</span><button aria-label="Delete" onclick="del()"></button></div>')).to.equal([
      '- clickable "Jane Doe Admin" [e2]',
      '  - button "Delete" [e1]',
    ].join('\n'));
  });

  it('gives a script-wired icon with no role inside a wired row a ref (it used to be swallowed)', () => {
    expect(outline('<div onclick="open()">Li Wei<span class="icon icon-star" onclick="star()"></span></div>')).to.equal([
      '- clickable "Li Wei" [e2]',
      '  - clickable hint="star" [e1]',
    ].join('\n'));
  });

  it('gives nested tree items refs of their own, each named without its children', () => {
    expect(outline(`<ul role="tree" aria-label="Files" onclick="pick(event)"><li role="treeitem" aria-expanded="true">Documents
      <ul role="group"><li role="treeitem">Reports</li><li role="treeitem">Archive<ul role="group"><li role="treeitem">2023</li></ul></li></ul></li></ul>`)).to.equal([
      '- tree "Files"',
      '  - treeitem "Documents" [expanded] [e4]',
      '    - treeitem "Reports" [e1]',
      '    - treeitem "Archive" [e3]',
      '      - treeitem "2023" [e2]',
    ].join('\n'));
  });

  it('gives suggestions their refs: options of a listbox, and plain items wired by script inside one', () => {
    expect(outline('<ul role="listbox" aria-label="Cities"><li role="option">Paris</li><li role="option">Parma</li></ul>'
      + '<ul role="listbox" aria-label="Fruits"><li onclick="pick(1)">Apple</li><li onclick="pick(2)">Apricot</li></ul>')).to.equal([
      '- listbox "Cities" [e3]', '  - option "Paris" [e1]', '  - option "Parma" [e2]',
      '- listbox "Fruits" [e6]', '  - listitem "Apple" [e4]', '  - listitem "Apricot" [e5]',
    ].join('\n'));
  });

  it('gives draggable cards in a wired column refs, and the column its own (a drop target)', () => {
    expect(outline('<div onclick="col()"><h3>To do</h3><div draggable="true">Write spec</div><div draggable="true">Fix bug</div></div>')).to.equal([
      '- clickable "To do" [e3]',
      '  - heading "To do" [level=3]',
      '  - clickable "Write spec" [e1]',
      '  - clickable "Fix bug" [e2]',
    ].join('\n'));
  });

  it('gives no ref to delegation: a wired container around controls only, around a landmark, or around dozens of controls', () => {
    expect(outline('<div onclick="route(event)"><a href="/a">One</a><a href="/b">Two</a></div>')).to.equal('- link "One" [e1]\n- link "Two" [e2]');
    expect(outline('<div id="root" onclick="route(event)"><nav aria-label="Top"><a href="/">Home</a></nav><p>Welcome</p></div>')).to.equal(
      '- navigation "Top"\n  - link "Home" [e1]\nWelcome');
    const many = outline(`<div onclick="route(event)"><p>Feed</p>${'<button>Like</button>'.repeat(21)}</div>`);
    expect(many.split('\n')[0]).to.equal('Feed');
    expect(many).to.not.contain('clickable');
  });

  it('keeps a focusable pane and a name the page gave: no ref for the pane, the listbox keeps "Cities"', () => {
    expect(outline('<div tabindex="0"><p>Inbox</p><button>Archive</button></div>')).to.equal('Inbox\n- button "Archive" [e1]');
    expect(outline('<div role="listbox" aria-label="Cities"><div role="option">Paris</div></div>')).to.equal('- listbox "Cities" [e2]\n  - option "Paris" [e1]');
  });

  it('outlines slotted content once, under its slot, named and default slots without fallback content too', () => {
    const { tw, document } = load('<x-panel><span slot="title">Billing</span><button>Pay</button><a slot="actions" href="#help">Help</a></x-panel>');
    const host = /** @type {Element} */ (document.querySelector('x-panel'));
    host.attachShadow({ mode: 'open' }).innerHTML = '<h2><slot name="title"></slot></h2><div><slot></slot></div><div class="actions"><slot name="actions"></slot></div>';
    expect(tw.outline.build().text).to.equal('- heading "Billing" [level=2]\n- button "Pay" [e1]\n- link "Help" [e2]');
  });

  it('finds every element 50 shadow roots deep for re-binding, without recursion', () => {
    const { tw, document } = load('<div id="deep"></div>');
    let host = /** @type {Element} */ (document.getElementById('deep'));
    for (let i = 0; i < 50; i++) { const root = host.attachShadow({ mode: 'open' }); host = document.createElement('div'); root.append(host); }
    host.innerHTML = '<button>Bottom</button>';
    expect(tw.outline.build().text).to.equal('- button "Bottom" [e1]');
    expect(tw.refs.allElements(document).filter((/** @type {Element} */ e) => e.localName === 'button')).to.have.length(1);
  });
});

describe('select options (content/select-options.js)', () => {
  it('lists a single select\'s options with the selected and disabled ones marked', () => {
    expect(outline('<select aria-label="Size"><option>S</option><option selected>M</option><option disabled>XL</option></select>'))
      .to.equal('- combobox "Size" value="M" options: S | M [selected] | XL [disabled] [e1]');
  });

  it('marks every selected option of a multiple select', () => {
    expect(outline('<select aria-label="Toppings" multiple><option selected>Cheese</option><option>Ham</option><option selected>Olives</option></select>'))
      .to.equal('- listbox "Toppings" value="Cheese, Olives" options: Cheese [selected] | Ham | Olives [selected] [e1]');
  });

  it('caps a long list at ten, keeps a selected option from further down, and says select_option takes any label', () => {
    const options = Array.from({ length: 30 }, (_, i) => `<option${i === 24 ? ' selected' : ''}>Year ${2000 + i}</option>`).join('');
    expect(outline(`<select aria-label="Year">${options}</select>`)).to.equal(`- combobox "Year" value="Year 2024" options: ${
      Array.from({ length: 10 }, (_, i) => `Year ${2000 + i}`).join(' | ')} | … | Year 2024 [selected] | +19 more (select_option takes any label) [e1]`);
  });

  it('names each optgroup before its first option, and marks a disabled group once', () => {
    expect(outline('<select aria-label="Food"><optgroup label="Fruit"><option>Apple</option><option selected>Pear</option></optgroup>'
      + '<optgroup label="Vegetables" disabled><option>Carrot</option><option>Leek</option></optgroup><option>Other</option></select>'))
      .to.equal('- combobox "Food" value="Pear" options: Fruit: Apple | Pear [selected] | Vegetables [disabled]: Carrot | Leek | Other [e1]');
  });

  it('does not tell which option of a secret field is selected', () => {
    const text = outline('<select aria-label="Card" autocomplete="cc-number"><option>4111</option><option selected>5500</option></select>');
    expect(text).to.equal('- combobox "Card" value="••••••" options: 4111 | 5500 [e1]');
  });
});
