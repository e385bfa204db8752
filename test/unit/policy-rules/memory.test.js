// What the policy remembers, and the card parts the rules share.
import { expect } from 'chai';
import { covers, inScope, typedIn } from '../../../src/chrome/agent/safety/policy-memory.js';
import { pageDataInUrl, sentText, carriesTyped } from '../../../src/chrome/agent/safety/rules/carried-data.js';
import { unheldStepRequest, unreadableBody, writeRequest } from '../../../src/chrome/agent/safety/rules/cards.js';
import { memoryOf, held, PAGE } from './facts.js';

describe('policy memory and card parts', () => {
  it('"Allow for this task" at high covers normal too; at normal, not high', () => {
    const m = memoryOf();
    m.allowedWrites.set('a', 'normal');
    m.allowedWrites.set('b', 'high');
    expect([covers(m, 'a', 'normal'), covers(m, 'a', 'high'), covers(m, 'b', 'high'), covers(m, 'c', 'normal')]).to.deep.equal([true, false, true, false]);
  });

  it('remembers the scope by origin until it is cleared, and finds what the agent typed in a value', () => {
    const m = memoryOf();
    expect(inScope(m, 'https://other.test/a')).to.equal(false);
    m.scope.add('https://other.test');
    expect(inScope(m, 'https://other.test/b')).to.equal(false);
    m.scopeCache.clear();
    expect(inScope(m, 'https://other.test/b')).to.equal(true);
    m.known.push('Jane', 'xy');
    expect(typedIn(m, 'Dear jane,')).to.deep.equal(['Jane']);
    expect(typedIn(m, 'XY')).to.deep.equal(['xy']);
  });

  it('names the data a URL or a body carries', () => {
    const m = memoryOf();
    m.known.push('Jane Q. Public');
    expect(pageDataInUrl(m, 'https://x.test/?n=Jane%20Q.%20Public&e=a@b.test', PAGE).map((d) => d.label)).to.have.members(['what the agent typed', 'an e-mail address']);
    const sent = sentText(held({ body: 'n=Jane%20Q.%20Public', url: 'https://x.test/' }).req);
    expect(carriesTyped(m, sent)).to.equal(true);
  });

  it('builds the card of a write (what the task allowance would cover) and of a step nothing can hold', () => {
    const m = memoryOf();
    const card = writeRequest(m, held({ url: 'https://shop.test/api/order?x=1', body: 'sku=A-1&qty=2' }).req, { pageUrl: PAGE, cause: 'click', target: { role: 'button', name: 'Delete account' } });
    expect(card).to.deep.include({ category: 'delete', severity: 'high', action: 'POST to https://shop.test/api/order?x=1', cause: 'click' });
    expect(card.scope).to.deep.include({ kind: 'write', site: 'shop.test', method: 'POST', path: '/api/order' });
    expect(unreadableBody(held({ body: 'plain' }).req)).to.equal('');
    expect(unheldStepRequest({ pageUrl: PAGE, cause: 'click button "Go"', target: null })).to.deep.include({ rule: 'server_write', severity: 'normal', action: 'click button "Go"', site: 'shop.test' });
  });
});
