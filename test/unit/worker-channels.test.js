// The channel hold in workers: the hook run inside a worker (cdp/worker-hook.js, here in a Node vm
// context standing in for a worker's global), its CDP side (cdp/worker-channels.js, with a fake
// debugger), and how the policy judges a socket whose frames cannot be held (Firefox's workers).
import { expect } from 'chai';
import vm from 'node:vm';
import { workerHook } from '../../src/chrome/cdp/worker-hook.js';
import { createWorkerChannels } from '../../src/chrome/cdp/worker-channels.js';
import { createPolicy } from '../../src/chrome/agent/safety/policy.js';
import { createTaskScope } from '../../src/chrome/agent/safety/scope.js';

/** @import { HeldRequest, HoldHandlers } from '../../src/chrome/types/safety' */

/** A worker's global with a fake WebSocket that records what it sends; the hook installed in it. */
function worker() {
  const told = /** @type {any[]} */ ([]);
  const sent = /** @type {{ url: string, data: unknown }[]} */ ([]);
  const closed = /** @type {string[]} */ ([]);
  class WebSocket extends EventTarget {
    /** @param {string} url */
    constructor(url) { super(); this._url = url; this._state = 0; }
    get url() { return this._url; }
    get readyState() { return this._state; }
    /** @param {unknown} data */
    send(data) { sent.push({ url: this._url, data }); }
    close() { closed.push(this._url); this._state = 3; }
  }
  class WebTransport { constructor() { this.made = true; } close() {} }
  const g = vm.createContext({ EventTarget, MessageEvent, DOMException, Blob, WebSocket, WebTransport, __bind: (/** @type {string} */ s) => told.push(JSON.parse(s)) });
  const control = vm.runInContext(`(${workerHook.toString()})('__bind', true)`, g);
  /** @param {string} code */
  const run = (code) => vm.runInContext(code, g);
  return { told, sent, closed, control, run };
}

describe('channel hold in workers: the hook inside the worker (cdp/worker-hook.js)', () => {
  it('removes its binding from the worker\'s global and looks native', () => {
    const w = worker();
    expect(w.run('typeof __bind')).to.equal('undefined');
    expect(w.run('Function.prototype.toString.call(WebSocket.prototype.send)')).to.contain('send(data)');
    expect(w.run('Function.prototype.toString.call(WebSocket)')).to.contain('class WebSocket');
  });

  it('holds the handshake, then each frame, until answered; a declined frame never leaves', () => {
    const w = worker();
    w.run('globalThis.s = new WebSocket("wss://chat.example/room?id=1"); s._state = 1; s.send("{\\"op\\":\\"invite\\"}"); s.send("second")');
    expect(w.told.map((t) => [t.op, t.what.channel, t.what.method])).to.deep.equal([['send', 'websocket', 'GET']]);
    expect(w.sent).to.deep.equal([]);
    w.control('answer', w.told[0].id, true);
    expect(w.told[1].what).to.deep.include({ channel: 'websocket_frame', method: 'SEND', url: 'wss://chat.example/room?id=1', text: '{"op":"invite"}' });
    w.control('answer', w.told[1].id, false);
    expect(w.sent).to.deep.equal([]);
    expect(w.told[2].what.text).to.equal('second');
    w.control('answer', w.told[2].id, true);
    expect(w.sent.map((x) => x.data)).to.deep.equal(['second']);
    // An answer for an id already answered, or unknown, changes nothing.
    w.control('answer', w.told[1].id, true);
    w.control('answer', 99, true);
    expect(w.sent).to.have.length(1);
  });

  it('closes a socket whose handshake was declined, before any frame leaves', () => {
    const w = worker();
    w.run('globalThis.s = new WebSocket("wss://collect.example/?d=secret"); s._state = 1; s.send("x")');
    w.control('answer', w.told[0].id, false);
    expect(w.closed).to.deep.equal(['wss://collect.example/?d=secret']);
    expect(w.sent).to.deep.equal([]);
  });

  it('sends a copy of binary data, told by its size', () => {
    const w = worker();
    w.control('held', false);
    w.run('globalThis.s = new WebSocket("wss://a.example/"); s._state = 1');
    w.control('held', true);
    w.run('globalThis.buf = new Uint8Array([1, 2, 3, 4]); s.send(buf.subarray(1, 3)); buf[1] = 9');
    expect(w.told[0].what).to.deep.include({ channel: 'websocket_frame', bytes: 2 });
    w.control('answer', w.told[0].id, true);
    expect([...(/** @type {Uint8Array} */ (w.sent[0].data))]).to.deep.equal([2, 3]);
  });

  it('lets everything go at once when not held, and refuses WebTransport only while held', () => {
    const w = worker();
    expect(() => w.run('new WebTransport("https://a.example/")')).to.throw(/paused in this worker/);
    expect(w.told.at(-1)).to.deep.equal({ op: 'refused', what: 'WebTransport' });
    w.control('held', false);
    w.run('globalThis.s = new WebSocket("wss://a.example/"); s._state = 1; s.send("now")');
    expect(w.sent.map((x) => x.data)).to.deep.equal(['now']);
    expect(w.run('new WebTransport("https://a.example/").made')).to.equal(true);
  });
});

