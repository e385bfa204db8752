// Firefox's request hold (docs/SECURITY.md): while the safety guard arms it on a tab, blocking
// webRequest.onBeforeRequest listeners see every request before it leaves: the tab's own (its
// frames and dedicated workers carry its tab id) and those that belong to no tab but come from the
// tab's origin (its service worker, a shared worker: tab id -1, matched by their document or origin
// URL). The ones the policy wants get a promise of its decision (Firefox waits for it), the rest go
// at once. release() removes the listeners; promises already handed out still resolve. Writes let go
// are followed to their answer (platform/write-answers.js). WebSockets are seen here only as their
// upgrade request: a worker's socket (whose frames no hook can reach) asks before it opens, and one
// opened before the hold began is handed to the guard (`unheld`), which asks before each step.
/** @import { EffectHold, HeldRequest, HoldHandlers } from '../types/safety' */
import { parseBody } from '../agent/safety/request-body.js';
import { classifyBody, concatBytes } from '../agent/safety/body-kind.js';
import { createWriteAnswers } from './write-answers.js';
import { workerSocketsOpenBefore } from './worker-sockets.js';

/** Firefox's resource types, named as Chrome's CDP names them where they differ. */
const TYPES = /** @type {Record<string, string>} */ ({ main_frame: 'document', sub_frame: 'sub_frame', xmlhttprequest: 'xhr', csp_report: 'csp_report' });
/** Answers to writes already let go may still come after the release: listen this much longer. */
const ANSWER_WAIT_MS = 10_000;
/** A service worker passes a page's request on at once; its copy comes within this. */
const PASSED_ON_MS = 10_000;
/**
 * A request of no tab (a service worker's) goes to every hold armed on its origin: the first to see
 * it asks, the others let it wait for that answer, so two tabs of one site never ask twice. Which
 * tab's panel shows the card cannot be told from the request (docs/SECURITY.md). @type {Map<string, number>}
 */
const claimed = new Map();

/**
 * @param {number} tabId @param {HoldHandlers} handlers
 * @returns {Promise<EffectHold | null>}
 */
export async function holdRequests(tabId, handlers) {
  const answers = createWriteAnswers(handlers);
  /** The tab's origin now, to match requests that belong to no tab. */
  let tabOrigin = originOf((await browser.tabs.get(tabId).catch(() => null))?.url ?? '');
  /** @param {number} id @param {{ url?: string }} change */
  const onUpdated = (id, change) => { if (id === tabId && change.url) tabOrigin = originOf(change.url); };

  /**
   * Decisions by request id. A page or worker controlled by a service worker with a fetch handler
   * sends each request twice through onBeforeRequest, with the same id: to the worker, then (when it
   * does not answer) to the network. One request, one question. @type {Map<string, { key: string, allowed: Promise<boolean> }>}
   */
  const decided = new Map();
  /**
   * The tab's writes decided a moment ago, by method and URL. A service worker whose fetch handler
   * passes a request on sends it again as its own (tab id -1, another request id): the same write,
   * already asked about, is not asked twice. Each decision is used once. @type {Map<string, { body: string, at: number, allowed: Promise<boolean> }[]>}
   */
  const passedOn = new Map();

  /** @param {browser.webRequest._OnBeforeRequestDetails} d */
  const listener = (d) => {
    if (d.tabId === tabId && d.type === 'main_frame') tabOrigin = originOf(d.url);
    if (d.tabId !== tabId && !(tabOrigin && senderOrigin(d) === tabOrigin)) return {};
    if (d.tabId === -1) {
      const owner = claimed.get(d.requestId);
      if (owner !== undefined && owner !== tabId) return {};
      claimed.set(d.requestId, tabId);
      if (claimed.size > 500) claimed.delete(/** @type {string} */ (claimed.keys().next().value));
    }
    const req = heldRequest(d, tabOrigin);
    let wanted = false;
    try { wanted = handlers.wants(req); } catch { wanted = true; }
    if (!wanted) return {};
    const key = `${req.method} ${req.url} ${req.body ?? ''}`;
    const earlier = decided.get(d.requestId);
    if (earlier?.key === key) return earlier.allowed.then((allowed) => ({ cancel: !allowed }));
    const same = d.tabId === -1 ? samePassedOn(req) : undefined;
    if (same) return same.then((ok) => {
      if (ok && req.method !== 'GET' && req.method !== 'HEAD') answers.track(d.requestId, req);
      return { cancel: !ok };
    });
    const allowed = handlers.decide(req).catch(() => false);
    if (d.tabId === tabId && req.method !== 'GET' && req.method !== 'HEAD') remember(req, allowed);
    decided.set(d.requestId, { key, allowed });
    if (decided.size > 500) decided.delete(/** @type {string} */ (decided.keys().next().value));
    return allowed.then((ok) => {
      if (ok && req.method !== 'GET' && req.method !== 'HEAD') answers.track(d.requestId, req);
      return { cancel: !ok };
    });
  };
  /** @param {HeldRequest} req @param {Promise<boolean>} allowed */
  function remember(req, allowed) {
    const k = `${req.method} ${req.url}`;
    const now = Date.now();
    const list = (passedOn.get(k) ?? []).filter((e) => now - e.at < PASSED_ON_MS);
    list.push({ body: req.body ?? '', at: now, allowed });
    passedOn.set(k, list);
    if (passedOn.size > 200) passedOn.delete(/** @type {string} */ (passedOn.keys().next().value));
  }

  /** The tab's decision on this very write, when the service worker passes it on. @param {HeldRequest} req */
  function samePassedOn(req) {
    const list = passedOn.get(`${req.method} ${req.url}`);
    if (!list) return undefined;
    const now = Date.now();
    // The worker's copy may come without a readable body: it is still the write the tab sent.
    const i = list.findIndex((e) => now - e.at < PASSED_ON_MS && (e.body === (req.body ?? '') || (req.body === undefined && !req.fields)));
    if (i < 0) return undefined;
    const [hit] = list.splice(i, 1);
    return hit.allowed;
  }

  // The tab's requests, and those of no tab (its service worker's): one registration each, since
  // Firefox keeps a single registration per listener function.
  const urls = ['<all_urls>'];
  const registrations = [{ urls, tabId }, { urls, tabId: -1 }].map((filter) => ({
    filter,
    before: /** @param {browser.webRequest._OnBeforeRequestDetails} d */ (d) => listener(d),
    redirected: /** @param {browser.webRequest._OnBeforeRedirectDetails} d */ (d) => answers.redirected(d),
    completed: /** @param {browser.webRequest._OnCompletedDetails} d */ (d) => answers.completed(d),
    failed: /** @param {browser.webRequest._OnErrorOccurredDetails} d */ (d) => answers.failed(d),
  }));
  try {
    for (const r of registrations) {
      browser.webRequest.onBeforeRequest.addListener(/** @type {any} */ (r.before), r.filter, ['blocking', 'requestBody']);
      browser.webRequest.onBeforeRedirect.addListener(r.redirected, r.filter);
      browser.webRequest.onCompleted.addListener(r.completed, r.filter, ['responseHeaders']);
      browser.webRequest.onErrorOccurred.addListener(r.failed, r.filter);
    }
    browser.tabs.onUpdated.addListener(onUpdated);
  } catch {
    return null;
  }
  let released = false;
  // Workers' sockets opened before the hold: their frames go unseen (platform/worker-sockets.js).
  const unheld = workerSocketsOpenBefore(tabId, tabOrigin);
  return {
    ...(unheld.length ? { unheld } : {}),
    async release() {
      if (released) return;
      released = true;
      for (const r of registrations) browser.webRequest.onBeforeRequest.removeListener(/** @type {any} */ (r.before));
      browser.tabs.onUpdated.removeListener(onUpdated);
      const deadline = Date.now() + ANSWER_WAIT_MS;
      const stop = () => {
        if (answers.pending() && Date.now() < deadline) { setTimeout(stop, 250); return; }
        for (const r of registrations) {
          browser.webRequest.onBeforeRedirect.removeListener(r.redirected);
          browser.webRequest.onCompleted.removeListener(r.completed);
          browser.webRequest.onErrorOccurred.removeListener(r.failed);
        }
      };
      stop();
    },
  };
}

