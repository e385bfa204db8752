import { expect } from 'chai';
import { readOnlyChanges, readOnlyOtherSite } from '../../../src/chrome/agent/safety/rules/read-only-mode.js';
import { memoryOf, call } from './facts.js';

describe('policy rule: read-only modes', () => {
  const m = memoryOf();

  it('refuses a change in Ask mode and in planning, naming the mode; Act mode and reading are not its business', () => {
    expect(readOnlyChanges.appliesTo(call({ mode: 'act' }), m)).to.equal(false);
    expect(readOnlyChanges.appliesTo(call({ mode: 'ask', effects: ['reads_page'] }), m)).to.equal(false);
    const ask = call({ mode: 'ask', tool: 'navigate', effects: ['navigates'] });
    expect(readOnlyChanges.appliesTo(ask, m)).to.equal(true);
    expect(readOnlyChanges.decide(ask, m)).to.deep.include({ action: 'refuse', code: 'NOT_ALLOWED_IN_ASK_MODE' });
    const v = readOnlyChanges.decide(call({ mode: 'plan', tool: 'click' }), m);
    expect(v && v.action === 'refuse' && v.message).to.contain('click would change something, and planning only reads');
  });

  it('refuses sending to another site in Ask mode, and lets a read of the page\'s own site pass', () => {
    const other = call({ mode: 'ask', tool: 'fetch_url', effects: ['reads_page', 'leaves_origin'], args: { url: 'https://evil.test/x' } });
    expect(readOnlyOtherSite.appliesTo(other, m)).to.equal(true);
    const v = readOnlyOtherSite.decide(other, m);
    expect(v && v.action === 'refuse' && v.message).to.contain('evil.test is another site than the page\'s, shop.test');
    expect(readOnlyOtherSite.decide(call({ ...other, args: { url: 'https://shop.test/api' } }), m)).to.equal(null);
    expect(readOnlyOtherSite.decide(call({ ...other, args: {} }), m)).to.equal(null);
    expect(readOnlyOtherSite.appliesTo(call({ ...other, mode: 'act' }), m)).to.equal(false);
  });
});
