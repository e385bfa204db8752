// What the server said to each write the hold let go, read from the Network domain of the session the
// write came from (the page, a frame, a worker): the first status (a 303 of a form post), where a
// redirect ended and its status, who answered (the page's service worker, a cache), and the body of
// the final answer after Network.loadingFinished, as text up to 64 kB. Each write's outcome is told
// once; when its body cannot be read it is told without one. A write the page's own service worker
// took and answered never pauses in Fetch: it is told to the hold's observed handler instead.
/** @import { HeldRequest, HoldHandlers, WriteOutcome } from '../types/safety' */
import { base64ToBytes, classifyBody } from '../agent/safety/body-kind.js';
import { heldRequest } from './held-request.js';

/** A response whose end never comes (a stream, a hung page) is told without its body after this. */
const BODY_WAIT_MS = 10_000;
const MAX_TRACKED = 500;

/**
 * @typedef {{ req: HeldRequest, tell: (req: HeldRequest, outcome: WriteOutcome) => void, tabId: number, sessionId?: string, requestId: string,
 *   outcome: WriteOutcome, timer?: ReturnType<typeof setTimeout> }} Tracked
 */

/**
 * What this needs of cdp/session.js (so Node tests can stand in for it).
 * @typedef {{ onEvent(l: (tabId: number, method: string, params: any, sessionId?: string) => void): unknown,
 *   sendTo(tabId: number, sessionId: string | undefined, method: string, params?: Record<string, unknown>): Promise<any> }} CdpEvents
 */

/**
 * @param {CdpEvents} cdp
 * @param {(tabId: number) => HoldHandlers | undefined} [armedOn] the handlers of the hold armed on a tab
 */
