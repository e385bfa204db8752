// What the gate tells apart in a held request: a write, the site a socket belongs to, and the
// parts of a URL it may name in a note to the model (its site and path, never its query).
/** @import { HeldRequest } from '../../../types/safety' */
import { SAFE_METHODS } from '../request-facts.js';

/**
 * A write: a request that changes something on a server, or a message sent over a channel (a
 * WebSocket's opening handshake sends nothing yet).
 * @param {HeldRequest} req
 */
export function isWrite(req) {
  return (req.kind === 'request' && !SAFE_METHODS.has(req.method)) || (req.kind === 'channel' && req.channel !== 'websocket');
}

/** A WebSocket URL as the site it belongs to (wss://shop.test → https://shop.test). @param {string} url */
export function webUrl(url) {
  return url.replace(/^ws(s?):/i, 'http$1:');
}

/** @param {string} url */
export function originOfUrl(url) { try { return new URL(url).origin; } catch { return url; } }
/** A URL's host, or "the page's own site" for a relative or malformed one. @param {string} url */
export function siteOf(url) { try { return new URL(url).host || "the page's own site"; } catch { return "the page's own site"; } }
/** A URL's path, without its query (which may carry anything the page put there). @param {string} url */
export function pathOnly(url) { try { return new URL(url).pathname; } catch { return ''; } }
