// The named parts of Chrome's request hold and debugger sessions (src/chrome/cdp/), each with a
// stand-in for what it needs of chrome.debugger: who sent a request, the decisions on their way,
// the request and response stages, the release, attaching a tab, targets attached by id, the page
// events a session answers itself, coded failures, and a worker's frame replies and hook.
import { expect } from 'chai';
import { createAnnouncements } from '../../src/chrome/cdp/announcements.js';
import { createDecisions } from '../../src/chrome/cdp/decisions.js';
import { createRequestStage, readsFirstBytes } from '../../src/chrome/cdp/request-stage.js';
import { createReads, createResponseStage, isRedirect } from '../../src/chrome/cdp/response-stage.js';
import { createHoldRelease } from '../../src/chrome/cdp/hold-release.js';
import { attachFailure, commandFailure } from '../../src/chrome/cdp/cdp-error.js';
import { acceptsDialog, isMainFrameNavigation } from '../../src/chrome/cdp/page-events.js';
import { attachTab } from '../../src/chrome/cdp/tab-attach.js';
import { createTargetSessions } from '../../src/chrome/cdp/target-sessions.js';
import { createFrameReplies } from '../../src/chrome/cdp/frame-replies.js';
import { hookUp, controlHook } from '../../src/chrome/cdp/hook-up.js';
import { say } from '../../src/chrome/agent/error-codes.js';

/** @import { HeldRequest, HoldHandlers, WriteOutcome } from '../../src/chrome/types/safety' */

