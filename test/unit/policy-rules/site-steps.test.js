// The rules of the acting page's own site: a sensitive site, and one the person confirms every step on.
import { expect } from 'chai';
import { sensitiveSite } from '../../../src/chrome/agent/safety/rules/sensitive-site.js';
import { siteConfirm } from '../../../src/chrome/agent/safety/rules/site-confirm.js';
import { memoryOf, call, cardOf } from './facts.js';

const click = call({ tool: 'click', target: { role: 'button', name: 'Place order' } });

describe('policy rules: steps on a sensitive site, and on a site confirmed step by step', () => {
  it('asks before every step on a sensitive site, at high severity, the element naming its category', () => {
    const m = memoryOf({ sensitiveSite: (url) => (url.includes('shop.test') ? { name: 'Shop Pay' } : null) });
    expect(sensitiveSite.appliesTo(click, m)).to.equal(true);
    expect(sensitiveSite.appliesTo(call({ effects: ['reads_page'] }), m)).to.equal(false);
    const card = cardOf(sensitiveSite.decide(click, m));
    expect(card).to.deep.include({ rule: 'sensitive_site', severity: 'high', category: 'checkout', action: 'Click button "Place order"' });
    expect(card.reason).to.contain('Shop Pay is a sensitive site');
    expect(sensitiveSite.decide(call({ url: 'https://blog.test/' }), m)).to.equal(null);
    expect(cardOf(sensitiveSite.decide(call({ target: null }), m)).category).to.equal('sensitive');
  });

  it('asks before every step on a site in "always confirm", showing what it types', () => {
    const m = memoryOf({ alwaysConfirm: ['*.shop.test'] });
    expect(siteConfirm.decide(call({ url: 'https://blog.test/' }), m)).to.equal(null);
    const card = cardOf(siteConfirm.decide(call({ tool: 'type', args: { text: 'size 42' }, target: { role: 'textbox', name: 'Note' } }), m));
    expect(card).to.deep.include({ rule: 'site_confirm', severity: 'normal', category: 'site', action: 'Type textbox "Note"' });
    expect(card.details).to.deep.equal([{ label: 'text', value: 'size 42' }]);
  });
});
