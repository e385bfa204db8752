// The background half of the channel hold (service/channel-hold.js), the router's entry for its
// messages (service/handlers/channel-hold.js) and how the policy judges a channel write.
import { expect } from 'chai';
import { createChannelHold, heldRequest, sendProblem } from '../../src/chrome/service/channel-hold.js';
import { answerChannelHold } from '../../src/chrome/service/handlers/channel-hold.js';
import { createPolicy } from '../../src/chrome/agent/safety/policy.js';
import { createTaskScope } from '../../src/chrome/agent/safety/scope.js';

/** @import { HeldRequest, HoldHandlers, WriteOutcome } from '../../src/chrome/types/safety' */

const PAGE = { tabId: 7, frameId: 0, url: 'https://board.example/team' };
const DOC = '0123456789abcdef';
/** @param {number} id @param {Record<string, unknown>} what */
const sendMsg = (id, what) => ({ type: 'channelHold.send', doc: DOC, id, what });
const frame = (/** @type {string} */ text) => ({ channel: 'websocket_frame', method: 'SEND', url: 'wss://board.example/socket', text, bytes: text.length });

/**
 * Handlers that record what they were asked; decide answers from a list.
 * @param {{ wants?: (r: HeldRequest) => boolean, answers?: boolean[] }} [opts]
 */
function recorder(opts = {}) {
  const asked = /** @type {HeldRequest[]} */ ([]);
  const settled = /** @type {[HeldRequest, WriteOutcome][]} */ ([]);
  const answers = [...(opts.answers ?? [])];
  /** @type {HoldHandlers} */
  const handlers = {
    wants: opts.wants ?? (() => true),
    decide: async (req) => { asked.push(req); return answers.shift() ?? false; },
    settled: (req, outcome) => { settled.push([req, outcome]); },
  };
  return { handlers, asked, settled };
}

function hold() {
  const told = /** @type {{ tabId: number, held: boolean, seq: number }[]} */ ([]);
  const channels = createChannelHold(async (tabId, msg) => { told.push({ tabId, held: msg.held, seq: msg.seq }); });
  return { channels, told };
}

/**
 * The delays of the timers set while fn runs (the code under test uses the global setTimeout).
 * @param {() => Promise<unknown>} fn @returns {Promise<number[]>}
 */
async function timersAskedDuring(fn) {
  /** @type {number[]} */
  const asked = [];
  const realSetTimeout = globalThis.setTimeout;
  globalThis.setTimeout = /** @type {typeof setTimeout} */ (/** @type {unknown} */ ((/** @type {() => void} */ f, /** @type {number} */ ms) => { asked.push(ms); return realSetTimeout(f, ms); }));
  try {
    await fn();
  } finally {
    globalThis.setTimeout = realSetTimeout;
  }
  return asked;
}

