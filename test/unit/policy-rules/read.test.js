import { expect } from 'chai';
import { navigationRead, subresourceRead } from '../../../src/chrome/agent/safety/rules/read.js';
import { memoryOf, held, cardOf } from './facts.js';

describe('policy rules: reads a step caused', () => {
  it('apply to GETs (not a beacon): a navigation, or a subresource', () => {
    const m = memoryOf();
    expect(navigationRead.appliesTo(held({ method: 'GET', type: 'document', topLevel: true }), m)).to.equal(true);
    expect(navigationRead.appliesTo(held({ method: 'GET', type: 'image' }), m)).to.equal(false);
    expect(subresourceRead.appliesTo(held({ method: 'GET', type: 'image' }), m)).to.equal(true);
    expect(subresourceRead.appliesTo(held({ method: 'GET', type: 'beacon' }), m)).to.equal(false);
    expect(subresourceRead.appliesTo(held({ method: 'POST' }), m)).to.equal(false);
  });

  it('lets a navigation inside the task go, asks about one outside it, and one the person already allowed goes once', () => {
    const m = memoryOf();
    const nav = (/** @type {string} */ url) => held({ method: 'GET', type: 'document', topLevel: true, url });
    expect(navigationRead.decide(nav('https://shop.test/orders'), m)).to.deep.equal({ action: 'allow' });
    expect(cardOf(navigationRead.decide(nav('https://elsewhere.test/'), m)).rule).to.equal('leave_scope');
    m.approvedUrls.add('https://elsewhere.test/');
    expect(navigationRead.decide(nav('https://elsewhere.test/#top'), m)).to.deep.equal({ action: 'allow' });
    expect(cardOf(navigationRead.decide(nav('https://elsewhere.test/'), m)).rule).to.equal('leave_scope');
  });

  it('asks when a subresource carries page data to another site; plain ones and the page\'s own go', () => {
    const m = memoryOf();
    m.page.note(['Ship to jane@example.test']);
    const img = (/** @type {string} */ url) => held({ method: 'GET', type: 'image', url });
    expect(subresourceRead.decide(img('https://cdn.test/logo.png'), m)).to.deep.equal({ action: 'allow' });
    expect(subresourceRead.decide(img('https://shop.test/p?m=jane@example.test'), m)).to.deep.equal({ action: 'allow' });
    const card = cardOf(subresourceRead.decide(img('https://track.test/p?m=jane@example.test'), m));
    expect(card).to.deep.include({ rule: 'data_in_url', severity: 'high', action: 'Load image from https://track.test/p?m=jane@example.test' });
    expect(card.reason).to.contain('The page would load image from track.test, another site, with data in its address');
  });
});
