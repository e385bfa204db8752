import { expect } from 'chai';
import { pageTool } from '../../../src/chrome/agent/safety/rules/page-tool.js';
import { memoryOf, call, cardOf } from './facts.js';

describe("policy rule: a page's own tool", () => {
  it('asks about every call, showing each input', () => {
    const m = memoryOf();
    expect(pageTool.appliesTo(call({ effects: ['calls_page_tool'] }), m)).to.equal(true);
    expect(pageTool.appliesTo(call({}), m)).to.equal(false);
    const card = cardOf(pageTool.decide(call({ tool: 'call_page_tool', args: { name: 'addToCart', input: { sku: 'A-1', qty: 2 } } }), m));
    expect(card).to.deep.include({ rule: 'page_tool', severity: 'normal', action: 'Call the page\'s tool "addToCart"', site: 'shop.test' });
    expect(card.details).to.deep.equal([{ label: 'sku', value: 'A-1' }, { label: 'qty', value: '2' }]);
  });
});