describe('channel hold: the background (service/channel-hold.js)', () => {
  it('tells every frame of the tab when its hold begins and ends, newer states numbered higher', async () => {
    const { channels, told } = hold();
    expect(channels.state(7).held).to.equal(false);
    const release = await channels.arm(7, recorder().handlers);
    expect(channels.state(7)).to.deep.equal({ held: true, seq: told[0].seq });
    expect(channels.state(8).held).to.equal(false);
    release();
    expect(told.map((t) => `${t.tabId}:${t.held}`)).to.deep.equal(['7:true', '7:false']);
    expect(told[1].seq).to.be.greaterThan(told[0].seq);
    expect(channels.state(7).held).to.equal(false);
  });

  it('arms once the frames heard it, and never waits long on a tab that does not answer', async () => {
    let heard = false;
    const channels = createChannelHold(() => new Promise((resolve) => setTimeout(() => { heard = true; resolve(undefined); }, 20)));
    await channels.arm(1, recorder().handlers);
    expect(heard).to.equal(true);
    // A tab that never answers: arm still ends, by a bound of its own (a timer it set, of at most a
    // few seconds), not by the tab. Counted, not timed: the timers it asked for are read.
    const stuck = createChannelHold(() => new Promise(() => {}));
    const asked = await timersAskedDuring(() => stuck.arm(1, recorder().handlers));
    expect(asked.filter((ms) => ms > 0 && ms <= 5000), `timers asked for: ${asked.join(', ')}`).to.have.length.at.least(1);
  });

  it("a shared worker the page was refused is told to the run holding the tab, and to nobody once it is released", async () => {
    const { channels } = hold();
    /** @type {{ channel: string, url: string }[]} */
    const told = [];
    const r = recorder();
    const release = await channels.arm(7, { ...r.handlers, refused: (what) => { told.push(what); } });
    channels.refused(PAGE, { type: 'channelHold.refused', what: { channel: 'shared_worker', url: 'https://cdn.example/sync.js' } });
    channels.refused(PAGE, { type: 'channelHold.refused', what: { channel: 'websocket', url: 'wss://x.example/' } });
    channels.refused({ ...PAGE, tabId: 8 }, { type: 'channelHold.refused', what: { channel: 'shared_worker', url: 'https://cdn.example/sync.js' } });
    await release();
    channels.refused(PAGE, { type: 'channelHold.refused', what: { channel: 'shared_worker', url: 'https://cdn.example/late.js' } });
    expect(told).to.deep.equal([{ channel: 'shared_worker', url: 'https://cdn.example/sync.js' }]);
  });

  it('an old release does not undo a newer hold of the same tab', async () => {
    const { channels } = hold();
    const first = await channels.arm(7, recorder().handlers);
    await channels.arm(7, recorder().handlers);
    first();
    expect(channels.state(7).held).to.equal(true);
  });

  it('lets a send go at once when the tab is not held, or the policy does not want it', async () => {
    const { channels } = hold();
    expect(await channels.send(PAGE, sendMsg(1, frame('hi')))).to.deep.equal({ allow: true });
    const r = recorder({ wants: () => false });
    await channels.arm(7, r.handlers);
    expect(await channels.send(PAGE, sendMsg(2, frame('hi')))).to.deep.equal({ allow: true });
    expect(r.asked).to.deep.equal([]);
  });

  it('asks the run\'s handlers about a held frame, and answers what they decided', async () => {
    const { channels } = hold();
    const r = recorder({ answers: [false, true] });
    await channels.arm(7, r.handlers);
    expect(await channels.send(PAGE, sendMsg(1, frame('{"op":"invite","email":"dana@example.com"}')))).to.deep.equal({ allow: false });
    expect(await channels.send(PAGE, sendMsg(2, frame('{"op":"invite","email":"dana@example.com"}')))).to.deep.equal({ allow: true });
    expect(r.asked).to.have.length(2);
    expect(r.asked[0]).to.deep.include({ kind: 'channel', channel: 'websocket_frame', method: 'SEND', url: 'wss://board.example/socket', type: 'websocket', topLevel: false, source: 'page', initiator: PAGE.url });
    expect(r.asked[0].fields).to.deep.equal([['op', 'invite'], ['email', 'dana@example.com']]);
  });

  it('pairs the socket\'s first message after a frame let go with that frame, once', async () => {
    const { channels } = hold();
    const r = recorder({ answers: [true] });
    await channels.arm(7, r.handlers);
    await channels.send(PAGE, sendMsg(3, frame('save')));
    channels.reply({ ...PAGE, frameId: 2 }, { doc: DOC, id: 3, reply: { text: 'other frame' } });
    channels.reply(PAGE, { doc: DOC, id: 3, reply: { text: '{"ok":true}' } });
    channels.reply(PAGE, { doc: DOC, id: 3, reply: { text: 'again' } });
    expect(r.settled.map(([req, o]) => [req.channel, o])).to.deep.equal([['websocket_frame', { status: 101, reply: '{"ok":true}' }]]);
  });

  it('reports a frame that could not leave after all (its socket closed) as an error', async () => {
    const { channels } = hold();
    const r = recorder({ answers: [true] });
    await channels.arm(7, r.handlers);
    await channels.send(PAGE, sendMsg(4, frame('save')));
    channels.reply(PAGE, { doc: DOC, id: 4, reply: { error: 'InvalidStateError' } });
    expect(r.settled[0][1].error).to.contain('InvalidStateError');
  });

  it('refuses a malformed message, naming what is wrong, before anything is asked', async () => {
    const { channels } = hold();
    const r = recorder({ answers: [true] });
    await channels.arm(7, r.handlers);
    const bad = [
      null,
      { doc: 'x', id: 1, what: frame('a') },
      { doc: DOC, id: 0, what: frame('a') },
      { doc: DOC, id: 1, what: { ...frame('a'), channel: 'beacon' } },
      { doc: DOC, id: 1, what: { ...frame('a'), method: 'POST' } },
      { doc: DOC, id: 1, what: { ...frame('a'), url: 'https://board.example/' } },
      { doc: DOC, id: 1, what: { ...frame('a'), text: 5 } },
      { doc: DOC, id: 1, what: { ...frame('a'), bytes: -1 } },
      { doc: DOC, id: 1, what: { channel: 'websocket', method: 'SEND', url: 'wss://x/' } },
    ];
    for (const m of bad) expect(await channels.send(PAGE, m), JSON.stringify(m)).to.be.a('string');
    expect(r.asked).to.deep.equal([]);
    expect(sendProblem(sendMsg(1, frame('a')))).to.equal(null);
  });
});

