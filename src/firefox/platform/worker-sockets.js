// Worker WebSockets opened before a run (Firefox; docs/SECURITY.md). Firefox shows an extension a
// WebSocket only as its opening handshake (webRequest), never its frames, and no extension script
// runs in a worker. A socket a worker opened while no run held the tab is therefore out of reach
// once a run begins: whatever the worker sends over it leaves unseen. This watches every worker's
// handshake at all times (no blocking, no body: a cheap listener), so that a hold beginning on a tab
// knows which such sockets may still be open and can say so before each step acts
// (platform/net-hold.js; the guard asks before each step). A socket's close is not visible to
// extensions: a dedicated worker's is forgotten when its tab navigates or closes, a shared or
// service worker's when no tab shows its origin any more, and any after MAX_AGE_MS.
/** @import { HeldRequest } from '../types/safety' */

/** @typedef {{ url: string, tabId: number, origin: string, source: 'worker' | 'service_worker', initiator: string, at: number }} WorkerSocket */

/** A socket is assumed open at most this long (a page left open for a day keeps its sockets). */
const MAX_AGE_MS = 24 * 60 * 60_000;
const MAX_SOCKETS = 300;

/** @type {WorkerSocket[]} */
let sockets = [];
let watching = false;

/** Start watching (once, when the background starts). */
export function watchWorkerSockets() {
  if (watching) return;
  watching = true;
  try {
    browser.webRequest.onBeforeRequest.addListener(seen, { urls: ['ws://*/*', 'wss://*/*'], types: ['websocket'] });
    browser.webRequest.onErrorOccurred.addListener(failed, { urls: ['ws://*/*', 'wss://*/*'], types: ['websocket'] });
    browser.webRequest.onBeforeRequest.addListener(navigated, { urls: ['<all_urls>'], types: ['main_frame'] });
    browser.tabs.onRemoved.addListener((tabId) => { sockets = sockets.filter((s) => s.tabId !== tabId); sweep(); });
  } catch { watching = false; }
}

/** @param {browser.webRequest._OnBeforeRequestDetails} d */
function seen(d) {
  // A page's own sockets are held in the page (content/page-world.js): only workers' count here.
  const dedicated = d.tabId >= 0 && !(/** @type {{ documentId?: string }} */ (d)).documentId;
  if (!dedicated && d.tabId !== -1) return;
  const initiator = d.documentUrl ?? d.originUrl ?? '';
  sockets.push({ url: d.url, tabId: d.tabId, origin: originOf(initiator), source: dedicated ? 'worker' : 'service_worker', initiator, at: Date.now() });
  if (sockets.length > MAX_SOCKETS) sockets.shift();
  byRequest.set(d.requestId, sockets[sockets.length - 1]);
  if (byRequest.size > MAX_SOCKETS) byRequest.delete(/** @type {string} */ (byRequest.keys().next().value));
}

/** The socket of each handshake seen, by request id (a refused or failed one is forgotten). @type {Map<string, WorkerSocket>} */
const byRequest = new Map();

/** @param {browser.webRequest._OnErrorOccurredDetails} d */
function failed(d) {
  const s = byRequest.get(d.requestId);
  if (s) sockets = sockets.filter((x) => x !== s);
}

/** A tab that loads another document ends its dedicated workers. @param {browser.webRequest._OnBeforeRequestDetails} d */
function navigated(d) {
  if (d.tabId >= 0 && sockets.some((s) => s.tabId === d.tabId)) sockets = sockets.filter((s) => s.tabId !== d.tabId);
  if (sockets.some((s) => s.tabId === -1)) sweep();
}

/**
 * A shared or service worker ends soon after its origin's last page: its sockets are forgotten once
 * no tab shows that origin.
 */
async function sweep() {
  const tabs = await browser.tabs.query({}).catch(() => null);
  if (!tabs) return;
  const open = new Set(tabs.map((t) => originOf(t.url ?? '')));
  sockets = sockets.filter((s) => s.tabId !== -1 || open.has(s.origin));
}

/**
 * The worker sockets that may be open for a tab about to be held: its dedicated workers', and those
 * of the service or shared workers of its origin (they carry no tab). Each as a HeldRequest for the
 * policy: a socket whose frames cannot be held, opened before the run.
 * @param {number} tabId @param {string} origin
 * @returns {HeldRequest[]}
 */
export function workerSocketsOpenBefore(tabId, origin) {
  const now = Date.now();
  sockets = sockets.filter((s) => now - s.at < MAX_AGE_MS);
  /** @type {Map<string, HeldRequest>} */
  const out = new Map();
  for (const s of sockets) {
    if (s.tabId !== tabId && !(s.tabId === -1 && origin && s.origin === origin)) continue;
    out.set(`${s.source} ${s.url}`, { kind: 'request', method: 'GET', url: s.url, type: 'websocket', topLevel: false, source: s.source, initiator: s.initiator, framesUnheld: true, openBefore: true });
  }
  return [...out.values()];
}

/** @param {string} url */
function originOf(url) { try { const o = new URL(url).origin; return o === 'null' ? '' : o; } catch { return ''; } }
