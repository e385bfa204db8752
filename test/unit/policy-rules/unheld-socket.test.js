import { expect } from 'chai';
import { unheldSocket, unheldSocketVerdict } from '../../../src/chrome/agent/safety/rules/unheld-socket.js';
import { memoryOf, held, cardOf } from './facts.js';

describe("policy rule: a worker's socket nothing can hold", () => {
  const socket = held({ kind: 'request', method: 'GET', type: 'websocket', url: 'wss://live.test/feed#x', framesUnheld: true, source: 'worker', initiator: 'https://shop.test/w.js' });

  it('asks at high severity before it opens, naming the worker; "Allow for this task" covers that socket', () => {
    const m = memoryOf();
    expect(unheldSocket.appliesTo(socket, m)).to.equal(true);
    expect(unheldSocket.appliesTo(held({}), m)).to.equal(false);
    const card = cardOf(unheldSocket.decide(socket, m));
    expect(card).to.deep.include({ rule: 'server_write', severity: 'high', action: 'Open a WebSocket to wss://live.test/feed from a worker of the page', scopeKey: 'socket worker wss://live.test/feed' });
    expect(card.details).to.deep.equal([{ label: 'socket', value: 'wss://live.test/feed' }, { label: 'worker', value: 'https://shop.test/w.js' }]);
    m.allowedWrites.set('socket worker wss://live.test/feed', 'high');
    expect(unheldSocket.decide(socket, m)).to.deep.equal({ action: 'allow' });
  });

  it('asks before a step acts while one opened before the run may be open', () => {
    const card = cardOf(unheldSocketVerdict(memoryOf(), { ...socket.req, openBefore: true, source: 'service_worker' }, { cause: 'click' }));
    expect(card.action).to.equal("Act on the page while the site's service or shared worker keeps a WebSocket to wss://live.test/feed open");
  });
});