describe('channel hold in workers: the debugger side (cdp/worker-channels.js)', () => {
  /** A fake CDP: records commands, lets the test fire events. */
  function fakeCdp() {
    const sentCmds = /** @type {{ sessionId?: string, method: string, params?: any }[]} */ ([]);
    /** @type {((tabId: number, method: string, p: any, sessionId?: string) => void)[]} */
    const listeners = [];
    const cdp = /** @type {any} */ ({
      async sendTo(/** @type {number} */ _tab, /** @type {string} */ sessionId, /** @type {string} */ method, /** @type {any} */ params) {
        sentCmds.push({ sessionId, method, params });
        if (method === 'Runtime.evaluate') return { result: { type: 'function', objectId: 'ctl-1' } };
        return {};
      },
      onEvent: (/** @type {any} */ l) => listeners.push(l),
      onDetach: () => {},
    });
    return { cdp, sentCmds, fire: (/** @type {string} */ method, /** @type {any} */ p, /** @type {string} */ sessionId) => listeners.forEach((l) => l(5, method, p, sessionId)) };
  }
  const until = async (/** @type {() => boolean} */ f) => { for (let i = 0; i < 100 && !f(); i++) await new Promise((r) => setTimeout(r, 1)); };

  it('installs the hook once, judges what the worker tells as the worker\'s, and answers through the control', async () => {
    const { cdp, sentCmds, fire } = fakeCdp();
    const asked = /** @type {HeldRequest[]} */ ([]);
    /** @type {HoldHandlers} */
    const handlers = { wants: () => true, decide: async (r) => { asked.push(r); return false; } };
    const channels = createWorkerChannels(cdp, () => handlers);
    await Promise.all([channels.install(5, 'S1', { url: 'https://app.example/w.js', type: 'worker' }), channels.install(5, 'S1', { url: 'https://app.example/w.js', type: 'worker' })]);
    expect(sentCmds.filter((c) => c.method === 'Runtime.evaluate')).to.have.length(1);
    const name = sentCmds.find((c) => c.method === 'Runtime.addBinding')?.params.name;
    const what = { channel: 'websocket_frame', method: 'SEND', url: 'wss://app.example/s', text: '{"email":"eve@example.com"}', bytes: 27 };
    // A call under another name (not this hook's binding) is ignored.
    fire('Runtime.bindingCalled', { name: 'other', payload: JSON.stringify({ op: 'send', id: 1, what }) }, 'S1');
    fire('Runtime.bindingCalled', { name, payload: JSON.stringify({ op: 'send', id: 1, what }) }, 'S1');
    await until(() => sentCmds.some((c) => c.method === 'Runtime.callFunctionOn'));
    expect(asked).to.have.length(1);
    expect(asked[0]).to.deep.include({ kind: 'channel', channel: 'websocket_frame', source: 'worker', initiator: 'https://app.example/w.js', url: 'wss://app.example/s' });
    expect(asked[0].fields).to.deep.equal([['email', 'eve@example.com']]);
    const answer = sentCmds.find((c) => c.method === 'Runtime.callFunctionOn');
    expect(answer?.params.objectId).to.equal('ctl-1');
    expect(answer?.params.arguments.map((/** @type {any} */ a) => a.value)).to.deep.equal(['answer', 1, false]);
  });

  it('tells a frame CDP saw sent that the hook never let go (a send kept from before it), and only while held', async () => {
    const { cdp, sentCmds, fire } = fakeCdp();
    const unseen = /** @type {HeldRequest[]} */ ([]);
    /** @type {HoldHandlers} */
    const handlers = { wants: () => true, decide: async () => true, unseen: (r) => { unseen.push(r); } };
    const channels = createWorkerChannels(cdp, () => handlers);
    await channels.install(5, 'S1', { url: 'https://app.example/shared.js', type: 'shared_worker' });
    const name = sentCmds.find((c) => c.method === 'Runtime.addBinding')?.params.name;
    fire('Network.webSocketCreated', { requestId: 'r1', url: 'wss://app.example/team' }, 'S1');
    const text = '{"op":"invite","email":"dana@example.com"}';
    fire('Runtime.bindingCalled', { name, payload: JSON.stringify({ op: 'send', id: 1, what: { channel: 'websocket_frame', method: 'SEND', url: 'wss://app.example/team', text, bytes: text.length } }) }, 'S1');
    await until(() => sentCmds.some((c) => c.method === 'Runtime.callFunctionOn'));
    // The frame the hook let go is reported sent: nothing to tell.
    fire('Network.webSocketFrameSent', { requestId: 'r1', response: { opcode: 1, payloadData: text } }, 'S1');
    expect(unseen).to.deep.equal([]);
    // One the hook never saw went around it: told, with the socket's URL and its fields.
    fire('Network.webSocketFrameSent', { requestId: 'r1', response: { opcode: 1, payloadData: '{"email":"mallory@evil.test"}' } }, 'S1');
    expect(unseen).to.have.length(1);
    expect(unseen[0]).to.deep.include({ kind: 'channel', channel: 'websocket_frame', method: 'SEND', url: 'wss://app.example/team', source: 'worker', initiator: 'https://app.example/shared.js' });
    expect(unseen[0].fields).to.deep.equal([['email', 'mallory@evil.test']]);
    // Control frames (ping, close) are not writes; after the release nothing is told.
    fire('Network.webSocketFrameSent', { requestId: 'r1', response: { opcode: 9, payloadData: '' } }, 'S1');
    await channels.setHeld(5, false);
    fire('Network.webSocketFrameSent', { requestId: 'r1', response: { opcode: 1, payloadData: 'later' } }, 'S1');
    expect(unseen).to.have.length(1);
  });

  it('refuses a malformed send without asking, and lets go of held workers on release', async () => {
    const { cdp, sentCmds, fire } = fakeCdp();
    let asked = 0;
    const channels = createWorkerChannels(cdp, () => ({ wants: () => true, decide: async () => { asked++; return true; } }));
    await channels.install(5, 'S2', { url: 'https://app.example/sw.js', type: 'service_worker' });
    const name = sentCmds.find((c) => c.method === 'Runtime.addBinding')?.params.name;
    fire('Runtime.bindingCalled', { name, payload: JSON.stringify({ op: 'send', id: 1, what: { channel: 'websocket_frame', method: 'GET', url: 'https://x' } }) }, 'S2');
    await until(() => sentCmds.some((c) => c.method === 'Runtime.callFunctionOn'));
    expect(asked).to.equal(0);
    expect(sentCmds.at(-1)?.params.arguments.map((/** @type {any} */ a) => a.value)).to.deep.equal(['answer', 1, false]);
    await channels.setHeld(5, false);
    expect(sentCmds.at(-1)?.params.arguments.map((/** @type {any} */ a) => a.value)).to.deep.equal(['held', false]);
  });
});

