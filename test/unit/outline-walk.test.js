// The outline walk's steps (content/outline.js walk and the functions it calls), each through
// build() on jsdom: an empty element kept or dropped, a plain wrapper's own text, fields not
// descended, a heading that holds a control, an SVG image, a canvas's fallback controls.
import { expect } from 'chai';
import { loadContent } from './content-dom.js';

const FILES = ['dom.js', 'roles.js', 'accname.js', 'actionable.js', 'refs.js', 'listeners.js', 'frames.js', 'outline-budget.js', 'ref-rule.js', 'select-options.js', 'outline.js', 'capabilities.js'];
/** @param {string} html */
const outline = (html) => /** @type {{ text: string }} */ (loadContent(html, FILES).tw.outline.build()).text;

describe('outline walk steps (content/outline.js)', () => {
  it('drops an empty element with nothing to say, keeps an empty one with a role', () => {
    expect(outline('<div></div><span></span><p>x</p>')).to.equal('x');
    expect(outline('<div role="button" aria-label="Close"></div>')).to.match(/^- button "Close" \[e1\]$/);
  });

  it('shows a plain wrapper\'s own text and walks its element children', () => {
    expect(outline('<div>one <span>two</span> three</div>')).to.equal('one two three');
  });

  it('never descends into a field, and a heading holding a control keeps the control', () => {
    expect(outline('<textarea>draft text</textarea>')).to.not.contain('draft text\n');
    expect(outline('<h2>Title <a href="/x">link</a></h2>')).to.contain('- link "link" [e1]');
  });

  it('shows a named SVG image, and a canvas by its fallback controls', () => {
    expect(outline('<svg role="img" aria-label="Logo"></svg>')).to.contain('img "Logo"');
    expect(outline('<canvas><button>Draw</button></canvas>')).to.match(/- button "Draw" \[e1\]/);
  });
});
