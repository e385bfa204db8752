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
  /** @param {browser.webRequest._OnBeforeRequestDetails} d */
  const listener = (d) => {
    const req = heldRequest(d);
    let wanted = false;
    try { wanted = handlers.wants(req); } catch { wanted = true; }
    if (!wanted) return {};
    return handlers.decide(req).catch(() => false).then((allowed) => ({ cancel: !allowed }));
  };
  try {
    browser.webRequest.onBeforeRequest.addListener(/** @type {any} */ (listener), { urls: ['<all_urls>'], tabId }, ['blocking', 'requestBody']);
  } catch {
    return null;
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      browser.webRequest.onBeforeRequest.removeListener(/** @type {any} */ (listener));
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
