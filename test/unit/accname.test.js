// The accessible-name computation (content/accname.js) against examples from the W3C accname 1.2
// specification, HTML-AAM and its tricky corners, run on jsdom.
import { expect } from 'chai';
import { loadContent } from './content-dom.js';

/** @param {string} html @param {string} [selector] */
function nameOf(html, selector = '#t') {
  const { document, tw } = loadContent(html);
  const el = document.querySelector(selector);
  if (!el) throw new Error(`no ${selector} in ${html}`);
  return tw.accname.name(el);
}

/** [title, html, expected name] */
const CASES = [
  // Step 2B: aria-labelledby
  ['labelledby one element', '<span id="a">Billing</span><input id="t" aria-labelledby="a">', 'Billing'],
  ['labelledby several ids, in order', '<span id="a">Billing</span><span id="b">Name</span><input id="t" aria-labelledby="b a">', 'Name Billing'],
  ['labelledby beats aria-label', '<span id="a">From ref</span><button id="t" aria-labelledby="a" aria-label="From label">x</button>', 'From ref'],
  ['labelledby beats label[for]', '<span id="a">Ref</span><label for="t">Label</label><input id="t" aria-labelledby="a">', 'Ref'],
  ['labelledby to a missing id falls through', '<button id="t" aria-labelledby="nope">Content</button>', 'Content'],
  ['labelledby chain is not followed twice (spec example)', '<span id="a" aria-labelledby="b">A text</span><span id="b">B text</span><button id="t" aria-labelledby="a">x</button>', 'A text'],
  ['labelledby referencing itself and another', '<a id="t" href="#" aria-labelledby="t b">Delete</a><span id="b">file.txt</span>', 'Delete file.txt'],
  ['labelledby to a hidden element still names', '<span id="a" hidden>Hidden label</span><button id="t" aria-labelledby="a">x</button>', 'Hidden label'],
  ['labelledby to display:none element', '<span id="a" style="display:none">Secret <b>bold</b></span><button id="t" aria-labelledby="a">x</button>', 'Secret bold'],
  ['labelledby to visible element skips its hidden children', '<span id="a">Shown <span hidden>gone</span>text</span><button id="t" aria-labelledby="a">x</button>', 'Shown text'],
  ['labelledby to aria-hidden element still names', '<span id="a" aria-hidden="true">Ghost</span><input id="t" aria-labelledby="a">', 'Ghost'],
  ['labelledby uses aria-label of the referenced node', '<span id="a" aria-label="Label of a">content a</span><input id="t" aria-labelledby="a">', 'Label of a'],
  ['labelledby with embedded textbox value', '<div id="a">Flash the screen <input value="3"> times</div><input id="t" type="checkbox" aria-labelledby="a">', 'Flash the screen 3 times'],
  // Step 2C: embedded controls
  ['label with embedded select', '<label for="t">Flash <select><option>1</option><option selected>5</option></select> times</label><input id="t" type="checkbox">', 'Flash 5 times'],
  ['label with embedded range input', '<label for="t">Volume <input type="range" value="7" min="0" max="10"></label><input id="t" type="checkbox">', 'Volume 7'],
  ['label with embedded aria slider', '<label>Speed <span role="slider" aria-valuenow="4" aria-valuetext="fast"></span><input id="t" type="checkbox"></label>', 'Speed fast'],
  ['label with embedded aria combobox', '<label>Size <div role="combobox"><div role="option" aria-selected="true">Large</div></div> <input id="t" type="checkbox"></label>', 'Size Large'],
  // Step 2D: aria-label
  ['aria-label on a button', '<button id="t" aria-label="Close">×</button>', 'Close'],
  ['whitespace-only aria-label is ignored', '<button id="t" aria-label="  ">Save</button>', 'Save'],
  ['aria-label beats label[for]', '<label for="t">Label</label><input id="t" aria-label="Aria">', 'Aria'],
  ['aria-label on a link beats content', '<a id="t" href="#" aria-label="Home page">Home</a>', 'Home page'],
  // Step 2E: host language labels
  ['label[for]', '<label for="t">Email</label><input id="t" type="email">', 'Email'],
  ['wrapping label', '<label>Username <input id="t"></label>', 'Username'],
  ['label[for] and a wrapping label together', '<label for="t">First</label><label>Second <input id="t"></label>', 'First Second'],
  ['two label[for] elements', '<label for="t">A</label><label for="t">B</label><input id="t">', 'A B'],
  ['label with hidden part', '<label for="t">Name <span style="display:none">(secret)</span></label><input id="t">', 'Name'],
  ['textarea label', '<label for="t">Comment</label><textarea id="t"></textarea>', 'Comment'],
  ['select label', '<label for="t">Country</label><select id="t"><option>France</option></select>', 'Country'],
  ['submit input value', '<input id="t" type="submit" value="Send">', 'Send'],
  ['submit input default', '<input id="t" type="submit">', 'Submit'],
  ['reset input default', '<input id="t" type="reset">', 'Reset'],
  ['button input with empty value has no name', '<input id="t" type="button">', ''],
  ['image input alt', '<input id="t" type="image" alt="Go" src="x.png">', 'Go'],
  ['image input without alt defaults to Submit', '<input id="t" type="image" src="x.png">', 'Submit'],
  ['img alt', '<img id="t" alt="Company logo" src="x.png">', 'Company logo'],
  ['img alt empty, title used', '<img id="t" alt="" title="Tip" src="x.png">', 'Tip'],
  ['fieldset legend', '<fieldset id="t"><legend>Shipping address</legend><input></fieldset>', 'Shipping address'],
  ['figure figcaption', '<figure id="t"><img alt="x" src="x.png"><figcaption>Chart of sales</figcaption></figure>', 'Chart of sales'],
  ['table caption', '<table id="t"><caption>Prices</caption><tr><td>1</td></tr></table>', 'Prices'],
  ['svg title', '<button id="t"><svg><title>Search</title><path d="M0 0"/></svg></button>', 'Search'],
  ['button label[for] beats content', '<label for="t">Labelled</label><button id="t">Content</button>', 'Labelled'],
  // Step 2F/2H: name from content
  ['button content', '<button id="t">Save draft</button>', 'Save draft'],
  ['link content with nested elements', '<a id="t" href="#">Read <em>more</em> about it</a>', 'Read more about it'],
  ['icon-only button uses img alt', '<button id="t"><img src="x.png" alt="Settings"></button>', 'Settings'],
  ['content skips aria-hidden icon', '<button id="t"><span aria-hidden="true">★</span> Favourite</button>', 'Favourite'],
  ['content skips display:none text', '<a id="t" href="#">Next <span style="display:none">page 2</span></a>', 'Next'],
  ['content includes aria-label of a child', '<button id="t"><span aria-label="Delete"></span> row</button>', 'Delete row'],
  ['block children are separated by spaces', '<a id="t" href="#"><div>Title</div><div>Subtitle</div></a>', 'Title Subtitle'],
  ['heading content', '<h2 id="t">Latest <span>news</span></h2>', 'Latest news'],
  ['div has no name from content', '<div id="t">Just text</div>', ''],
  ['role=button div named by content', '<div id="t" role="button">Open menu</div>', 'Open menu'],
  // Step 2I and fallbacks
  ['title as last resort', '<button id="t" title="Print"></button>', 'Print'],
  ['input title before placeholder', '<input id="t" title="Search site" placeholder="Search…">', 'Search site'],
  ['placeholder fallback', '<input id="t" placeholder="Your email">', 'Your email'],
  ['label beats placeholder', '<label for="t">Email</label><input id="t" placeholder="you@example.com">', 'Email'],
  ['link with only title', '<a id="t" href="#" title="Twitter"><svg></svg></a>', 'Twitter'],
  ['presentational role has no name', '<img id="t" role="presentation" alt="" src="x.png">', ''],
  ['whitespace collapsed', '<button id="t">  Save\n\n   changes  </button>', 'Save changes'],
];

