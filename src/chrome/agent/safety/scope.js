// The task scope: the sites a run may reach without asking. It holds the origin of the tab the user
// started in, the sites the user named in the request, and the origins the user allowed during the
// run ("Allow for this task"). Also: does a URL carry data out (an e-mail address, a token, a long
// value, something the agent typed or a secret)?
import { looksLikeToken } from './secret-patterns.js';

/** Two-label public suffixes common enough to matter (a site is one label more). */
const SECOND_LEVEL = /\.(co|com|net|org|gov|ac|edu|ne|or)\.[a-z]{2}$/i;

/**
 * @param {string} startUrl the tab's URL when the user sent the request
 * @param {string} userText the user's request
 */
export function createTaskScope(startUrl, userText = '') {
  /** exact origins (scheme://host:port) @type {Set<string>} */
  const origins = new Set();
  /** sites the user named: the host and its subdomains, any port @type {Set<string>} */
  const hosts = new Set();
  const start = originOf(startUrl);
  if (start) origins.add(start);
  for (const h of namedHosts(userText)) hosts.add(h);
  return {
    /** @param {string} url */
    has(url) {
      const o = originOf(url);
      if (!o) return false;
      if (origins.has(o)) return true;
      const host = hostOf(url);
      for (const h of hosts) if (host === h || host.endsWith(`.${h}`)) return true;
      // A subdomain of the start site's registrable domain (mail.x.com ↔ accounts.x.com), same scheme, default ports.
      const s = start ? new URL(start) : null;
      const u = new URL(url);
      return Boolean(s && !isIp(s.hostname) && s.protocol === u.protocol && !s.port && !u.port && siteOf(s.hostname) === siteOf(u.hostname));
    },
    /** @param {string} origin */
    add(origin) { const o = originOf(origin); if (o) origins.add(o); },
    /** the start origin, for cards and messages */
    start,
    /** the user's request: what the user named (provenance and lookalike checks of cards) */
    userText,
    list() { return [...origins, ...hosts]; },
  };
}
/** @typedef {ReturnType<typeof createTaskScope>} TaskScope */

/** @param {string} url @returns {string | null} */
export function originOf(url) {
  try { const u = new URL(url); return /^https?:$/.test(u.protocol) ? u.origin : null; } catch { return null; }
}

/** @param {string} url */
export function hostOf(url) {
  try { return new URL(url).hostname.toLowerCase(); } catch { return ''; }
}

/** host[:port] for cards. @param {string} url */
export function siteLabel(url) {
  try { return new URL(url).host || url; } catch { return url || 'this page'; }
}

/** @param {string} host */
function isIp(host) { return /^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('['); }

/** The registrable domain, approximately (example.co.uk, example.com). @param {string} host */
function siteOf(host) {
  const labels = host.toLowerCase().split('.');
  const keep = SECOND_LEVEL.test(`.${labels.slice(-2).join('.')}`) ? 3 : 2;
  return labels.slice(-keep).join('.');
}

/**
 * Hosts the user named: full URLs and bare domains ("on github.com", "www.bank.example").
 * @param {string} text @returns {string[]}
 */
export function namedHosts(text) {
  /** @type {Set<string>} */
  const out = new Set();
  for (const m of text.matchAll(/\bhttps?:\/\/[^\s"'<>)]+/gi)) { const h = hostOf(m[0]); if (h) out.add(h); }
  for (const m of text.matchAll(/(?<![@\w.-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24})(?::\d+)?(?![\w@-])/gi)) {
    const h = m[1].toLowerCase();
    // "e.g", "file.txt" and "index.html" are not sites: the last label must look like a TLD the user would type.
    if (!/\.(txt|html?|pdf|png|jpe?g|gif|js|css|json|csv|md|docx?|xlsx?|zip|exe)$/.test(h) && h.includes('.')) out.add(h.replace(/^www\./, ''));
  }
  return [...out];
}

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const LONG_VALUE = 32;

/**
 * What data a URL carries in its query, fragment or path: e-mail addresses, tokens, long values,
 * and any of the known strings (what the agent typed, the user's own words, secrets).
 * @param {string} url @param {string[]} [known] strings of 4+ characters that must not leave unasked
 * @returns {{ label: string, value: string }[]} empty when the URL carries nothing worth asking about
 */
export function dataInUrl(url, known = []) {
  let u;
  try { u = new URL(url); } catch { return []; }
  /** @type {{ label: string, value: string }[]} */
  const found = [];
  /** @param {string} label @param {string} value */
  const check = (label, value) => {
    if (!value) return;
    const why = EMAIL.test(value) ? 'an e-mail address'
      : looksLikeToken(value) ? 'a token'
      : known.some((k) => k.length >= 4 && value.toLowerCase().includes(k.toLowerCase())) ? 'data from this task'
      : value.length >= LONG_VALUE ? 'a long value' : '';
    if (why) found.push({ label, value: `${value.length > 120 ? `${value.slice(0, 117)}…` : value} (${why})` });
  };
  for (const [k, v] of u.searchParams) check(k, v);
  if (u.hash.length > 1) check('#', safeDecode(u.hash.slice(1)));
  for (const seg of u.pathname.split('/')) check('path', safeDecode(seg));
  return found;
}

/** @param {string} s */
function safeDecode(s) { try { return decodeURIComponent(s); } catch { return s; } }
