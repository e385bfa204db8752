// What the server said to a write the hold let go, as each browser's platform layer tells the guard:
// the status, the body (a 200 whose body says {"ok":false} is a refusal only the body shows), a
// redirect's end, who answered; bodies that are not text named instead of printed.
import { expect } from 'chai';
import { classifyBody } from '../../src/chrome/agent/safety/body-kind.js';
import { createWriteAnswers as chromeAnswers } from '../../src/chrome/cdp/write-answers.js';
import { createWriteAnswers as firefoxAnswers } from '../../src/firefox/platform/write-answers.js';
import { heldRequest } from '../../src/chrome/cdp/held-request.js';

/** @import { HeldRequest, WriteOutcome } from '../../src/chrome/types/safety' */

/** @type {HeldRequest} */
const REQ = { kind: 'request', method: 'POST', url: 'https://notes.test/api/save', type: 'fetch', topLevel: false };

/** A CDP sessions double: events are fed by the test; getResponseBody answers from bodies, by session and id. */
function fakeCdp() {
  /** @type {Set<(tabId: number, method: string, params: any, sessionId?: string) => void>} */
  const listeners = new Set();
  /** @type {Map<string, { body: string, base64Encoded: boolean }>} */
  const bodies = new Map();
  /** @type {string[]} */
  const asked = [];
  const cdp = {
    bodies,
    asked,
    /** @param {string} method @param {any} params @param {string} [sessionId] */
    emit(method, params, sessionId) { for (const l of listeners) l(1, method, params, sessionId); },
    onEvent(/** @type {any} */ l) { listeners.add(l); return () => listeners.delete(l); },
    async sendTo(/** @type {number} */ _tab, /** @type {string | undefined} */ sessionId, /** @type {string} */ method, /** @type {any} */ params) {
      asked.push(`${sessionId ?? 'page'} ${method}`);
      const b = bodies.get(`${sessionId ?? ''}|${params.requestId}`);
      if (!b) throw new Error('No resource with given identifier found');
      return b;
    },
  };
  return cdp;
}

/** @param {{ settled: (req: HeldRequest, o: WriteOutcome) => void }} into */
const handlersFor = (into) => ({ wants: () => true, decide: async () => true, settled: into.settled });

describe('write answers (Chrome, CDP Network)', () => {
  it('tells a write whose body was read at Fetch\'s response stage as soon as it is answered (a fetch() the page never reads never finishes loading)', async () => {
    const cdp = fakeCdp();
    const answers = chromeAnswers(/** @type {any} */ (cdp));
    /** @type {WriteOutcome[]} */
    const told = [];
    answers.track(1, undefined, 'n9', REQ, handlersFor({ settled: (_r, o) => told.push(o) }));
    answers.bodyRead(1, 'n9', { body: Buffer.from('{"ok":false,"error":"No"}').toString('base64'), base64Encoded: true });
    cdp.emit('Network.responseReceived', { requestId: 'n9', response: { status: 200, mimeType: 'application/json' } });
    await new Promise((r) => setTimeout(r, 0));
    expect(told).to.deep.equal([{ status: 200, contentType: 'application/json', answeredBy: 'server', body: '{"ok":false,"error":"No"}' }]);
    expect(cdp.asked).to.deep.equal([]);
  });

  it('tells a 200 with {"ok":false} with its body, read in the session the write came from', async () => {
    const cdp = fakeCdp();
    const answers = chromeAnswers(/** @type {any} */ (cdp));
    /** @type {WriteOutcome[]} */
    const told = [];
    answers.track(1, 'WORKER', 'n1', REQ, handlersFor({ settled: (_r, o) => told.push(o) }));
    cdp.bodies.set('WORKER|n1', { body: '{"ok":false,"error":"Quota exceeded"}', base64Encoded: false });
    cdp.emit('Network.responseReceived', { requestId: 'n1', response: { status: 200, mimeType: 'application/json' } }, 'WORKER');
    // The same id in another session is another request: ignored.
    cdp.emit('Network.loadingFinished', { requestId: 'n1' });
    expect(told).to.have.length(0);
    cdp.emit('Network.loadingFinished', { requestId: 'n1' }, 'WORKER');
    await new Promise((r) => setTimeout(r, 0));
    expect(told).to.deep.equal([{ status: 200, contentType: 'application/json', answeredBy: 'server', body: '{"ok":false,"error":"Quota exceeded"}' }]);
    expect(cdp.asked).to.deep.equal(['WORKER Network.getResponseBody']);
    // Told once: a late duplicate event changes nothing.
    cdp.emit('Network.loadingFinished', { requestId: 'n1' }, 'WORKER');
    expect(told).to.have.length(1);
  });

  it('follows a form post answered 303 to the page it lands on; says when the service worker answered; tells a failure', async () => {
    const cdp = fakeCdp();
    const answers = chromeAnswers(/** @type {any} */ (cdp));
    /** @type {WriteOutcome[]} */
    const told = [];
    const handlers = handlersFor({ settled: (_r, o) => told.push(o) });
    answers.track(1, undefined, 'p1', REQ, handlers);
    cdp.emit('Network.requestWillBeSent', { requestId: 'p1', request: { url: 'https://notes.test/done' }, redirectResponse: { status: 303 } });
    cdp.emit('Network.responseReceived', { requestId: 'p1', response: { status: 200, mimeType: 'text/html' } });
    cdp.bodies.set('|p1', { body: Buffer.from('<h1>Saved</h1>').toString('base64'), base64Encoded: true });
    cdp.emit('Network.loadingFinished', { requestId: 'p1' });
    answers.track(1, undefined, 'p2', REQ, handlers);
    cdp.emit('Network.responseReceived', { requestId: 'p2', response: { status: 202, mimeType: 'application/json', fromServiceWorker: true } });
    // No body to read (evicted): the outcome is still told, without one.
    cdp.emit('Network.loadingFinished', { requestId: 'p2' });
    answers.track(1, undefined, 'p3', REQ, handlers);
    cdp.emit('Network.loadingFailed', { requestId: 'p3', errorText: 'net::ERR_CONNECTION_REFUSED' });
    await new Promise((r) => setTimeout(r, 0));
    // The failure needs no body read, so it may be told first.
    expect(told).to.have.deep.members([
      { status: 303, finalUrl: 'https://notes.test/done', finalStatus: 200, contentType: 'text/html', answeredBy: 'server', body: '<h1>Saved</h1>' },
      { status: 202, contentType: 'application/json', answeredBy: 'service_worker' },
      { error: 'net::ERR_CONNECTION_REFUSED' },
    ]);
    expect(answers.pending(1)).to.equal(0);
  });
});

