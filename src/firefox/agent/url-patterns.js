// URL patterns of site adapters and skills (docs/ADAPTERS.md): a host, optionally followed by a path.
// `github.com` matches that host and its subdomains, `*.atlassian.net` only subdomains; a path
// matches itself and what is under it, `*` standing for part of a segment and `**` for segments.
// An IPv4 address or localhost matches only itself. Matching reads the URL's parsed host, so
// look-alikes (github.com.evil.example) never match.

/**
 * @typedef {object} UrlPattern
 * @property {string} source the pattern as written
 * @property {string} host lowercase, without the `*.`
 * @property {boolean} subdomainsOnly
 * @property {RegExp | null} path
 * @property {number} specificity higher wins: a path beats a host alone, then longer hosts and paths
 */

/**
 * @param {string} source
 * @returns {{ ok: true, pattern: UrlPattern } | { ok: false, message: string }}
 */
export function compilePattern(source) {
  const s = String(source).trim().toLowerCase();
  if (!s) return { ok: false, message: 'A pattern is empty.' };
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(s)) return { ok: false, message: `"${source}": write the host without a scheme (github.com, not https://github.com).` };
  if (/[?#\s]/.test(s)) return { ok: false, message: `"${source}": a pattern has no query, fragment or spaces.` };
  const slash = s.indexOf('/');
  const hostPart = slash < 0 ? s : s.slice(0, slash);
  const pathPart = slash < 0 ? '' : s.slice(slash);
  if (hostPart.includes(':')) return { ok: false, message: `"${source}": a pattern has no port.` };
  const subdomainsOnly = hostPart.startsWith('*.');
  const host = subdomainsOnly ? hostPart.slice(2) : hostPart;
  const labels = host.split('.');
  const literal = !subdomainsOnly && (host === 'localhost' || /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/.test(host));
  if (!literal && (labels.length < 2 || labels.some((l) => !/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(l)) || /^\d+$/.test(labels[labels.length - 1]))) {
    return { ok: false, message: `"${source}": "${hostPart}" is not a host name with at least two labels, an IPv4 address or localhost (only a leading "*." may be a wildcard).` };
  }
  const path = pathPart && pathPart !== '/' ? pathRegex(pathPart.replace(/\/+$/, '')) : null;
  const specificity = (path ? 1000 + pathPart.replace(/\*/g, '').length : 0) + host.length;
  return { ok: true, pattern: { source: String(source).trim(), host, subdomainsOnly, path, specificity } };
}

/** @param {string} path starts with "/" */
function pathRegex(path) {
  const re = path.split(/(\*\*|\*)/).map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${re}(?:/.*)?$`);
}

/**
 * Does the pattern match this URL? Only http(s) pages match.
 * @param {UrlPattern} p @param {URL} url
 */
export function patternMatches(p, url) {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const hostOk = p.subdomainsOnly ? host.endsWith(`.${p.host}`) : host === p.host || host.endsWith(`.${p.host}`);
  if (!hostOk) return false;
  if (!p.path) return true;
  let path = url.pathname;
  try { path = decodeURIComponent(path); } catch { /* keep it encoded */ }
  return p.path.test(path.toLowerCase());
}

/**
 * The most specific of the patterns that match the URL, or null.
 * @param {readonly UrlPattern[]} patterns @param {URL} url
 */
export function bestMatch(patterns, url) {
  /** @type {UrlPattern | null} */
  let best = null;
  for (const p of patterns) if (patternMatches(p, url) && (!best || p.specificity > best.specificity)) best = p;
  return best;
}

/** @param {string} href @returns {URL | null} */
export function parseUrl(href) {
  try { return new URL(href); } catch { return null; }
}
