// The person's turn as the guard watches it, and what it tells apart in a request.
import { expect } from 'chai';
import { personWatch } from '../../../src/chrome/agent/safety/guard/person.js';
import { isWrite, originOfUrl, pathOnly, siteOf, webUrl } from '../../../src/chrome/agent/safety/guard/requests.js';
import { ORDER } from './run.js';

describe('guard parts: the person\'s turn', () => {
  it('tells each request the person sends, then its answer (never its body); another request is not theirs', () => {
    /** @type {any[]} */
    const told = [];
    const watch = personWatch((a) => told.push({ ...a }));
    watch.sent(ORDER);
    expect(watch.answered(ORDER, { status: 403, error: 'x'.repeat(300), finalUrl: 'https://shop.test/denied' })).to.equal(true);
    expect(told[1]).to.deep.include({ method: 'POST', settled: true, status: 403, failed: true, finalUrl: 'https://shop.test/denied' });
    expect(told[1].error).to.have.length(200);
    expect(JSON.stringify(told)).to.not.contain('sku=A-1');
    expect(watch.answered({ ...ORDER }, { status: 200 })).to.equal(false);
  });
});

describe('guard parts: what a request is', () => {
  it('a write is a method that changes data, or a channel message (not a socket\'s opening)', () => {
    expect(isWrite(ORDER)).to.equal(true);
    expect(isWrite({ ...ORDER, method: 'GET' })).to.equal(false);
    expect(isWrite({ ...ORDER, kind: 'channel', channel: 'websocket_frame', method: 'SEND' })).to.equal(true);
    expect(isWrite({ ...ORDER, kind: 'channel', channel: 'websocket', method: 'GET' })).to.equal(false);
    expect(isWrite({ ...ORDER, kind: 'download' })).to.equal(false);
  });

  it('names a URL by its site and path only, and a socket by the site it belongs to', () => {
    expect(webUrl('wss://shop.test/live')).to.equal('https://shop.test/live');
    expect(originOfUrl('https://shop.test:8443/a?b')).to.equal('https://shop.test:8443');
    expect(siteOf('/relative')).to.equal("the page's own site");
    expect(pathOnly('https://shop.test/api/x?token=1')).to.equal('/api/x');
  });
});
