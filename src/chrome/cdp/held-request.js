// A CDP Fetch.requestPaused event as the safety policy sees it (types/safety.d.ts HeldRequest).
/** @import { HeldRequest } from '../types/safety' */
import { decodeBase64Chunks, parseBody } from '../agent/safety/request-body.js';

/**
 * @param {any} p Fetch.requestPaused's parameters
 * @param {string | null} mainFrame
 * @returns {HeldRequest}
 */
export function heldRequest(p, mainFrame) {
  const r = p.request ?? {};
  const type = String(p.resourceType ?? 'other').toLowerCase();
  const headers = /** @type {Record<string, string>} */ (r.headers ?? {});
  const contentType = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  const text = typeof r.postData === 'string' ? r.postData
    : Array.isArray(r.postDataEntries) ? decodeBase64Chunks(r.postDataEntries.map((/** @type {{ bytes?: string }} */ e) => e.bytes ?? '')) : undefined;
  const method = String(r.method ?? 'GET').toUpperCase();
  return {
    kind: 'request', method, url: String(r.url ?? ''), type: type === 'ping' && method !== 'GET' ? 'beacon' : type,
    topLevel: type === 'document' && (!mainFrame || p.frameId === mainFrame),
    ...parseBody({ text, contentType }),
  };
}