describe('channel hold in workers: a socket whose frames cannot be held (Firefox)', () => {
  const ctx = { pageUrl: 'http://127.0.0.1:4000/workers.html', cause: 'click button "Invite"', target: null };
  /** @param {Partial<HeldRequest>} r @returns {HeldRequest} */
  const req = (r) => ({ kind: 'request', method: 'GET', url: 'ws://127.0.0.1:4000/team?room=1', type: 'websocket', topLevel: false, source: 'worker', initiator: 'http://127.0.0.1:4000/worker.js', framesUnheld: true, ...r });

  it('asks before it opens, even on the page\'s own site and an always-allowed one, saying what cannot be seen', () => {
    const p = createPolicy({ scope: createTaskScope(ctx.pageUrl, 'invite dana'), alwaysAllow: ['127.0.0.1:4000'] });
    expect(p.wantsRequest(req({}))).to.equal(true);
    const v = p.judgeRequest(req({}), ctx);
    expect(v.action).to.equal('ask');
    if (v.action !== 'ask') return;
    expect(v.request).to.deep.include({ rule: 'server_write', severity: 'high', action: 'Open a WebSocket to ws://127.0.0.1:4000/team?room=1 from a worker of the page', cause: ctx.cause });
    expect(v.request.reason).to.contain('cannot hold or show what a worker sends');
    // "Allow for this task" is offered for this very socket, and says so.
    expect(v.request.scope).to.deep.equal({ kind: 'write', site: '127.0.0.1:4000', socket: 'ws://127.0.0.1:4000/team?room=1', severity: 'high' });
    expect(v.request.details.map((d) => d.label)).to.deep.equal(['socket', 'worker']);
  });

  it('"Allow for this task" covers the same socket URL from the same kind of worker only: another URL, a shared worker, or a write still asks', () => {
    const p = createPolicy({ scope: createTaskScope(ctx.pageUrl, 'invite dana') });
    const v = p.judgeRequest(req({}), ctx);
    if (v.action !== 'ask') throw new Error('asks');
    p.answered(v.request, 'task');
    expect(p.judgeRequest(req({}), ctx).action).to.equal('allow');
    expect(p.judgeRequest(req({ url: 'ws://127.0.0.1:4000/team?room=1#x' }), ctx).action).to.equal('allow');
    expect(p.judgeRequest(req({ url: 'ws://127.0.0.1:4000/team?room=2' }), ctx).action).to.equal('ask');
    expect(p.judgeRequest(req({ url: 'ws://127.0.0.1:4000/other?room=1' }), ctx).action).to.equal('ask');
    expect(p.judgeRequest(req({ source: 'service_worker' }), ctx).action).to.equal('ask');
    // The same socket opened before the run is covered too (it is the same unseen channel) …
    expect(p.unheldSender(req({ openBefore: true }), ctx).action).to.equal('allow');
    // … but nothing sent over HTTP to the same place.
    expect(p.judgeRequest({ kind: 'request', method: 'POST', url: 'http://127.0.0.1:4000/team?room=1', type: 'fetch', topLevel: false, body: 'a=1', fields: [['a', '1']] }, ctx).action).to.equal('ask');
    // Allowed once, it asks again next time.
    const q = createPolicy({ scope: createTaskScope(ctx.pageUrl, 'invite dana') });
    const w = q.judgeRequest(req({}), ctx);
    if (w.action === 'ask') q.answered(w.request, 'yes');
    expect(q.judgeRequest(req({}), ctx).action).to.equal('ask');
  });

  it('a worker socket opened before the run asks before a step acts, saying what cannot be seen and what declining does', () => {
    const p = createPolicy({ scope: createTaskScope(ctx.pageUrl, 'invite dana'), alwaysAllow: ['127.0.0.1:4000'] });
    const v = p.unheldSender(req({ openBefore: true, source: 'service_worker', initiator: 'http://127.0.0.1:4000/shared.js' }), ctx);
    if (v.action !== 'ask') throw new Error('asks');
    expect(v.request).to.deep.include({ severity: 'high', action: "Act on the page while the site's service or shared worker keeps a WebSocket to ws://127.0.0.1:4000/team?room=1 open" });
    expect(v.request.reason).to.contain('cannot hold or show').and.contain('declined, the step does not run');
    expect(v.request.details).to.deep.equal([{ label: 'socket', value: 'ws://127.0.0.1:4000/team?room=1' }, { label: 'worker', value: 'http://127.0.0.1:4000/shared.js' }]);
  });

  it('names a service or shared worker as such; a page\'s own plain handshake is still not asked', () => {
    const p = createPolicy({ scope: createTaskScope(ctx.pageUrl, 'invite dana') });
    const v = p.judgeRequest(req({ source: 'service_worker' }), ctx);
    expect(v.action === 'ask' && v.request.action).to.contain('from the site\'s service or shared worker');
    expect(p.wantsRequest(req({ framesUnheld: undefined, source: 'page' }))).to.equal(false);
  });
});
