// The tab's request log in Chrome, from the CDP Network domain: kept from the first watch while the
// debugger stays attached (a watch pins the session); response bodies come from Chrome's own buffer.
/** @import { NetworkEntry, NetworkLog } from '../types/platform' */

const MAX_ENTRIES = 500;

/** @param {ReturnType<typeof import('./session.js').createCdpSessions>} cdp @returns {NetworkLog} */
export function createNetworkLog(cdp) {
  /** @type {Map<number, { entries: NetworkEntry[], byRequest: Map<string, NetworkEntry & { t0: number, requestId: string }>, next: number }>} */
  const logs = new Map();
  /** @type {Set<number>} */
  const watched = new Set();

  /** @param {number} tabId */
  const logOf = (tabId) => {
    let log = logs.get(tabId);
    if (!log) { log = { entries: [], byRequest: new Map(), next: 1 }; logs.set(tabId, log); }
    return log;
  };

  cdp.onDetach((tabId) => watched.delete(tabId));
  chrome.tabs.onRemoved.addListener((tabId) => { watched.delete(tabId); logs.delete(tabId); });
  cdp.onEvent((tabId, method, p, sessionId) => {
    // The page's own requests; child targets' (workers, out-of-process frames) are the hold's business.
    if (sessionId || !watched.has(tabId) || !method.startsWith('Network.')) return;
    const log = logOf(tabId);
    const e = log.byRequest.get(p.requestId);
    if (method === 'Network.requestWillBeSent') {
      if (e && p.redirectResponse) { e.status = p.redirectResponse.status; e.ms = (p.timestamp - e.t0) * 1000; }
      const entry = { id: `r${log.next++}`, requestId: p.requestId, method: p.request.method, url: p.request.url, type: String(p.type ?? 'other').toLowerCase(),
        startedAt: Math.round((p.wallTime ?? Date.now() / 1000) * 1000), t0: p.timestamp, requestHeaders: p.request.headers };
      log.byRequest.set(p.requestId, entry);
      log.entries.push(entry);
      if (log.entries.length > MAX_ENTRIES) {
        const old = /** @type {any} */ (log.entries.shift());
        if (log.byRequest.get(old.requestId) === old) log.byRequest.delete(old.requestId);
      }
    } else if (!e) {
      // a request from before the watch
    } else if (method === 'Network.responseReceived') {
      e.status = p.response.status;
      e.mimeType = p.response.mimeType;
      e.fromCache = p.response.fromDiskCache || p.response.fromServiceWorker || undefined;
      e.responseHeaders = p.response.headers;
    } else if (method === 'Network.loadingFinished') {
      e.size = p.encodedDataLength;
      e.ms = (p.timestamp - e.t0) * 1000;
    } else if (method === 'Network.loadingFailed') {
      e.error = p.canceled ? 'cancelled' : p.blockedReason ? `blocked (${p.blockedReason})` : p.errorText;
      e.ms = (p.timestamp - e.t0) * 1000;
    }
  });

  return {
    async watch(tabId) {
      if (watched.has(tabId)) return;
      await cdp.send(tabId, 'Network.enable', { maxTotalBufferSize: 20_000_000, maxResourceBufferSize: 5_000_000 });
      await cdp.pin(tabId);
      watched.add(tabId);
    },
    async unwatch(tabId) {
      if (!watched.delete(tabId)) return;
      // The Network domain stays on (the request hold reads write answers from it) until the debugger detaches.
      cdp.unpin(tabId);
    },
    watching: (tabId) => watched.has(tabId),
    list: (tabId) => (logs.get(tabId)?.entries ?? []).map((e) => { const { t0: _t, requestId: _r, ...rest } = /** @type {any} */ (e); return /** @type {NetworkEntry} */ (rest); }),
    async body(tabId, id, maxChars) {
      const e = /** @type {any} */ (logs.get(tabId)?.entries.find((x) => x.id === id));
      if (!e) return null;
      const r = await cdp.send(tabId, 'Network.getResponseBody', { requestId: e.requestId }).catch(() => null);
      if (!r) return null;
      const text = r.base64Encoded ? new TextDecoder().decode(Uint8Array.from(atob(r.body), (c) => c.charCodeAt(0))) : String(r.body);
      return { text: text.slice(0, maxChars), truncated: text.length > maxChars };
    },
  };
}
