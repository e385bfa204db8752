// What network_requests shows of a tab's request log (kept by the platform: Chrome's CDP Network
// domain, Firefox's webRequest): filters, one line per request, headers with their credentials
// masked. Browser-free.
/** @import { NetworkEntry } from '../types/platform' */
import { MASK, isSecretName, maskTokens } from './safety/secret-patterns.js';

/** Headers that carry credentials: their values never reach the model, a trace or the panel. */
const SECRET_HEADERS = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|x-auth-token|x-csrf-token|x-xsrf-token|x-amz-security-token)$/i;

/**
 * @typedef {object} NetworkFilter
 * @property {string} [url] a part of the URL (case-insensitive)
 * @property {string} [status] "200", "4xx", "5xx", "failed" or "pending"
 * @property {string} [method]
 * @property {string} [type] the resource type (fetch, xhr, document, script…)
 * @property {number} [limit] the newest this many (default 50)
 */

/** @param {NetworkEntry} e @param {string} status */
function statusMatches(e, status) {
  const s = status.trim().toLowerCase();
  if (s === 'failed') return Boolean(e.error);
  if (s === 'pending') return e.status === undefined && !e.error;
  if (/^[1-5]xx$/.test(s)) return e.status !== undefined && Math.floor(e.status / 100) === Number(s[0]);
  return String(e.status ?? '') === s;
}

/** @param {readonly NetworkEntry[]} entries @param {NetworkFilter} f @returns {NetworkEntry[]} */
export function filterEntries(entries, f) {
  const url = f.url?.toLowerCase();
  const type = f.type?.toLowerCase();
  const picked = entries.filter((e) => (!url || e.url.toLowerCase().includes(url))
    && (!f.status || statusMatches(e, f.status))
    && (!f.method || e.method === f.method.toUpperCase())
    && (!type || e.type === type || (type === 'xhr' && e.type === 'fetch') || (type === 'fetch' && e.type === 'xhr')));
  return picked.slice(-(f.limit ?? 50));
}

/** A URL with the values of secret-looking query parameters and tokens masked. @param {string} url */
export function maskUrl(url) {
  try {
    const u = new URL(url);
    let changed = false;
    for (const [k] of u.searchParams) if (isSecretName(k.toLowerCase()) || /^(sig|signature|auth|key|access_token|code)$/i.test(k)) { u.searchParams.set(k, MASK); changed = true; }
    return maskTokens(changed ? u.href : url);
  } catch {
    return maskTokens(url);
  }
}

/** Headers with credential values masked. @param {Record<string, string> | undefined} headers */
export function maskHeaders(headers) {
  if (!headers) return undefined;
  /** @type {Record<string, string>} */
  const out = {};
  for (const [k, v] of Object.entries(headers)) out[k] = SECRET_HEADERS.test(k) ? MASK : maskTokens(String(v).slice(0, 500));
  return out;
}

/** @param {number | undefined} n */
function size(n) {
  if (n === undefined || n < 0) return '';
  return n < 1024 ? `${n} B` : n < 1_048_576 ? `${(n / 1024).toFixed(1)} kB` : `${(n / 1_048_576).toFixed(1)} MB`;
}

/**
 * One line per request, oldest first: `[id] GET 200 fetch https://… 1.2 kB 35 ms`.
 * @param {readonly NetworkEntry[]} entries
 */
export function formatEntries(entries) {
  return entries.map((e) => {
    const status = e.error ? `failed (${e.error})` : e.status === undefined ? 'pending' : String(e.status);
    const parts = [`[${e.id}]`, e.method, status, e.type || 'other', maskUrl(e.url), size(e.size), e.ms !== undefined ? `${Math.round(e.ms)} ms` : '', e.fromCache ? '(cache)' : ''];
    return parts.filter(Boolean).join(' ');
  }).join('\n');
}

/** Is a response's body text the model can read? @param {string | undefined} mime */
export function isTextMime(mime) {
  return !mime || /^text\/|[/+](json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql)\b/i.test(mime);
}