describe('write answers (Chrome): a write the page\'s service worker answered', () => {
  it('never paused in Fetch, it is told to observed with its fields and answeredBy service_worker; other writes are not', async () => {
    const cdp = fakeCdp();
    /** @type {[HeldRequest, WriteOutcome][]} */
    const seen = [];
    const handlers = { wants: () => true, decide: async () => true, observed: (/** @type {HeldRequest} */ r, /** @type {WriteOutcome} */ o) => seen.push([r, o]) };
    chromeAnswers(/** @type {any} */ (cdp), () => handlers);
    cdp.emit('Network.requestWillBeSent', { requestId: 'q1', type: 'Fetch', documentURL: 'https://notes.test/', request: { url: 'https://notes.test/api/queue', method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, postData: 'note=Pay+rent' } });
    cdp.emit('Network.requestWillBeSent', { requestId: 'q2', type: 'Fetch', request: { url: 'https://notes.test/api/other', method: 'POST', postData: 'a=1' } });
    cdp.emit('Network.responseReceived', { requestId: 'q1', response: { status: 200, mimeType: 'application/json', fromServiceWorker: true } });
    cdp.emit('Network.responseReceived', { requestId: 'q2', response: { status: 200, mimeType: 'application/json' } });
    cdp.bodies.set('|q1', { body: '{"queued":true}', base64Encoded: false });
    cdp.emit('Network.loadingFinished', { requestId: 'q1' });
    cdp.emit('Network.loadingFinished', { requestId: 'q2' });
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).to.have.length(1);
    expect(seen[0][0]).to.deep.include({ method: 'POST', url: 'https://notes.test/api/queue', source: 'page', initiator: 'https://notes.test/', fields: [['note', 'Pay rent']] });
    expect(seen[0][1]).to.deep.equal({ status: 200, contentType: 'application/json', answeredBy: 'service_worker', body: '{"queued":true}' });
  });
});