/**
 * @param {browser.webRequest._OnBeforeRequestDetails} d @param {string} tabOrigin
 * @returns {HeldRequest}
 */
function heldRequest(d, tabOrigin) {
  const method = String(d.method ?? 'GET').toUpperCase();
  const sender = senderOf(d, tabOrigin);
  return {
    kind: 'request', method, url: d.url, type: TYPES[d.type] ?? d.type,
    topLevel: d.type === 'main_frame' && d.tabId !== -1,
    source: sender.source,
    ...(sender.initiator ? { initiator: sender.initiator } : {}),
    // No content script runs in a worker, and webRequest sees a socket's handshake, never its frames:
    // a worker's socket is asked about before it opens (the page's own frames are held in the page).
    ...(d.type === 'websocket' && (sender.source === 'worker' || sender.source === 'service_worker') ? { framesUnheld: true } : {}),
    ...requestBody(d),
  };
}

/**
 * Who sent it. No tab: the origin's service worker (Firefox names the worker's script as document
 * and origin, and gives a shared worker's requests the same shape: both are shown as the service
 * worker's). In the tab: a dedicated worker's requests carry no documentId (its script is their
 * "document"); a frame's document is on another site than the tab.
 * @param {browser.webRequest._OnBeforeRequestDetails} d @param {string} tabOrigin
 * @returns {{ source: NonNullable<HeldRequest['source']>, initiator?: string }}
 */
function senderOf(d, tabOrigin) {
  const initiator = d.documentUrl ?? d.originUrl;
  if (d.tabId === -1) return { source: 'service_worker', initiator };
  if (d.type === 'main_frame' || d.type === 'sub_frame') return { source: 'page', initiator: d.originUrl };
  if (!(/** @type {{ documentId?: string }} */ (d)).documentId) return { source: 'worker', initiator };
  if (d.frameId !== 0 && originOf(d.documentUrl ?? '') !== tabOrigin) return { source: 'frame', initiator };
  return { source: 'page', initiator };
}

/** The body as text and fields, or why it cannot be shown. @param {browser.webRequest._OnBeforeRequestDetails} d */
function requestBody(d) {
  const body = d.requestBody;
  if (body?.formData) return parseBody({ formData: /** @type {Record<string, string[]>} */ (body.formData) });
  if (!body?.raw?.length) return body?.error ? { opaque: { bytes: 0, why: /** @type {const} */ ('unavailable') } } : {};
  const parts = body.raw.map((r) => r.bytes).filter((b) => b !== undefined);
  if (parts.length < body.raw.length) return { opaque: { bytes: parts.reduce((n, b) => n + b.byteLength, 0), why: /** @type {const} */ ('unavailable') } };
  const kind = classifyBody(concatBytes(parts));
  return 'opaque' in kind ? { opaque: kind.opaque } : parseBody({ text: kind.text });
}

/** The origin a request belonging to no tab comes from. @param {browser.webRequest._OnBeforeRequestDetails} d */
function senderOrigin(d) { return originOf(d.documentUrl ?? d.originUrl ?? ''); }

/** @param {string} url */
function originOf(url) { try { const o = new URL(url).origin; return o === 'null' ? '' : o; } catch { return ''; } }
