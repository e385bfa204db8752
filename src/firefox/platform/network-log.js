// The tab's request log in Firefox, from webRequest: kept from the first watch. The bodies of
// fetch and XHR responses of a watched tab are copied (up to 256 kB each) as they stream through
// filterResponseData; the page gets every byte unchanged.
/** @import { NetworkEntry, NetworkLog } from '../types/platform' */

const MAX_ENTRIES = 500;
const MAX_BODY = 262_144;
const TYPES = /** @type {Record<string, string>} */ ({ main_frame: 'document', sub_frame: 'document', xmlhttprequest: 'xhr', stylesheet: 'stylesheet', script: 'script', image: 'image', font: 'font', media: 'media', websocket: 'websocket' });

/** @param {{ name: string, value?: string }[] | undefined} list */
const headers = (list) => (list ? Object.fromEntries(list.map((h) => [h.name, h.value ?? ''])) : undefined);

/** @returns {NetworkLog} */
export function createNetworkLog() {
  /** @type {Map<number, { entries: (NetworkEntry & { requestId: string, body?: string, bodyCut?: boolean })[], next: number }>} */
  const logs = new Map();
  /** @type {Set<number>} */
  const watched = new Set();
  const urls = ['<all_urls>'];

  /** @param {string} requestId @param {number} tabId */
  const find = (requestId, tabId) => logs.get(tabId)?.entries.findLast((e) => e.requestId === requestId);

  /** @param {browser.webRequest._OnBeforeRequestDetails} d */
  function onBefore(d) {
    if (!watched.has(d.tabId)) return {};
    let log = logs.get(d.tabId);
    if (!log) { log = { entries: [], next: 1 }; logs.set(d.tabId, log); }
    /** @type {NetworkEntry & { requestId: string, body?: string, bodyCut?: boolean }} */
    const entry = { id: `r${log.next++}`, requestId: d.requestId, method: d.method, url: d.url, type: TYPES[d.type] ?? 'other', startedAt: Math.round(d.timeStamp) };
    log.entries.push(entry);
    if (log.entries.length > MAX_ENTRIES) log.entries.shift();
    if (d.type === 'xmlhttprequest') copyBody(d.requestId, entry);
    return {};
  }

  /** @param {string} requestId @param {{ body?: string, bodyCut?: boolean }} entry */
  function copyBody(requestId, entry) {
    let filter;
    try { filter = browser.webRequest.filterResponseData(requestId); } catch { return; }
    const decoder = new TextDecoder();
    let text = '';
    filter.ondata = (e) => {
      filter.write(e.data);
      if (text.length < MAX_BODY) text += decoder.decode(e.data, { stream: true });
      else entry.bodyCut = true;
    };
    filter.onstop = () => { filter.close(); entry.body = text.slice(0, MAX_BODY); if (text.length > MAX_BODY) entry.bodyCut = true; };
    filter.onerror = () => { /* the request failed: no body */ };
  }

  /** @param {browser.webRequest._OnSendHeadersDetails} d */
  function onSend(d) {
    const e = find(d.requestId, d.tabId);
    if (e) e.requestHeaders = headers(d.requestHeaders);
  }
  /** @param {browser.webRequest._OnCompletedDetails} d */
  function onDone(d) {
    const e = find(d.requestId, d.tabId);
    if (!e) return;
    const h = headers(d.responseHeaders);
    e.status = d.statusCode;
    e.responseHeaders = h;
    e.mimeType = Object.entries(h ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1]?.split(';')[0].trim();
    e.fromCache = d.fromCache || undefined;
    const size = /** @type {any} */ (d).responseSize;
    e.size = typeof size === 'number' ? size : undefined;
    e.ms = d.timeStamp - e.startedAt;
  }
  /** @param {browser.webRequest._OnErrorOccurredDetails} d */
  function onError(d) {
    const e = find(d.requestId, d.tabId);
    if (e) { e.error = d.error; e.ms = d.timeStamp - e.startedAt; }
  }

  // Listening (and the blocking copy of bodies) only while some tab is watched: other tabs' requests never wait on it.
  function listen() {
    if (browser.webRequest.onBeforeRequest.hasListener(onBefore)) return;
    browser.webRequest.onBeforeRequest.addListener(onBefore, { urls }, ['blocking']);
    browser.webRequest.onSendHeaders.addListener(onSend, { urls }, ['requestHeaders']);
    browser.webRequest.onCompleted.addListener(onDone, { urls }, ['responseHeaders']);
    browser.webRequest.onErrorOccurred.addListener(onError, { urls });
  }
  function unlisten() {
    if (watched.size) return;
    browser.webRequest.onBeforeRequest.removeListener(onBefore);
    browser.webRequest.onSendHeaders.removeListener(onSend);
    browser.webRequest.onCompleted.removeListener(onDone);
    browser.webRequest.onErrorOccurred.removeListener(onError);
  }
  browser.tabs.onRemoved.addListener((tabId) => { watched.delete(tabId); logs.delete(tabId); unlisten(); });

  return {
    async watch(tabId) { watched.add(tabId); listen(); },
    async unwatch(tabId) { watched.delete(tabId); unlisten(); },
    watching: (tabId) => watched.has(tabId),
    list: (tabId) => (logs.get(tabId)?.entries ?? []).map(({ requestId: _r, body: _b, bodyCut: _c, ...rest }) => rest),
    async body(tabId, id, maxChars) {
      const e = logs.get(tabId)?.entries.find((x) => x.id === id);
      if (e?.body === undefined) return null;
      return { text: e.body.slice(0, maxChars), truncated: e.body.length > maxChars || e.bodyCut === true };
    },
  };
}
