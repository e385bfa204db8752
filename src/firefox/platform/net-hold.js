// Firefox's request hold (docs/SECURITY.md): while the safety guard arms it on a tab, a blocking
// webRequest.onBeforeRequest listener filtered to that tab sees every request before it leaves; the
// ones the policy wants get a promise of its decision (Firefox waits for it), the rest go at once.
// release() removes the listener; promises already handed out still resolve. WebSockets are seen
// here only as their upgrade request; service workers' own requests belong to no tab.
/** @import { EffectHold, HeldRequest, HoldHandlers } from '../types/safety' */
import { bytesToText, parseBody } from '../agent/safety/request-body.js';

/** Firefox's resource types, named as Chrome's CDP names them where they differ. */
const TYPES = /** @type {Record<string, string>} */ ({ main_frame: 'document', sub_frame: 'sub_frame', xmlhttprequest: 'xhr', csp_report: 'csp_report' });

/**
 * @param {number} tabId @param {HoldHandlers} handlers
 * @returns {Promise<EffectHold | null>}
 */
export async function holdRequests(tabId, handlers) {
  /** Writes let go, by request id, until their answer. @type {Map<string, HeldRequest>} */
  const writes = new Map();
  /** @param {browser.webRequest._OnBeforeRequestDetails} d */
  const listener = (d) => {
    const req = heldRequest(d);
    let wanted = false;
    try { wanted = handlers.wants(req); } catch { wanted = true; }
    if (!wanted) return {};
    return handlers.decide(req).catch(() => false).then((allowed) => {
      if (allowed && req.method !== 'GET' && req.method !== 'HEAD') writes.set(d.requestId, req);
      return { cancel: !allowed };
    });
  };
  /** How a write let go ended. @param {{ requestId: string, statusCode?: number, error?: string }} d */
  const answered = (d) => {
    const req = writes.get(d.requestId);
    if (!req) return;
    writes.delete(d.requestId);
    handlers.settled?.(req, d.statusCode !== undefined ? { status: d.statusCode } : { error: d.error ?? 'failed' });
  };
  const filter = { urls: ['<all_urls>'], tabId };
  try {
    browser.webRequest.onBeforeRequest.addListener(/** @type {any} */ (listener), filter, ['blocking', 'requestBody']);
    browser.webRequest.onCompleted.addListener(answered, filter);
    browser.webRequest.onErrorOccurred.addListener(answered, filter);
  } catch {
    return null;
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      browser.webRequest.onBeforeRequest.removeListener(/** @type {any} */ (listener));
      // Answers to writes already let go may still come: listen a little longer.
      setTimeout(() => {
        browser.webRequest.onCompleted.removeListener(answered);
        browser.webRequest.onErrorOccurred.removeListener(answered);
      }, 10_000);
    },
  };
}

/** @param {browser.webRequest._OnBeforeRequestDetails} d @returns {HeldRequest} */
function heldRequest(d) {
  const method = String(d.method ?? 'GET').toUpperCase();
  const body = d.requestBody;
  /** @type {{ text?: string, formData?: Record<string, string[]> }} */
  const raw = {};
  if (body?.formData) raw.formData = /** @type {Record<string, string[]>} */ (body.formData);
  else if (body?.raw?.length) raw.text = bytesToText(body.raw.map((r) => r.bytes).filter((b) => b !== undefined));
  return {
    kind: 'request', method, url: d.url, type: TYPES[d.type] ?? d.type,
    topLevel: d.type === 'main_frame',
    ...parseBody(raw),
  };
}
