import { expect } from 'chai';
import { typedSecret } from '../../../src/chrome/agent/safety/rules/typed-secret.js';
import { createSecretVault } from '../../../src/chrome/agent/safety/secrets.js';
import { memoryOf, call, cardOf } from './facts.js';

describe('policy rule: typing a secret', () => {
  const vault = createSecretVault();
  vault.add(['s3cret-Passw0rd'], 'https://shop.test');
  const typing = (/** @type {string} */ text, secretField = false, url = 'https://shop.test/login') => call({ tool: 'type', effects: ['acts_on_page', 'touches_secrets'], url, args: { text }, target: { role: 'textbox', name: 'Password', secretField } });

  it('passes a secret typed into a secret field of its own site, and text with no secret', () => {
    const m = memoryOf({ secrets: vault });
    expect(typedSecret.appliesTo(typing('x'), m)).to.equal(true);
    expect(typedSecret.appliesTo(typing('x'), memoryOf({ secrets: undefined }))).to.equal(false);
    expect(typedSecret.decide(typing('s3cret-Passw0rd', true), m)).to.equal(null);
    expect(typedSecret.decide(typing('hello'), m)).to.equal(null);
  });

  it('asks, masked, about a secret typed anywhere else, and refuses in strict secret mode', () => {
    const card = cardOf(typedSecret.decide(typing('s3cret-Passw0rd', false, 'https://forum.test/post'), memoryOf({ secrets: vault })));
    expect(card).to.deep.include({ rule: 'secret', severity: 'high', action: 'Type a secret into textbox "Password"', site: 'forum.test' });
    expect(card.details[0].value).to.not.contain('s3cret');
    expect(card.reason).to.contain('a secret from shop.test');
    expect(typedSecret.decide(typing('s3cret-Passw0rd', true, 'https://forum.test/login'), memoryOf({ secrets: vault, strictSecrets: true }))).to.deep.include({ action: 'refuse', code: 'SECRET_REFUSED' });
  });
});
