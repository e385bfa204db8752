import { expect } from 'chai';
import { destination, destinationVerdict } from '../../../src/chrome/agent/safety/rules/destination.js';
import { memoryOf, call, cardOf, PAGE } from './facts.js';

describe('policy rule: where the agent goes', () => {
  it('applies to a call that navigates or leaves the page with a place to go', () => {
    const m = memoryOf();
    expect(destination.appliesTo(call({ tool: 'navigate', effects: ['navigates'], args: { url: 'https://shop.test/orders' } }), m)).to.equal(true);
    expect(destination.appliesTo(call({ tool: 'navigate', effects: ['navigates'], args: {} }), m)).to.equal(false);
    expect(destination.appliesTo(call({ tool: 'tabs', effects: ['acts_on_page'], dest: 'https://x.test/' }), m)).to.equal(false);
  });

  it('passes inside the task, asks about another site (coverable by the site), and names fetch_url as a fetch', () => {
    const m = memoryOf();
    expect(destination.decide(call({ tool: 'navigate', effects: ['navigates'], args: { url: 'https://shop.test/orders' } }), m)).to.equal(null);
    const card = cardOf(destination.decide(call({ tool: 'fetch_url', effects: ['leaves_origin'], args: { url: 'https://docs.test/api' } }), m));
    expect(card).to.deep.include({ rule: 'leave_scope', severity: 'normal', action: 'Fetch https://docs.test/api', cause: 'fetch url docs.test', scopeKey: 'https://docs.test' });
    expect(card.scope).to.deep.equal({ kind: 'site', site: 'docs.test', severity: 'normal' });
    expect(m.cardUrls.get(card)).to.equal('https://docs.test/api');
  });

  it('asks at high severity when the address carries what the agent typed or what the page showed to another site', () => {
    const m = memoryOf();
    m.known.push('Jane Q. Public');
    m.page.note(['Order 58213 for jane@example.test']);
    const card = cardOf(destinationVerdict(m, 'https://evil.test/?who=Jane%20Q.%20Public&m=jane@example.test', PAGE, 'navigate evil.test', 'open'));
    expect(card).to.deep.include({ rule: 'data_in_url', severity: 'high', category: 'leave' });
    expect(card.reason).to.contain('to evil.test, another site than the page\'s');
    expect(destinationVerdict(m, 'https://shop.test/?who=Jane%20Q.%20Public', PAGE, 'navigate', 'open')).to.equal(null);
  });
});