describe('channel hold: the held request', () => {
  it('is a handshake without a body, a binary frame as opaque, a frame in a subframe from the frame', () => {
    const hs = heldRequest({ channel: 'websocket', method: 'GET', url: 'wss://board.example/socket?room=1' }, PAGE);
    expect(hs).to.deep.equal({ kind: 'channel', channel: 'websocket', method: 'GET', url: 'wss://board.example/socket?room=1', type: 'websocket', topLevel: false, source: 'page', initiator: PAGE.url });
    const bin = heldRequest({ channel: 'websocket_frame', method: 'SEND', url: 'wss://board.example/socket', bytes: 512 }, { ...PAGE, frameId: 4, url: 'https://widgets.example/chat' });
    expect(bin.opaque).to.deep.equal({ bytes: 512, why: 'binary' });
    expect(bin.body).to.equal(undefined);
    expect(bin.source).to.equal('frame');
    expect(bin.initiator).to.equal('https://widgets.example/chat');
    const form = heldRequest({ channel: 'websocket_frame', method: 'SEND', url: 'wss://board.example/socket', text: 'to=eve&amount=5' }, PAGE);
    expect(form.fields).to.deep.equal([['to', 'eve'], ['amount', '5']]);
  });

  it('names a data channel by the page that opened it and its label (an about:blank frame: its tab\'s page)', () => {
    const dc = heldRequest({ channel: 'datachannel', method: 'SEND', url: 'notes one', text: 'hi' }, PAGE);
    expect(dc.url).to.equal('webrtc://board.example/notes%20one');
    const blank = heldRequest({ channel: 'datachannel', method: 'SEND', url: 'x', text: 'hi' }, { tabId: 7, frameId: 3, url: 'about:blank', tabUrl: 'https://board.example/' });
    expect(blank.url).to.equal('webrtc://board.example/x');
  });
});

describe('channel hold: the router\'s entry (service/handlers/channel-hold.js)', () => {
  /** @param {any} msg @param {any} channels @param {any} [sender] */
  function answer(msg, channels, sender = { tab: { id: 7, url: PAGE.url }, frameId: 0, url: PAGE.url }) {
    return new Promise((resolve) => { answerChannelHold(channels, msg, sender, resolve); });
  }

  it('answers the state, judges a send and takes a reply, each for the sender\'s own tab and frame', async () => {
    const { channels } = hold();
    const r = recorder({ answers: [true] });
    await channels.arm(7, r.handlers);
    expect(await answer({ type: 'channelHold.state' }, channels)).to.deep.include({ ok: true });
    expect(/** @type {any} */ (await answer({ type: 'channelHold.state' }, channels)).data.held).to.equal(true);
    expect(/** @type {any} */ (await answer({ type: 'channelHold.state', tabId: 7 }, channels, { tab: { id: 9 }, frameId: 0, url: 'https://x.example/' })).data.held).to.equal(false);
    expect(await answer(sendMsg(1, frame('a')), channels)).to.deep.equal({ ok: true, data: { allow: true } });
    expect(await answer({ type: 'channelHold.reply', doc: DOC, id: 1, reply: { text: 'ok' } }, channels)).to.deep.equal({ ok: true, data: null });
    expect(r.settled).to.have.length(1);
    // The tab the message names is ignored: a send from tab 9 is not held by tab 7's run.
    expect(await answer({ ...sendMsg(2, frame('b')), tabId: 7 }, channels, { tab: { id: 9 }, frameId: 0, url: 'https://x.example/' })).to.deep.equal({ ok: true, data: { allow: true } });
    expect(r.asked).to.have.length(1);
  });

  it('refuses a malformed send and an unknown type', async () => {
    const { channels } = hold();
    expect(await answer({ type: 'channelHold.send', doc: DOC, id: 1 }, channels)).to.deep.include({ ok: false, code: 'INVALID_REQUEST' });
    expect(await answer({ type: 'channelHold.grant' }, channels)).to.deep.include({ ok: false, code: 'UNKNOWN_REQUEST' });
  });
});

