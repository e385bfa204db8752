// Chrome's request hold (docs/SECURITY.md): while the safety guard arms it on a tab, every request
// the tab's page and the targets it owns (out-of-process frames, dedicated workers, its service
// worker: cdp/targets.js) start is paused by CDP Fetch at the request stage, in the session it came
// from; the ones the policy wants wait for its decision, the rest continue at once. A paused request
// is never left behind: release() disables interception everywhere, a detached debugger lets
// everything go, and a failing decision fails it. Writes let go are followed to their answer
// (cdp/write-answers.js). A worker's WebSocket frames are held by cdp/worker-channels.js; a page's by
// the page-world hook. A shared worker is refused (a new one) or has its requests refused (one
// already running): cdp/targets.js and cdp/shared-workers.js say why.
/** @import { EffectHold, HeldRequest, HoldHandlers } from '../types/safety' */
/** @import { createCdpSessions } from './session.js' */
import { heldRequest } from './held-request.js';
import { createTargets, FETCH_PATTERNS, NETWORK_BUFFERS } from './targets.js';
import { createWriteAnswers } from './write-answers.js';
import { createWorkerChannels } from './worker-channels.js';
import { createFirstBytes, savedResponse } from '../agent/safety/first-bytes.js';
import { base64ToBytes } from '../agent/safety/body-kind.js';

/** A dedicated worker's request pauses in its frame's session but is announced in the worker's: how long to wait for that announcement. */
const SENDER_WAIT_MS = 150;
/** Children stay attached this long after a release for the answers of writes still in flight. */
const ANSWER_WAIT_MS = 10_000;
const MAX_SEEN = 1000;

/**
 * @param {ReturnType<typeof createCdpSessions>} cdp
 */
