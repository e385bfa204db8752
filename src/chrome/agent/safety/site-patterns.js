// Site patterns from settings (always allow, always confirm, an organization's blocked sites):
// "host[:port]" matches that host, "*.host" the host and its subdomains.

/**
 * @param {string} pattern @param {string} site host[:port], lower-case
 */
export function siteMatches(pattern, site) {
  const p = pattern.toLowerCase();
  if (p === site) return true;
  if (p.startsWith('*.')) {
    const base = p.slice(2);
    const host = site.replace(/:\d+$/, '');
    return host === base || host.endsWith(`.${base}`) || site === base || site.endsWith(`.${base}`);
  }
  return false;
}

/** @param {string[]} patterns @param {string} site */
export function matchesAny(patterns, site) { return patterns.some((p) => siteMatches(p, site.toLowerCase())); }