describe('channel hold: the policy judges a channel write like a write', () => {
  const ctx = { pageUrl: 'http://127.0.0.1:4000/invite.html', cause: 'click button "Invite"', target: { role: 'button', name: 'Invite' } };
  const policy = () => createPolicy({ scope: createTaskScope(ctx.pageUrl, 'invite dana') });
  /** @param {Partial<HeldRequest>} r @returns {HeldRequest} */
  const req = (r) => ({ kind: 'channel', channel: 'websocket_frame', method: 'SEND', url: 'ws://127.0.0.1:4000/team', type: 'websocket', topLevel: false, body: '{"op":"invite"}', fields: [['op', 'invite']], initiator: ctx.pageUrl, ...r });

  it('asks about a frame to the page\'s own socket (ws: is its http: origin), with the socket\'s site and the fields', () => {
    const p = policy();
    expect(p.wantsRequest(req({}))).to.equal(true);
    const v = p.judgeRequest(req({}), ctx);
    if (v.action !== 'ask') throw new Error(v.action);
    expect(v.request.rule).to.equal('server_write');
    expect(v.request.site).to.equal('127.0.0.1:4000');
    expect(v.request.action).to.equal('SEND to ws://127.0.0.1:4000/team');
    expect(v.request.details).to.deep.equal([{ label: 'op', value: 'invite' }]);
  });

  it('asks about a data-channel frame as a write of the page that opened it', () => {
    const v = policy().judgeRequest(req({ channel: 'datachannel', url: 'webrtc://127.0.0.1:4000/notes' }), ctx);
    expect(v.action).to.equal('ask');
  });

  it('asks about a frame to another site that carries what the agent typed; lets a plain handshake go', () => {
    const p = policy();
    p.remember('dana@example.com');
    const v = p.judgeRequest(req({ url: 'wss://collect.example/s', body: 'dana@example.com', fields: undefined }), ctx);
    expect(v.action).to.equal('ask');
    expect(p.wantsRequest(req({ channel: 'websocket', method: 'GET', body: undefined, fields: undefined }))).to.equal(false);
  });
});

describe('channel hold: a WebSocket handshake whose URL carries page data', () => {
  const ctx = { pageUrl: 'http://127.0.0.1:4000/board.html', cause: 'click button "Connect"', target: null };
  const url = 'ws://collect.example/c?d=dana%40example.com';
  /** @param {Partial<HeldRequest>} r @returns {HeldRequest} */
  const req = (r) => ({ kind: 'channel', channel: 'websocket', method: 'GET', url, type: 'websocket', topLevel: false, ...r });

  it('asks before it leaves (the page hook holds the socket), named as a socket, with what it carries', () => {
    const p = createPolicy({ scope: createTaskScope(ctx.pageUrl, 'connect the board') });
    expect(p.wantsRequest(req({}))).to.equal(true);
    const v = p.judgeRequest(req({}), ctx);
    expect(v.action).to.equal('ask');
    if (v.action !== 'ask') return;
    expect(v.request).to.deep.include({ rule: 'data_in_url', severity: 'high', action: `Open a WebSocket to ${url}` });
    expect(v.request.details.map((d) => d.value).join(' ')).to.contain('dana@example.com');
    // The same socket to the page's own site passes.
    expect(p.judgeRequest(req({ url: 'ws://127.0.0.1:4000/c?d=dana%40example.com' }), ctx).action).to.equal('allow');
  });

  it('Firefox: the request of a handshake the user allowed in the page is not asked again; one declined or never asked is', () => {
    const p = createPolicy({ scope: createTaskScope(ctx.pageUrl, 'connect the board') });
    const asHandshake = req({ kind: 'request', channel: undefined });
    const card = p.judgeRequest(req({}), ctx);
    if (card.action !== 'ask') throw new Error('expected a card');
    p.answered(card.request, 'yes');
    expect(p.judgeRequest(asHandshake, ctx).action).to.equal('allow');
    // Used once: a second socket to the same address asks again.
    expect(p.judgeRequest(asHandshake, ctx).action).to.equal('ask');
    const declined = p.judgeRequest(req({}), ctx);
    if (declined.action !== 'ask') throw new Error('expected a card');
    p.answered(declined.request, 'no');
    expect(p.judgeRequest(asHandshake, ctx).action).to.equal('ask');
  });
});
