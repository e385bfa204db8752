// Facts about a held request that the policy reads: what makes two writes the same, where a channel
// write really goes, whether a URL may carry data, and the strings of what the page showed.
// Browser-free.
/** @import { HeldRequest } from '../../types/safety' */

/** What makes two writes the same: method, URL and body (its fields when it has them). @param {HeldRequest} req */
export function writeSignature(req) {
  const body = req.fields?.length ? req.fields.map(([k, v]) => `${k}=${v}`).join('&') : (req.body ?? '');
  return `${req.method} ${req.url}\n${body}`;
}

/**
 * Where a held request goes, for the scope and the own-site checks: a WebSocket (ws:, wss:) as the
 * http(s) origin it shares cookies with, a data channel (a peer the page connected, no address of
 * its own) as the page that opened it; other requests as they are.
 * @param {HeldRequest} req @param {string} pageUrl
 */
export function judgedUrl(req, pageUrl) {
  // Firefox's request hold sees a socket's handshake as a request of its ws: URL.
  if (req.kind !== 'channel') return req.type === 'websocket' ? req.url.replace(/^ws(s?):/i, 'http$1:') : req.url;
  if (req.channel === 'datachannel') return /^https?:/i.test(req.initiator ?? '') ? /** @type {string} */ (req.initiator) : pageUrl;
  return req.url.replace(/^ws(s?):/i, 'http$1:');
}

/** Methods that never change data (a CORS preflight asks nothing either). */
export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Resource types that send data out even with GET. */
export const SENDING_TYPES = new Set(['ping', 'beacon', 'csp_report', 'csp-report']);

/** A request that only reads: a safe method, and not a type that sends data out with it. @param {HeldRequest} req */
export function readsOnly(req) { return SAFE_METHODS.has(req.method) && !SENDING_TYPES.has(req.type); }

/**
 * A request the policy judges as a write: not a download, not a socket whose frames nothing can
 * hold (both judged on their own), and not one that only reads. @param {HeldRequest} req
 */
export function judgedAsWrite(req) { return req.kind !== 'download' && !req.framesUnheld && !readsOnly(req); }

/** A subresource URL that may carry data: a query, a fragment, an @, or a run of digits (an id, a phone). */
export const CARRIES_DATA = /[?#@]|%40|\d{5}/;

/** A URL as a request for it names it: normalised, without its fragment. @param {string} url */
export function withoutHash(url) { try { const u = new URL(url); u.hash = ''; return u.href; } catch { return url; } }

/**
 * The strings of a tool result (an outline, a page's text, a table), at most 200 and 400,000 characters.
 * @param {unknown} v @returns {string[]}
 */
export function stringsOf(v) {
  /** @type {string[]} */
  const out = [];
  let chars = 0;
  /** @param {unknown} x @param {number} depth */
  const walk = (x, depth) => {
    if (out.length >= 200 || chars > 400_000 || depth > 8) return;
    if (typeof x === 'string') { out.push(x); chars += x.length; } else if (Array.isArray(x)) for (const y of x) walk(y, depth + 1);
    else if (x && typeof x === 'object') for (const y of Object.values(x)) walk(y, depth + 1);
  };
  walk(v, 0);
  return out;
}

/** @param {string} url */
export function pathOf(url) { try { return new URL(url).pathname; } catch { return ''; } }

/** @param {string} s */
export function safeDecode(s) { try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch { return s; } }

/** Fields of a request body the agent wrote itself (fetch_url): urlencoded or a flat JSON object. @param {string} body @returns {[string, string][] | undefined} */
export function formFields(body) {
  if (!body) return undefined;
  try {
    const j = JSON.parse(body);
    if (j && typeof j === 'object' && !Array.isArray(j)) return Object.entries(j).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
  } catch { /* not JSON */ }
  if (/^[^=&\s]+=[^&]*(&[^=&\s]+=[^&]*)*$/.test(body)) return [...new URLSearchParams(body)];
  return undefined;
}

/** A GraphQL or JSON-RPC operation for a card's action line, at most 200 characters. @param {string} op */
export function shortOp(op) { return op.length > 200 ? `${op.slice(0, 199)}…` : op; }
