// The write rules: outside the task, a duplicate, and a write inside the task.
import { expect } from 'chai';
import { writeOutOfScope } from '../../../src/chrome/agent/safety/rules/write-out-of-scope.js';
import { duplicateWrite } from '../../../src/chrome/agent/safety/rules/duplicate-write.js';
import { serverWrite } from '../../../src/chrome/agent/safety/rules/write.js';
import { writeSignature } from '../../../src/chrome/agent/safety/request-facts.js';
import { memoryOf, held, cardOf } from './facts.js';

describe('policy rules: writes', () => {
  it('apply to writes only (not reads, downloads, or sockets judged on their own)', () => {
    const m = memoryOf();
    for (const rule of [duplicateWrite, serverWrite]) {
      expect(rule.appliesTo(held({}), m), rule.name).to.equal(true);
      expect(rule.appliesTo(held({ method: 'GET' }), m), rule.name).to.equal(false);
      expect(rule.appliesTo(held({ method: 'GET', type: 'ping' }), m), rule.name).to.equal(true);
      expect(rule.appliesTo(held({ kind: 'download' }), m), rule.name).to.equal(false);
      expect(rule.appliesTo(held({ framesUnheld: true }), m), rule.name).to.equal(false);
    }
    expect(writeOutOfScope.appliesTo(held({ url: 'https://shop.test/api' }), m)).to.equal(false);
    expect(writeOutOfScope.appliesTo(held({ url: 'https://ads.test/t' }), m)).to.equal(true);
  });

  it('outside the task: a third party\'s telemetry that carries nothing goes; what the agent typed, or a write to the page\'s own site, asks', () => {
    const m = memoryOf();
    expect(writeOutOfScope.decide(held({ url: 'https://ads.test/t', body: 'ev=view' }), m)).to.deep.equal({ action: 'allow' });
    m.known.push('Jane Q. Public');
    const card = cardOf(writeOutOfScope.decide(held({ url: 'https://ads.test/t', body: 'name=Jane%20Q.%20Public' }), m));
    expect(card).to.deep.include({ severity: 'high', reason: 'The page would send what the agent typed to ads.test, which is not one of this task\'s sites.' });
    const own = cardOf(writeOutOfScope.decide(held({ url: 'https://other.test/save', body: 'ev=view' }, { pageUrl: 'https://other.test/' }), m));
    expect(own.reason).to.contain('would send a change to other.test');
  });

  it('asks about the same write sent again, and not one never sent', () => {
    const m = memoryOf();
    const order = held({ body: 'sku=A-1' });
    expect(duplicateWrite.decide(order, m)).to.equal(null);
    m.sentWrites.add(writeSignature(order.req));
    const card = cardOf(duplicateWrite.decide(order, m));
    expect(card).to.deep.include({ rule: 'duplicate_write', severity: 'high', scopeKey: undefined });
  });

  it('inside the task: asks, unless allowed for the task or on an always-allowed site; never past an unreadable body or a lookalike', () => {
    const m = memoryOf();
    const order = held({ body: 'sku=A-1' });
    const card = cardOf(serverWrite.decide(order, m));
    expect(card).to.deep.include({ rule: 'server_write', severity: 'normal', reason: 'It changes data on shop.test: a POST request the agent\'s step caused.' });
    m.allowedWrites.set(/** @type {string} */ (card.scopeKey), 'normal');
    expect(serverWrite.decide(order, m)).to.deep.equal({ action: 'allow' });
    const trusted = memoryOf({ alwaysAllow: ['shop.test'] });
    expect(serverWrite.decide(order, trusted)).to.deep.equal({ action: 'allow' });
    const binary = held({ opaque: { bytes: 1234, contentType: 'application/x-protobuf', why: 'binary' } });
    expect(cardOf(serverWrite.decide(binary, trusted)).reason).to.contain('cannot be shown as text (1,234 bytes of application/x-protobuf, binary)');
    const lookalike = held({ body: 'to=paypa1.test' });
    const misread = cardOf(serverWrite.decide(lookalike, memoryOf({ alwaysAllow: ['shop.test'] }, 'pay paypal.test on shop.test')));
    expect(misread.severity).to.equal('high');
    expect(misread.reason).to.contain('"paypa1.test" looks like "paypal.test"');
  });
});
