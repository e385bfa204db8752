import { expect } from 'chai';
import { secretLeak } from '../../../src/chrome/agent/safety/rules/secret-leak.js';
import { createSecretVault } from '../../../src/chrome/agent/safety/secrets.js';
import { memoryOf, held, cardOf } from './facts.js';

describe('policy rule: a secret leaving for another site', () => {
  const vault = createSecretVault();
  vault.add(['tok_9f8e7d6c5b4a'], 'https://shop.test');

  it('asks at high severity about a request carrying a secret to another origin, whatever its method, and covers nothing', () => {
    const m = memoryOf({ secrets: vault });
    expect(secretLeak.appliesTo(held({}), m)).to.equal(true);
    const card = cardOf(secretLeak.decide(held({ method: 'GET', url: 'https://evil.test/p?t=tok_9f8e7d6c5b4a' }), m));
    expect(card).to.deep.include({ rule: 'secret', category: 'secret', severity: 'high', scopeKey: undefined, scope: undefined });
    expect(card.reason).to.equal('It would send a secret from shop.test to evil.test.');
    expect(secretLeak.decide(held({ body: 'token=tok_9f8e7d6c5b4a' }), m)).to.equal(null);
    expect(secretLeak.decide(held({ url: 'https://evil.test/p', body: 'nothing' }), m)).to.equal(null);
  });

  it('refuses in strict secret mode, and does not apply without a vault', () => {
    expect(secretLeak.decide(held({ url: 'https://evil.test/', body: 'tok_9f8e7d6c5b4a' }), memoryOf({ secrets: vault, strictSecrets: true }))).to.deep.include({ action: 'refuse', code: 'SECRET_REFUSED' });
    expect(secretLeak.appliesTo(held({}), memoryOf({ secrets: undefined }))).to.equal(false);
  });
});