describe('write answers (Firefox, filterResponseData)', () => {
  /** @type {any} */
  const g = globalThis;
  /** @type {Map<string, any>} */
  let filters;
  /** @type {unknown} */
  let saved;
  beforeEach(() => {
    saved = g.browser;
    filters = new Map();
    g.browser = { webRequest: { filterResponseData: (/** @type {string} */ id) => { const f = { written: /** @type {Uint8Array[]} */ ([]), write(/** @type {ArrayBuffer} */ d) { f.written.push(new Uint8Array(d)); }, close() { f.closed = true; }, closed: false, ondata: null, onstop: null, onerror: null }; filters.set(id, f); return f; } } };
  });
  afterEach(() => { g.browser = saved; });

  it('copies the body as it passes (the page gets every byte) and tells it once the request has ended', () => {
    /** @type {WriteOutcome[]} */
    const told = [];
    const answers = firefoxAnswers(handlersFor({ settled: (_r, o) => told.push(o) }));
    answers.track('7', REQ);
    const f = filters.get('7');
    const bytes = new TextEncoder().encode('{"ok":false}');
    f.ondata({ data: bytes.buffer });
    f.onstop();
    expect(f.written.map((/** @type {Uint8Array} */ b) => Buffer.from(b).toString())).to.deep.equal(['{"ok":false}']);
    expect(f.closed).to.equal(true);
    expect(told).to.have.length(0);
    answers.completed(/** @type {any} */ ({ requestId: '7', statusCode: 200, ip: '10.0.0.1', url: REQ.url, responseHeaders: [{ name: 'Content-Type', value: 'application/json; charset=utf-8' }] }));
    expect(told).to.deep.equal([{ status: 200, contentType: 'application/json', answeredBy: 'server', body: '{"ok":false}' }]);
  });

  it('follows a redirect; a response made up by the service worker (no server address); a network error', () => {
    /** @type {WriteOutcome[]} */
    const told = [];
    const answers = firefoxAnswers(handlersFor({ settled: (_r, o) => told.push(o) }));
    answers.track('1', REQ);
    answers.redirected(/** @type {any} */ ({ requestId: '1', statusCode: 303, redirectUrl: 'https://notes.test/done' }));
    filters.get('1').onstop();
    answers.completed(/** @type {any} */ ({ requestId: '1', statusCode: 200, ip: '10.0.0.1', url: 'https://notes.test/done' }));
    answers.track('2', REQ);
    filters.get('2').onerror();
    answers.completed(/** @type {any} */ ({ requestId: '2', statusCode: 200, url: REQ.url }));
    answers.track('3', REQ);
    answers.failed(/** @type {any} */ ({ requestId: '3', error: 'NS_ERROR_CONNECTION_REFUSED' }));
    expect(told).to.deep.equal([
      { status: 303, finalUrl: 'https://notes.test/done', finalStatus: 200, answeredBy: 'server', body: '' },
      { status: 200, answeredBy: 'service_worker' },
      { error: 'NS_ERROR_CONNECTION_REFUSED' },
    ]);
    expect(answers.pending()).to.equal(0);
  });
});

describe('body kind', () => {
  it('text stays text; gzip, a Content-Encoding, protobuf and binary types are named with size and type', () => {
    expect(classifyBody(new TextEncoder().encode('note=Buy+milk'))).to.deep.equal({ text: 'note=Buy+milk' });
    expect(classifyBody(Uint8Array.from([0x1f, 0x8b, 8, 0, 0, 0]))).to.deep.equal({ opaque: { bytes: 6, why: 'compressed' } });
    expect(classifyBody(new TextEncoder().encode('{"a":1}'), { contentEncoding: 'br' })).to.deep.include({ opaque: { bytes: 7, why: 'compressed' } });
    // A protobuf message: field 1 (a string "payee"), field 2 (varint 1200). Valid UTF-8, but control bytes.
    const proto = Uint8Array.from([0x0a, 0x05, ...new TextEncoder().encode('payee'), 0x10, 0xb0, 0x09]);
    expect(classifyBody(proto)).to.deep.equal({ opaque: { bytes: proto.length, why: 'binary' } });
    expect(classifyBody(new TextEncoder().encode('hello'), { contentType: 'application/x-protobuf' })).to.deep.equal({ opaque: { bytes: 5, contentType: 'application/x-protobuf', why: 'binary' } });
    expect(classifyBody(Uint8Array.from([0xff, 0xfe, 0x41]))).to.deep.include({ opaque: { bytes: 3, why: 'binary' } });
  });

  it('a held Chrome request with a binary body carries opaque, not mojibake; a multipart upload keeps its fields', () => {
    const proto = Buffer.from([0x0a, 0x03, 0x61, 0x62, 0x63, 0x10, 0x01]).toString('base64');
    const req = heldRequest({ request: { url: 'https://x.test/rpc', method: 'POST', headers: { 'Content-Type': 'application/grpc-web+proto' }, postDataEntries: [{ bytes: proto }] }, resourceType: 'Fetch' }, 'MAIN', { source: 'worker', initiator: 'https://x.test/w.js' });
    expect(req).to.deep.include({ source: 'worker', initiator: 'https://x.test/w.js', opaque: { bytes: 7, contentType: 'application/grpc-web+proto', why: 'binary' } });
    expect(req.body).to.equal(undefined);
    const mp = '--B\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--B--\r\n';
    expect(heldRequest({ request: { url: 'https://x.test/up', method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=B' }, postData: mp }, resourceType: 'Fetch' }, 'MAIN').fields).to.deep.equal([['note', 'hello']]);
    const big = heldRequest({ request: { url: 'https://x.test/up', method: 'POST', headers: { 'content-length': '900000' }, hasPostData: true }, resourceType: 'Fetch' }, 'MAIN');
    expect(big.opaque).to.deep.equal({ bytes: 900000, why: 'unavailable' });
  });
});
