import { expect } from 'chai';
import { classify, createConfirmPolicy, describeRef } from '../../src/chrome/agent/confirm-policy.js';

/** @param {string} name @param {string} [url] @param {string} [tool] @param {Record<string, any>} [args] */
const facts = (name, url = 'https://shop.test/cart', tool = 'click', args = {}) => ({ tool, args, target: name ? { role: 'button', name } : null, url });

describe('confirmation policy', () => {
  it('names the category, the action and the site of consequential clicks', () => {
    expect(classify(facts('Place order'))).to.deep.equal({ category: 'checkout', site: 'shop.test', action: 'Click button "Place order"' });
    expect(classify(facts('Pay now'))?.category).to.equal('checkout');
    expect(classify(facts('Buy now'))?.category).to.equal('checkout');
    expect(classify(facts('Send'))?.category).to.equal('send');
    expect(classify(facts('Publish post'))?.category).to.equal('publish');
    expect(classify(facts('Delete repository'))?.category).to.equal('delete');
    expect(classify(facts('Change password'))?.category).to.equal('account');
    expect(classify(facts('Save', 'https://app.test/settings/profile'))?.category).to.equal('account');
    expect(classify(facts('', 'https://app.test/account/email', 'type', { submit: true }))?.category).to.equal('account');
  });
  it('stays quiet on ordinary actions', () => {
    for (const name of ['Sign in', 'Next page', 'Search', 'Add filter', 'Show more', 'Save', 'Subscribe to updates']) {
      expect(classify(facts(name)), name).to.equal(null);
    }
    expect(classify(facts('Place order', 'https://shop.test/', 'type', { submit: true }))).to.equal(null);
  });
  it('asks, allows per site after "always allow", and blocks when unattended', () => {
    const p = createConfirmPolicy({ alwaysAllow: ['trusted.test'] });
    expect(p.decide(facts('Place order')).action).to.equal('ask');
    expect(p.decide(facts('Place order', 'https://trusted.test/cart')).action).to.equal('allow');
    p.allow('shop.test');
    expect(p.decide(facts('Place order')).action).to.equal('allow');
    expect(createConfirmPolicy({ unattended: true }).decide(facts('Delete')).action).to.equal('block');
  });
  it('finds what a ref names in the latest snapshot', () => {
    /** @type {import('../../src/chrome/types/core').ChatMessage[]} */
    const messages = [
      { role: 'tool', toolCallId: 'a', name: 'snapshot', content: '- button "Old" [ref=e4]' },
      { role: 'tool', toolCallId: 'b', name: 'snapshot', content: '<untrusted_page_content>\n- heading "Cart"\n  - button "Place order" [ref=e4]\n</untrusted_page_content>' },
    ];
    expect(describeRef(messages, 'e4')).to.deep.equal({ role: 'button', name: 'Place order' });
    expect(describeRef(messages, 'e9')).to.equal(null);
  });
});
