import { expect } from 'chai';
import { fetchWrite } from '../../../src/chrome/agent/safety/rules/fetch-write.js';
import { memoryOf, call, cardOf } from './facts.js';

describe("policy rule: the agent's own write", () => {
  const m = memoryOf();
  const post = (/** @type {string} */ url) => call({ tool: 'fetch_url', effects: ['writes_server'], args: { url, method: 'post', body: '{"qty":2}' } });

  it('asks about every write fetch_url sends: normal inside the task, high outside, with its fields', () => {
    expect(fetchWrite.appliesTo(post('https://shop.test/api'), m)).to.equal(true);
    expect(fetchWrite.appliesTo(call({ effects: ['reads_page'] }), m)).to.equal(false);
    const inside = cardOf(fetchWrite.decide(post('https://shop.test/api/cart'), m));
    expect(inside).to.deep.include({ rule: 'fetch_write', severity: 'normal', action: 'POST to https://shop.test/api/cart', site: 'shop.test' });
    expect(inside.details).to.deep.equal([{ label: 'qty', value: '2' }]);
    expect(cardOf(fetchWrite.decide(post('https://other.test/api'), m)).severity).to.equal('high');
  });
});