export function createWriteAnswers(cdp, armedOn = () => undefined) {
  /** By tab, session and Network request id. @type {Map<string, Tracked>} */
  const writes = new Map();
  /** Writes announced while armed, until their answer shows whether the page's service worker took them. @type {Map<string, any>} */
  const announced = new Map();
  /** Bodies read at Fetch's response stage, by tab and Network id (the session may differ: a worker's write pauses in its frame's). @type {Map<string, { body: string, base64Encoded?: boolean }>} */
  const readAtPause = new Map();
  /** @param {number} tabId @param {string | undefined} sessionId @param {string} requestId */
  const keyOf = (tabId, sessionId, requestId) => `${tabId}|${sessionId ?? ''}|${requestId}`;

  cdp.onEvent((tabId, method, p, sessionId) => {
    if (!method.startsWith('Network.')) return;
    const key = keyOf(tabId, sessionId, String(p.requestId));
    const w = writes.get(key) ?? takenByWorker(tabId, sessionId, key, method, p);
    if (!w) return;
    if (method === 'Network.requestWillBeSent' && p.redirectResponse) {
      w.outcome.status ??= p.redirectResponse.status;
      w.outcome.finalUrl = String(p.request?.url ?? '');
    } else if (method === 'Network.responseReceived') {
      answered(w, p.response ?? {});
    } else if (method === 'Network.loadingFinished') {
      readBody(w).finally(() => finish(w));
    } else if (method === 'Network.loadingFailed') {
      if (w.outcome.status === undefined) w.outcome.error = p.canceled ? 'cancelled' : p.blockedReason ? `blocked (${p.blockedReason})` : String(p.errorText ?? 'failed');
      finish(w);
    }
  });

  /**
   * A write the page's service worker answered never paused in Fetch: follow it from its announcement
   * to its answer, and tell it as observed. @param {number} tabId @param {string | undefined} sessionId
   * @param {string} key @param {string} method @param {any} p @returns {Tracked | undefined}
   */
  function takenByWorker(tabId, sessionId, key, method, p) {
    if (method === 'Network.requestWillBeSent') {
      const m = String(p.request?.method ?? 'GET').toUpperCase();
      if (m === 'GET' || m === 'HEAD' || m === 'OPTIONS' || !armedOn(tabId)?.observed) return undefined;
      announced.set(key, p);
      if (announced.size > MAX_TRACKED) announced.delete(/** @type {string} */ (announced.keys().next().value));
      return undefined;
    }
    const a = announced.get(key);
    if (!a) return undefined;
    announced.delete(key);
    const observed = armedOn(tabId)?.observed;
    if (method !== 'Network.responseReceived' || !p.response?.fromServiceWorker || !observed) return undefined;
    const req = heldRequest({ request: a.request, resourceType: a.type, frameId: a.frameId }, null, { inPage: !sessionId, source: 'page', initiator: a.documentURL });
    /** @type {Tracked} */
    const w = { req: { ...req, topLevel: false }, tell: observed, tabId, sessionId, requestId: String(p.requestId), outcome: {} };
    writes.set(key, w);
    return w;
  }

  /** @param {Tracked} w @param {any} r Network.Response */
  function answered(w, r) {
    if (w.outcome.finalUrl) w.outcome.finalStatus = r.status;
    else w.outcome.status = r.status;
    if (r.mimeType) w.outcome.contentType = String(r.mimeType);
    w.outcome.answeredBy = r.fromServiceWorker ? 'service_worker' : r.fromDiskCache || r.fromPrefetchCache ? 'cache' : 'server';
    if (w.timer) clearTimeout(w.timer);
    w.timer = setTimeout(() => finish(w), BODY_WAIT_MS);
    // Its body was read when it paused: nothing more to wait for (loadingFinished may never come).
    if (!w.outcome.finalUrl && readAtPause.has(`${w.tabId}|${w.requestId}`)) readBody(w).finally(() => finish(w));
  }

  /** @param {Tracked} w */
  async function readBody(w) {
    const early = w.outcome.finalUrl ? undefined : readAtPause.get(`${w.tabId}|${w.requestId}`);
    readAtPause.delete(`${w.tabId}|${w.requestId}`);
    const r = early ?? await cdp.sendTo(w.tabId, w.sessionId, 'Network.getResponseBody', { requestId: w.requestId }).catch(() => null);
    if (!r || typeof r.body !== 'string') return;
    const bytes = r.base64Encoded ? base64ToBytes([r.body]) : new TextEncoder().encode(r.body);
    const kind = classifyBody(bytes, { contentType: w.outcome.contentType });
    if ('text' in kind) w.outcome.body = kind.text;
  }

  /** @param {Tracked} w */
  function finish(w) {
    const key = keyOf(w.tabId, w.sessionId, w.requestId);
    if (writes.get(key) !== w) return;
    writes.delete(key);
    if (w.timer) clearTimeout(w.timer);
    if (w.outcome.status === undefined && w.outcome.error === undefined) w.outcome.error = 'no answer';
    try { w.tell(w.req, w.outcome); } catch { /* the guard's own failure */ }
  }

  return {
    /**
     * Follow a write let go until its answer.
     * @param {number} tabId @param {string | undefined} sessionId @param {string} requestId Network's id (Fetch's networkId)
     * @param {HeldRequest} req @param {HoldHandlers} handlers
     */
    track(tabId, sessionId, requestId, req, handlers) {
      const key = keyOf(tabId, sessionId, requestId);
      announced.delete(key);
      writes.set(key, { req, tell: (r, o) => handlers.settled?.(r, o), tabId, sessionId, requestId, outcome: {} });
      if (writes.size > MAX_TRACKED) writes.delete(/** @type {string} */ (writes.keys().next().value));
    },
    /**
     * The body of a write's answer, read at Fetch's response stage (before the page gets it).
     * @param {number} tabId @param {string} networkId @param {{ body: string, base64Encoded?: boolean }} r
     */
    bodyRead(tabId, networkId, r) {
      readAtPause.set(`${tabId}|${networkId}`, r);
      if (readAtPause.size > MAX_TRACKED) readAtPause.delete(/** @type {string} */ (readAtPause.keys().next().value));
    },
    /** Writes of the tab still waiting for their answer. @param {number} tabId */
    pending(tabId) { let n = 0; for (const w of writes.values()) if (w.tabId === tabId) n++; return n; },
    /** The debugger left the tab: no answer will come through it (the writes stay unanswered, not failed). @param {number} tabId */
    forget(tabId) { for (const [k, w] of writes) if (w.tabId === tabId) { if (w.timer) clearTimeout(w.timer); writes.delete(k); } },
  };
}
