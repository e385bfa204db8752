// A CDP Fetch.requestPaused event as the safety policy sees it (types/safety.d.ts HeldRequest).
/** @import { HeldRequest } from '../types/safety' */
import { parseBody } from '../agent/safety/request-body.js';
import { base64ToBytes, classifyBody } from '../agent/safety/body-kind.js';

/**
 * @param {any} p Fetch.requestPaused's parameters
 * @param {string | null} mainFrame the top frame's CDP id
 * @param {{ inPage?: boolean, source?: NonNullable<HeldRequest['source']>, initiator?: string }} [from]
 *   inPage: paused in the page's own session (not a child target's); source and initiator: who sent it
 * @returns {HeldRequest}
 */
export function heldRequest(p, mainFrame, from = {}) {
  const r = p.request ?? {};
  const type = String(p.resourceType ?? 'other').toLowerCase();
  const method = String(r.method ?? 'GET').toUpperCase();
  return {
    kind: 'request', method, url: String(r.url ?? ''), type: type === 'ping' && method !== 'GET' ? 'beacon' : type,
    topLevel: (from.inPage ?? true) && type === 'document' && (!mainFrame || p.frameId === mainFrame),
    source: from.source ?? 'page',
    ...(from.initiator ? { initiator: from.initiator } : {}),
    ...requestBody(r),
  };
}

/** The body as text and fields, or why it cannot be shown. @param {any} r Fetch's Network.Request */
function requestBody(r) {
  const headers = /** @type {Record<string, string>} */ (r.headers ?? {});
  const header = (/** @type {string} */ name) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  const contentType = header('content-type');
  /** @type {Uint8Array | undefined} */
  let bytes;
  if (Array.isArray(r.postDataEntries) && r.postDataEntries.length) bytes = base64ToBytes(r.postDataEntries.map((/** @type {{ bytes?: string }} */ e) => e.bytes ?? ''));
  else if (typeof r.postData === 'string') bytes = new TextEncoder().encode(r.postData);
  if (!bytes) {
    // Chrome leaves out bodies it cannot give (a large upload, a file or a stream).
    return r.hasPostData ? { opaque: { bytes: Number(header('content-length') ?? 0), ...(contentType ? { contentType } : {}), why: /** @type {const} */ ('unavailable') } } : {};
  }
  // A form upload's file parts are named by parseBody (<file name (N bytes)>); its other fields are text.
  if (/^multipart\//i.test(contentType ?? '')) return parseBody({ text: new TextDecoder().decode(bytes.subarray(0, 64 * 1024)), contentType });
  const kind = classifyBody(bytes, { contentType, contentEncoding: header('content-encoding') });
  if ('opaque' in kind) return { opaque: kind.opaque };
  return parseBody({ text: kind.text, contentType });
}