export function createNetHold(cdp) {
  /** Armed tabs and their handlers. @type {Map<number, HoldHandlers>} */
  const armed = new Map();
  // A running shared worker's request, refused while held (cdp/shared-workers.js): told to the run.
  const targets = createTargets(cdp, createWorkerChannels(cdp, (tabId) => armed.get(tabId)),
    (tabId, what) => armed.get(tabId)?.refused?.({ channel: 'shared_worker_request', url: what.url, method: what.method, worker: what.worker }));
  const answers = createWriteAnswers(cdp, (tabId) => armed.get(tabId));
  /** The session each request was announced in (Network.requestWillBeSent), by tab and Network id. @type {Map<string, { sessionId?: string, documentUrl?: string }>} */
  const seen = new Map();
  /** Waiting for an announcement. @type {Map<string, () => void>} */
  const waiting = new Map();
  /** GETs of a document let go with their response paused, to read a download's first bytes: `${tabId}|${sessionId}|${requestId}`. */
  const reading = new Set();
  const firstBytes = createFirstBytes();
  /** Decisions still to come, by tab: interception stays on for them after a release. @type {Map<number, Set<Promise<unknown>>>} */
  const deciding = new Map();

  cdp.onEvent((tabId, method, params, sessionId) => {
    if (method === 'Network.requestWillBeSent') { announce(tabId, params, sessionId); return; }
    if (method !== 'Fetch.requestPaused') return;
    const id = /** @type {string} */ (params.requestId);
    if (params.responseStatusCode !== undefined || params.responseErrorReason) { answered(tabId, sessionId, params); return; }
    const handlers = armed.get(tabId);
    // Interception outlived its hold (released a moment ago): let it go.
    if (!handlers) { cdp.sendTo(tabId, sessionId, 'Fetch.continueRequest', { requestId: id }).catch(() => {}); return; }
    paused(tabId, sessionId, params, handlers).catch(() => cdp.sendTo(tabId, sessionId, 'Fetch.continueRequest', { requestId: id }).catch(() => {}));
  });
  cdp.onDetach((tabId) => { armed.delete(tabId); answers.forget(tabId); });

  /** @param {number} tabId @param {any} p @param {string | undefined} sessionId */
  function announce(tabId, p, sessionId) {
    const key = `${tabId}|${p.requestId}`;
    if (!seen.has(key)) seen.set(key, { sessionId, documentUrl: p.documentURL });
    if (seen.size > MAX_SEEN) seen.delete(/** @type {string} */ (seen.keys().next().value));
    waiting.get(key)?.();
  }

  /** Where a paused request was announced, waiting a moment for a worker's announcement. @param {number} tabId @param {string | undefined} networkId */
  async function announcedIn(tabId, networkId) {
    if (!networkId) return undefined;
    const key = `${tabId}|${networkId}`;
    if (!seen.has(key)) {
      await new Promise((resolve) => {
        const timer = setTimeout(done, SENDER_WAIT_MS);
        function done() { clearTimeout(timer); waiting.delete(key); resolve(undefined); }
        waiting.set(key, done);
      });
    }
    return seen.get(key);
  }

  /** @param {number} tabId @param {string | undefined} sessionId @param {any} params @param {HoldHandlers} handlers */
  async function paused(tabId, sessionId, params, handlers) {
    const id = /** @type {string} */ (params.requestId);
    const method = String(params.request?.method ?? 'GET').toUpperCase();
    // Only writes need their sender named before the card; reads go on at once.
    const announced = method === 'GET' || method === 'HEAD' ? undefined : await announcedIn(tabId, params.networkId);
    const answerSession = announced ? announced.sessionId : sessionId;
    const sender = targets.sender(tabId, answerSession);
    const req = heldRequest(params, cdp.mainFrameId(tabId), {
      inPage: !sessionId, source: sender.source,
      initiator: sender.url ?? announced?.documentUrl,
    });
    let wanted = false;
    try { wanted = handlers.wants(req); } catch { wanted = true; }
    // What a navigation brings may be a download: its response pauses so its first bytes can be read.
    const read = method === 'GET' && (req.type === 'document' || req.type === 'other');
    const readKey = `${tabId}|${sessionId}|${id}`;
    if (!wanted) {
      if (read) reading.add(readKey);
      await cdp.sendTo(tabId, sessionId, 'Fetch.continueRequest', { requestId: id, ...(read ? { interceptResponse: true } : {}) });
      return;
    }
    // A declined navigation is aborted (the tab stays on its page); BlockedByClient would leave it on
    // an error page. Other requests fail as blocked, which the page sees as a network error.
    const refusal = req.topLevel ? 'Aborted' : 'BlockedByClient';
    const decision = handlers.decide(req).catch(() => false);
    const pending = deciding.get(tabId) ?? new Set();
    deciding.set(tabId, pending);
    // A release waits until the decision has reached Chrome, not only until it is made: Fetch.disable
    // lets every request still paused go on unasked, so a write refused as the run stopped (Stop
    // while its card waited) went to the server when the disable overtook the failRequest.
    /** @type {() => void} */
    let told = () => {};
    const telling = new Promise((resolve) => { told = () => resolve(undefined); });
    pending.add(telling);
    try {
      const allowed = await decision;
      const followed = allowed && req.method !== 'GET' && req.method !== 'HEAD' && Boolean(params.networkId);
      if (followed) answers.track(tabId, answerSession, params.networkId, req, handlers);
      if (allowed && read) reading.add(readKey);
      // A write let go pauses again with its answer: its body is read there, since a fetch() whose page
      // never reads the body never finishes loading, and Network.getResponseBody has nothing to give.
      await cdp.sendTo(tabId, sessionId,
        allowed ? 'Fetch.continueRequest' : 'Fetch.failRequest',
        allowed ? { requestId: id, ...(followed || (read && allowed) ? { interceptResponse: true } : {}) } : { requestId: id, errorReason: refusal });
    } finally {
      pending.delete(telling);
      told();
    }
  }

  /**
   * A write's answer, paused at the response stage: read its body (not a redirect's, which has
   * none to give), hand it to the write's tracking, and let the answer go on to the page.
   * @param {number} tabId @param {string | undefined} sessionId @param {any} p
   */
  async function answered(tabId, sessionId, p) {
    const status = Number(p.responseStatusCode);
    if (reading.delete(`${tabId}|${sessionId}|${p.requestId}`)) {
      if (!p.responseErrorReason && savedResponse(p.responseHeaders ?? [], status)) await readFirstBytes(tabId, sessionId, p);
      await cdp.sendTo(tabId, sessionId, 'Fetch.continueRequest', { requestId: p.requestId }).catch(() => {});
      return;
    }
    const redirect = status >= 300 && status < 400 && (p.responseHeaders ?? []).some((/** @type {any} */ h) => /^location$/i.test(h.name));
    if (!p.responseErrorReason && !redirect && p.networkId) {
      const r = await cdp.sendTo(tabId, sessionId, 'Fetch.getResponseBody', { requestId: p.requestId }).catch(() => null);
      if (r && typeof r.body === 'string') answers.bodyRead(tabId, String(p.networkId), r);
    }
    await cdp.sendTo(tabId, sessionId, 'Fetch.continueRequest', { requestId: p.requestId }).catch(() => {});
  }

  /**
   * A response the browser will save: its first bytes, for the download's card (a program under a
   * document's name). Chrome gives a paused response's body whole; savedResponse() bounds its size.
   * @param {number} tabId @param {string | undefined} sessionId @param {any} p
   */
  async function readFirstBytes(tabId, sessionId, p) {
    const r = await cdp.sendTo(tabId, sessionId, 'Fetch.getResponseBody', { requestId: p.requestId }).catch(() => null);
    if (!r || typeof r.body !== 'string') return;
    const bytes = r.base64Encoded ? base64ToBytes([r.body.slice(0, 64)]) : new TextEncoder().encode(r.body.slice(0, 16));
    firstBytes.note(String(p.request?.url ?? ''), bytes);
  }

  /**
   * After a release: requests still waiting for a decision keep waiting for it (disabling Fetch
   * would let them go unasked), then interception stops everywhere; children stay attached until
   * the writes in flight have their answers (or a bound), then go.
   * @param {number} tabId
   */
  async function disarm(tabId) {
    while (deciding.get(tabId)?.size) await Promise.all([...(deciding.get(tabId) ?? [])]);
    if (armed.has(tabId)) { cdp.unpin(tabId); return; }
    await cdp.send(tabId, 'Fetch.disable').catch(() => {});
    await targets.stopHolding(tabId);
    const deadline = Date.now() + ANSWER_WAIT_MS;
    const leave = () => {
      if (armed.has(tabId)) { cdp.unpin(tabId); return; }
      if (answers.pending(tabId) && Date.now() < deadline) { setTimeout(leave, 250); return; }
      targets.detach(tabId).finally(() => cdp.unpin(tabId));
    };
    leave();
  }

  return {
    /** The first bytes of a download a held tab fetched (base64), when they were read. @param {string} url */
    async downloadBytes(url) { return firstBytes.get(url); },
    /**
     * @param {number} tabId @param {HoldHandlers} handlers
     * @returns {Promise<EffectHold | null>} null when the debugger cannot attach (DevTools open)
     */
    async hold(tabId, handlers) {
      try {
        await cdp.pin(tabId);
        armed.set(tabId, handlers);
        // The Network domain tells how a write let go ended; it stays on while attached.
        await cdp.send(tabId, 'Network.enable', NETWORK_BUFFERS);
        await cdp.send(tabId, 'Fetch.enable', { patterns: FETCH_PATTERNS });
        await targets.hold(tabId);
      } catch {
        armed.delete(tabId);
        await cdp.send(tabId, 'Fetch.disable').catch(() => {});
        cdp.unpin(tabId);
        return null;
      }
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          if (armed.get(tabId) === handlers) armed.delete(tabId);
          // New requests go on at once from now (no handlers); the cleanup waits in the background.
          disarm(tabId);
        },
      };
    },
  };
}
