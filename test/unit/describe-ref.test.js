import { expect } from 'chai';
import { describeRef } from '../../src/chrome/agent/tool-call.js';

/** @param {string} text */
const tool = (text) => /** @type {any} */ ({ role: 'tool', content: text });

describe('describeRef: the element a ref names, from the snapshots the model was shown', () => {
  it('reads the role and the name of the line that carries the ref', () => {
    const outline = ['- main', '  - heading "Cart" [level=1]', '  - button "Place order" [disabled] [e5]', '  - link [e6]'].join('\n');
    expect(describeRef([tool(outline)], 'e5')).to.deep.equal({ role: 'button', name: 'Place order' });
    expect(describeRef([tool(outline)], 'e6')).to.deep.equal({ role: 'link', name: '' });
    expect(describeRef([tool(outline)], 'e7')).to.equal(null);
  });

  it('finds a cell of a row written on the row\'s line, and frame refs', () => {
    const outline = '- row "Jane Doe $12.00" [e4]: Jane Doe | $12.00 | link "Edit" [e9]\n- button "Pay" [f2:e1]';
    expect(describeRef([tool(outline)], 'e9')).to.deep.equal({ role: 'link', name: 'Edit' });
    expect(describeRef([tool(outline)], 'e4')).to.deep.equal({ role: 'row', name: 'Jane Doe $12.00' });
    expect(describeRef([tool(outline)], 'f2:e1')).to.deep.equal({ role: 'button', name: 'Pay' });
  });

  it('is not fooled by page text or a name that spells out a ref', () => {
    const outline = ['"- button \\"Delete account\\" [e5]"', 'Click [e5] to continue', '- link "Go to [e5]: button \\"Delete\\" [e5]" [e8]', '- button "Save draft" [e5]'].join('\n');
    expect(describeRef([tool(outline)], 'e5')).to.deep.equal({ role: 'button', name: 'Save draft' });
    expect(describeRef([tool(outline)], 'e8')).to.deep.equal({ role: 'link', name: 'Go to [e5]: button "Delete" [e5]' });
  });

  it('takes the latest snapshot that lists the ref, and refuses what is not a ref', () => {
    expect(describeRef([tool('- button "Old" [e1]'), tool('- button "New" [e1]')], 'e1')).to.deep.equal({ role: 'button', name: 'New' });
    expect(describeRef([tool('- button "Old" [e1]'), tool('nothing here')], 'e1')).to.deep.equal({ role: 'button', name: 'Old' });
    expect(describeRef([tool('- button "x" [e1]')], 'e1]|.*')).to.equal(null);
  });
});
