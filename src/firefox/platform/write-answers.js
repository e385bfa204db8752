// What the server said to each write Firefox's hold let go: the first status (a 303 of a form post),
// where a redirect ended and its status, who answered, and the body of the final answer, copied as
// it streams through webRequest.filterResponseData (up to 64 kB; the page gets every byte unchanged).
// Each write's outcome is told once, when both the request and the copy have ended; a body that
// cannot be copied leaves the outcome without one.
/** @import { HeldRequest, HoldHandlers, WriteOutcome } from '../types/safety' */
import { classifyBody, concatBytes } from '../agent/safety/body-kind.js';

const MAX_BODY = 64 * 1024;

/**
 * @typedef {{ req: HeldRequest, outcome: WriteOutcome, chunks: Uint8Array[], size: number,
 *   ended: boolean, copied: boolean, read?: boolean }} Tracked
 */

/** @param {HoldHandlers} handlers */
export function createWriteAnswers(handlers) {
  /** By webRequest request id. @type {Map<string, Tracked>} */
  const writes = new Map();

  /** @param {Tracked} w @param {string} requestId */
  function finish(w, requestId) {
    if (!w.ended || !w.copied || writes.get(requestId) !== w) return;
    writes.delete(requestId);
    if (w.size) {
      const kind = classifyBody(concatBytes(w.chunks), { contentType: w.outcome.contentType });
      if ('text' in kind) w.outcome.body = kind.text;
    } else if (w.read) {
      // Copied to its end and empty: an empty body, not one that could not be read.
      w.outcome.body = '';
    }
    try { handlers.settled?.(w.req, w.outcome); } catch { /* the guard's own failure */ }
  }

  /** Copy the response body as it passes. @param {string} requestId @param {Tracked} w */
  function copy(requestId, w) {
    let filter;
    try { filter = browser.webRequest.filterResponseData(requestId); } catch { w.copied = true; return; }
    filter.ondata = (e) => {
      filter.write(e.data);
      if (w.size < MAX_BODY) { const b = new Uint8Array(e.data); w.chunks.push(b.subarray(0, MAX_BODY - w.size)); w.size += Math.min(b.byteLength, MAX_BODY - w.size); }
    };
    filter.onstop = () => { filter.close(); w.copied = true; w.read = true; finish(w, requestId); };
    filter.onerror = () => { w.copied = true; finish(w, requestId); };
  }

  return {
    /** Follow a write let go (called before it leaves). @param {string} requestId @param {HeldRequest} req */
    track(requestId, req) {
      /** @type {Tracked} */
      const w = { req, outcome: {}, chunks: [], size: 0, ended: false, copied: false };
      writes.set(requestId, w);
      copy(requestId, w);
    },
    /** @param {browser.webRequest._OnBeforeRedirectDetails} d */
    redirected(d) {
      const w = writes.get(d.requestId);
      if (!w) return;
      w.outcome.status ??= d.statusCode;
      w.outcome.finalUrl = d.redirectUrl;
    },
    /** @param {browser.webRequest._OnCompletedDetails} d */
    completed(d) {
      const w = writes.get(d.requestId);
      if (!w) return;
      if (w.outcome.finalUrl) w.outcome.finalStatus = d.statusCode; else w.outcome.status = d.statusCode;
      const type = d.responseHeaders?.find((h) => h.name.toLowerCase() === 'content-type')?.value;
      if (type) w.outcome.contentType = type.split(';')[0].trim();
      // A response the page's service worker made up never met a server: no address, not from the cache.
      w.outcome.answeredBy = d.fromCache ? 'cache' : !d.ip && !/^(data|blob|about):/.test(d.url) ? 'service_worker' : 'server';
      w.ended = true;
      finish(w, d.requestId);
    },
    /** @param {browser.webRequest._OnErrorOccurredDetails} d */
    failed(d) {
      const w = writes.get(d.requestId);
      if (!w) return;
      if (w.outcome.status === undefined) w.outcome.error = d.error || 'failed';
      w.ended = true;
      w.copied = true;
      finish(w, d.requestId);
    },
    pending() { return writes.size; },
  };
}