describe('accname (content/accname.js)', () => {
  for (const [title, html, expected] of CASES) {
    it(title, () => {
      expect(nameOf(html)).to.equal(expected);
    });
  }

  it('shadow DOM content counts', () => {
    const { document, tw } = loadContent('<div id="t" role="button"></div>');
    const root = /** @type {Element} */ (document.querySelector('#t')).attachShadow({ mode: 'open' });
    root.innerHTML = '<span>Shadow label</span>';
    expect(tw.accname.name(document.querySelector('#t'))).to.equal('Shadow label');
  });

  it('slotted light content names the host', () => {
    const { document, tw } = loadContent('<div id="t" role="button"><span>Slotted</span></div>');
    const root = /** @type {Element} */ (document.querySelector('#t')).attachShadow({ mode: 'open' });
    root.innerHTML = '<b>Go: </b><slot></slot>';
    expect(tw.accname.name(document.querySelector('#t'))).to.equal('Go: Slotted');
  });

  it('aria-labelledby resolves ids inside the same shadow root', () => {
    const { document, tw } = loadContent('<div id="host"></div><span id="outer">Outer</span>');
    const root = /** @type {Element} */ (document.querySelector('#host')).attachShadow({ mode: 'open' });
    root.innerHTML = '<span id="inner">Inner</span><input id="t" aria-labelledby="inner outer">';
    expect(tw.accname.name(/** @type {Element} */ (root.querySelector('#t')))).to.equal('Inner');
  });

  it('a labelledby cycle ends', () => {
    expect(nameOf('<span id="a" aria-labelledby="t">A</span><button id="t" aria-labelledby="a">B</button>')).to.equal('A');
  });

  it('aria-describedby gives the description', () => {
    const { document, tw } = loadContent('<input id="t" aria-describedby="d"><p id="d">At least 8 characters</p>');
    expect(tw.accname.description(document.querySelector('#t'))).to.equal('At least 8 characters');
  });
});