/** A CDP stand-in that records each command and answers from `answers` (by method). */
function recorder(answers = /** @type {Record<string, any>} */ ({})) {
  /** @type {{ tabId: number, sessionId?: string, method: string, params?: any }[]} */
  const sent = [];
  return {
    sent,
    /** @param {number} tabId @param {string | undefined} sessionId @param {string} method @param {any} [params] */
    async sendTo(tabId, sessionId, method, params) {
      sent.push({ tabId, sessionId, method, params });
      const a = answers[method];
      if (a instanceof Error) throw a;
      return typeof a === 'function' ? a(params) : a;
    },
    /** @param {number} tabId @param {string} method @param {any} [params] */
    async send(tabId, method, params) { sent.push({ tabId, method, params }); return {}; },
    mainFrameId: () => 'F0',
    unpinned: /** @type {number[]} */ ([]),
    /** @param {number} tabId */
    unpin(tabId) { this.unpinned.push(tabId); },
  };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('cdp parts: who sent a request (announcements.js)', () => {
  it('names the session a request was announced in, at once when already announced', async () => {
    const a = createAnnouncements(60_000);
    a.announce(1, { requestId: 'n1', documentURL: 'https://app.test/' }, 'W1');
    expect(await a.announcedIn(1, 'n1')).to.deep.equal({ sessionId: 'W1', documentUrl: 'https://app.test/' });
    // The first announcement is kept (a redirect announces the same id again).
    a.announce(1, { requestId: 'n1' }, 'OTHER');
    expect((await a.announcedIn(1, 'n1'))?.sessionId).to.equal('W1');
    expect(await a.announcedIn(1, undefined)).to.equal(undefined);
  });
  it('waits for an announcement still to come, and gives up after its bound', async () => {
    const a = createAnnouncements(60_000);
    const waiting = a.announcedIn(2, 'n2');
    a.announce(2, { requestId: 'n2' }, 'W2');
    expect((await waiting)?.sessionId).to.equal('W2');
    expect(await createAnnouncements(0).announcedIn(2, 'never')).to.equal(undefined);
  });
});

describe('cdp parts: decisions on their way to Chrome (decisions.js)', () => {
  it('settles once every decision begun on the tab has been told, those begun meanwhile included', async () => {
    const d = createDecisions();
    const first = d.begin(1);
    const other = d.begin(2);
    let settled = false;
    const done = d.settled(1).then(() => { settled = true; });
    const second = d.begin(1);
    first();
    await tick();
    expect(settled).to.equal(false);
    second();
    await done;
    expect(settled).to.equal(true);
    other();
    await d.settled(3);
  });
});

describe('cdp parts: the request stage (request-stage.js)', () => {
  /** @param {Partial<HoldHandlers>} h @param {Record<string, any>} [announced] */
  function stage(h, announced = {}) {
    const cdp = recorder();
    /** @type {any[]} */
    const tracked = [];
    const reads = createReads();
    const decisions = createDecisions();
    const paused = createRequestStage({
      cdp, reads, decisions,
      targets: { sender: (_tab, s) => (s === 'W1' ? { source: 'worker', url: 'https://app.test/w.js' } : { source: 'page' }) },
      answers: { track: (...args) => { tracked.push(args); } },
      announcements: { announce() {}, announcedIn: async (_t, id) => announced[String(id)] },
    });
    /** @type {HoldHandlers} */
    const handlers = { wants: () => false, decide: async () => true, ...h };
    return { cdp, tracked, reads, decisions, handlers, paused };
  }
  const post = { requestId: 'f1', networkId: 'n1', resourceType: 'Fetch', request: { method: 'POST', url: 'https://api.test/save' } };

  it('lets a request the policy does not want go at once; a document GET with its response paused', async () => {
    const s = stage({});
    await s.paused(1, undefined, { requestId: 'f0', resourceType: 'Document', frameId: 'F0', request: { method: 'GET', url: 'https://app.test/file.exe' } }, s.handlers);
    expect(s.cdp.sent.map((c) => [c.method, c.params])).to.deep.equal([['Fetch.continueRequest', { requestId: 'f0', interceptResponse: true }]]);
    expect(s.reads.take(1, undefined, 'f0')).to.equal(true);
  });
  it('asks about a write as its worker\'s, lets it go with its answer followed, in the session it paused in', async () => {
    /** @type {HeldRequest[]} */
    const asked = [];
    const s = stage({ wants: () => true, decide: async (r) => { asked.push(r); return true; } }, { n1: { sessionId: 'W1' } });
    await s.paused(1, 'FRAME', post, s.handlers);
    expect(asked[0]).to.deep.include({ method: 'POST', source: 'worker', initiator: 'https://app.test/w.js' });
    expect(s.tracked.map((t) => t.slice(0, 3))).to.deep.equal([[1, 'W1', 'n1']]);
    expect(s.cdp.sent.map((c) => [c.sessionId, c.method, c.params])).to.deep.equal([['FRAME', 'Fetch.continueRequest', { requestId: 'f1', interceptResponse: true }]]);
  });
  it('fails a refused request as blocked (a refused navigation as aborted), and a failing decision refuses; the release waits for it', async () => {
    const s = stage({ wants: () => { throw new Error('x'); }, decide: async () => { throw new Error('broken'); } });
    await s.paused(1, undefined, post, s.handlers);
    await s.paused(1, undefined, { requestId: 'f2', resourceType: 'Document', frameId: 'F0', request: { method: 'POST', url: 'https://app.test/' } }, s.handlers);
    expect(s.cdp.sent.map((c) => c.params)).to.deep.equal([{ requestId: 'f1', errorReason: 'BlockedByClient' }, { requestId: 'f2', errorReason: 'Aborted' }]);
    expect(s.tracked).to.deep.equal([]);
    await s.decisions.settled(1);
  });
  it('reads the first bytes of a GET of a document or of an unknown type only', () => {
    /** @param {string} type @returns {HeldRequest} */
    const r = (type) => ({ kind: 'request', method: 'GET', url: 'https://a.test/', type, topLevel: false });
    expect([readsFirstBytes('GET', r('document')), readsFirstBytes('GET', r('other')), readsFirstBytes('GET', r('fetch')), readsFirstBytes('POST', r('document'))]).to.deep.equal([true, true, false, false]);
  });
});

describe('cdp parts: the response stage (response-stage.js)', () => {
  it('reads a write\'s answer body for its tracking, but not a redirect\'s, and lets each go on', async () => {
    const cdp = recorder({ 'Fetch.getResponseBody': { body: 'eyJvayI6dHJ1ZX0=', base64Encoded: true } });
    /** @type {any[]} */
    const bodies = [];
    const answered = createResponseStage({ cdp, reads: createReads(), answers: { bodyRead: (...a) => { bodies.push(a); } }, firstBytes: { note() {} } });
    await answered(1, 'S', { requestId: 'f1', networkId: 'n1', responseStatusCode: 200, responseHeaders: [] });
    await answered(1, 'S', { requestId: 'f2', networkId: 'n2', responseStatusCode: 302, responseHeaders: [{ name: 'Location', value: '/x' }] });
    expect(bodies).to.deep.equal([[1, 'n1', { body: 'eyJvayI6dHJ1ZX0=', base64Encoded: true }]]);
    expect(cdp.sent.map((c) => `${c.method} ${c.params.requestId}`)).to.deep.equal(['Fetch.getResponseBody f1', 'Fetch.continueRequest f1', 'Fetch.continueRequest f2']);
  });
  it('notes the first bytes of a download it was asked to read, once', async () => {
    const cdp = recorder({ 'Fetch.getResponseBody': { body: Buffer.from('MZ\x90\x00rest').toString('base64'), base64Encoded: true } });
    /** @type {[string, Uint8Array][]} */
    const noted = [];
    const reads = createReads();
    reads.add(1, undefined, 'f9');
    const answered = createResponseStage({ cdp, reads, answers: { bodyRead() {} }, firstBytes: { note: (url, bytes) => { noted.push([url, bytes]); } } });
    const p = { requestId: 'f9', request: { url: 'https://files.test/invoice.pdf' }, responseStatusCode: 200, responseHeaders: [{ name: 'Content-Disposition', value: 'attachment; filename="invoice.pdf"' }] };
    await answered(1, undefined, p);
    expect(noted.map(([u, b]) => [u, [...b.slice(0, 2)]])).to.deep.equal([['https://files.test/invoice.pdf', [0x4d, 0x5a]]]);
    expect(reads.take(1, undefined, 'f9')).to.equal(false);
  });
  it('a redirect is a 3xx with a Location', () => {
    expect([isRedirect(302, [{ name: 'location' }]), isRedirect(304, []), isRedirect(200, [{ name: 'Location' }]), isRedirect(301, undefined)]).to.deep.equal([true, false, false, false]);
  });
});

describe('cdp parts: the release (hold-release.js)', () => {
  it('waits for decisions, stops interception, then detaches the children once no answer is pending', async () => {
    const cdp = recorder();
    const order = /** @type {string[]} */ ([]);
    const decisions = createDecisions();
    const told = decisions.begin(1);
    const disarm = createHoldRelease({ cdp, armed: new Map(), decisions, answers: { pending: () => 0 },
      targets: { stopHolding: async () => { order.push('stop'); }, detach: async () => { order.push('detach'); } } });
    const done = disarm(1);
    await tick();
    expect(cdp.sent).to.deep.equal([]);
    told();
    await done;
    await tick();
    expect(cdp.sent.map((c) => c.method)).to.deep.equal(['Fetch.disable']);
    expect(order).to.deep.equal(['stop', 'detach']);
    expect(cdp.unpinned).to.deep.equal([1]);
  });
  it('leaves everything on when the tab was held again meanwhile', async () => {
    const cdp = recorder();
    /** @type {Map<number, HoldHandlers>} */
    const armed = new Map([[1, { wants: () => false, decide: async () => true }]]);
    await createHoldRelease({ cdp, armed, decisions: createDecisions(), answers: { pending: () => 0 }, targets: { stopHolding: async () => {}, detach: async () => {} } })(1);
    expect(cdp.sent).to.deep.equal([]);
    expect(cdp.unpinned).to.deep.equal([1]);
  });
});

describe('cdp parts: the session\'s pieces (cdp-error.js, page-events.js, tab-attach.js, target-sessions.js)', () => {
  it('names a failure: the tab closed, the debugger taken, a command that failed', () => {
    expect(attachFailure(new Error('No tab with given id 4.'))).to.deep.include({ code: 'TAB_GONE', message: say('TAB_GONE') });
    expect(attachFailure(new Error('Another debugger is already attached to the tab with id: 4.'))).to.deep.include({ code: 'DEBUGGER_UNAVAILABLE' });
    const gone = commandFailure(new Error('Debugger is not attached to the tab with id: 4.'), 'Page.enable');
    expect([gone.error.code, gone.gone]).to.deep.equal(['DEBUGGER_UNAVAILABLE', true]);
    const failed = commandFailure('Invalid parameters', 'DOM.focus');
    expect([failed.error.code, failed.error.message, failed.gone]).to.deep.equal(['CDP_FAILED', say('CDP_FAILED', 'DOM.focus: Invalid parameters'), false]);
  });
  it('accepts "Leave site?" and alerts, cancels the rest; a navigation is the top frame\'s only', () => {
    expect(['beforeunload', 'alert', 'confirm', 'prompt'].map((type) => acceptsDialog({ type }))).to.deep.equal([true, true, false, false]);
    expect(isMainFrameNavigation('Page.frameStartedLoading', { frameId: 'F0' }, 'F0')).to.equal(true);
    expect(isMainFrameNavigation('Page.frameNavigated', { frame: { id: 'F0' } }, 'F0')).to.equal(true);
    expect(isMainFrameNavigation('Page.frameNavigated', { frame: { id: 'CHILD' } }, 'F0')).to.equal(false);
    expect(isMainFrameNavigation('Page.loadEventFired', { frameId: 'F0' }, 'F0')).to.equal(false);
    expect(isMainFrameNavigation('Page.frameStartedLoading', { frameId: 'F0' }, undefined)).to.equal(false);
  });
  it('attaches a tab, sets it up and gives its top frame; a refused attach is a coded failure', async () => {
    const calls = /** @type {string[]} */ ([]);
    const dbg = {
      async attach(/** @type {any} */ t, /** @type {string} */ v) { calls.push(`attach ${t.tabId} ${v}`); },
      async sendCommand(/** @type {any} */ _t, /** @type {string} */ method) { calls.push(method); return method === 'Page.getFrameTree' ? { frameTree: { frame: { id: 'TOP' } } } : {}; },
    };
    expect(await attachTab(dbg, 4)).to.equal('TOP');
    expect(calls).to.deep.equal(['attach 4 1.3', 'Fetch.disable', 'Page.enable', 'Emulation.setFocusEmulationEnabled', 'Page.setWebLifecycleState', 'Page.getFrameTree']);
    const refused = attachTab({ ...dbg, attach: async () => { throw new Error('Cannot access a chrome:// URL'); } }, 5);
    await refused.then(() => expect.fail('attached'), (err) => expect(err.code).to.equal('DEBUGGER_UNAVAILABLE'));
  });
  it('tells a target attached by id as its tab\'s, and its end as a detach', async () => {
    /** @type {any[]} */
    const told = [];
    const detached = /** @type {string[]} */ ([]);
    const t = createTargetSessions({ attach: async () => {}, detach: async (x) => { detached.push(x.targetId); } }, (...a) => { told.push(a); });
    expect(await t.attach(7, 'SW')).to.equal('target:SW');
    expect(t.targetIdOf('target:SW')).to.equal('SW');
    expect(t.targetIdOf('flat-session')).to.equal(null);
    t.event('SW', 'Network.requestWillBeSent', { requestId: 'r' });
    t.event('UNKNOWN', 'Network.requestWillBeSent', {});
    await t.detach('target:SW');
    expect(told).to.deep.equal([[7, 'Network.requestWillBeSent', { requestId: 'r' }, 'target:SW'], [7, 'Target.detachedFromTarget', { sessionId: 'target:SW' }, undefined]]);
    expect(detached).to.deep.equal(['SW']);
    await t.attach(7, 'A');
    t.forgetTab(7);
    expect([t.has('A'), detached]).to.deep.equal([false, ['SW', 'A']]);
    const refused = createTargetSessions({ attach: async () => { throw new Error('taken'); }, detach: async () => {} }, () => {});
    expect(await refused.attach(7, 'B')).to.equal(null);
  });
});

describe('cdp parts: a worker\'s hook and its frames\' replies (hook-up.js, frame-replies.js)', () => {
  it('installs the hook through a binding of a random name and calls its control', async () => {
    const cdp = recorder({ 'Runtime.evaluate': { result: { type: 'function', objectId: 'ctl' } } });
    const hook = await hookUp(cdp, 3, 'S', { url: 'https://app.test/sw.js', type: 'service_worker' });
    expect(hook).to.deep.include({ tabId: 3, objectId: 'ctl', url: 'https://app.test/sw.js', source: 'service_worker' });
    expect(hook?.name).to.match(/^__tw[0-9a-f]{18}$/);
    expect(cdp.sent.map((c) => c.method)).to.deep.equal(['Runtime.enable', 'Runtime.addBinding', 'Runtime.evaluate']);
    await controlHook(cdp, 3, 'S', 'ctl', ['answer', 4, true]);
    expect(cdp.sent.at(-1)?.params).to.deep.include({ objectId: 'ctl', arguments: [{ value: 'answer' }, { value: 4 }, { value: true }] });
    expect(await hookUp(recorder({ 'Runtime.evaluate': { exceptionDetails: {} } }), 3, 'S', { url: '', type: 'worker' })).to.equal(null);
    expect(await hookUp(recorder({ 'Runtime.enable': new Error('gone') }), 3, 'S', { url: '', type: 'worker' })).to.equal(null);
  });
  it('tells a frame\'s reply (text, a binary\'s size, the socket\'s error) once, to the handlers that let it go', () => {
    const replies = createFrameReplies(60_000);
    /** @type {WriteOutcome[]} */
    const told = [];
    /** @type {HeldRequest} */
    const req = { kind: 'channel', method: 'SEND', url: 'wss://a.test/', type: 'websocket', topLevel: false };
    const handlers = { wants: () => true, decide: async () => true, settled: (/** @type {HeldRequest} */ _r, /** @type {WriteOutcome} */ o) => { told.push(o); } };
    replies.expect('S', 1, req, handlers);
    replies.expect('S', 2, req, handlers);
    replies.expect('S', 3, req, handlers);
    replies.replied('S', { id: 1, reply: { text: 'ok' } });
    replies.replied('S', { id: 1, reply: { text: 'again' } });
    replies.replied('S', { id: 2, reply: { bytes: 12 } });
    replies.replied('S', { id: 3, reply: { error: 'closed' } });
    replies.replied('OTHER', { id: 3, reply: {} });
    expect(told).to.deep.equal([{ status: 101, reply: 'ok' }, { status: 101, reply: '(binary, 12 bytes)' }, { error: 'the socket closed before the frame could leave (closed)' }]);
  });
});
