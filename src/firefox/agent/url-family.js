// URL families: one key for the same resource reached through different URLs, so the loop
// detectors see "opened the same file three times" even when the model hops between a GitHub
// blob page, its raw.githubusercontent.com copy and the contents API, or adds tracking parameters.

/** Query parameters that only track the visit; they never change the resource. */
const TRACKING = /^(utm_[a-z_]+|gclid|gclsrc|dclid|fbclid|msclkid|mc_cid|mc_eid|igshid|yclid|twclid|_ga|_gl|_hsenc|_hsmi|ref|ref_src|ref_url|spm|si|trk|campaign_id)$/i;

/**
 * @param {string} raw any URL the model or the tab reported
 * @returns {string} a stable key; the input itself when it is not a URL
 */
export function urlFamily(raw) {
  let url;
  try { url = new URL(String(raw)); } catch { return String(raw ?? '').trim(); }
  // blob:https://site/uuid names an object created by that page; its family is the page's origin.
  if (url.protocol === 'blob:') return urlFamily(url.pathname.replace(/\/[^/]*$/, '/'));
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const code = codeHostFamily(host, url.pathname);
  if (code) return code;
  const path = url.pathname.replace(/\/index\.html?$/i, '/').replace(/\/+$/, '') || '/';
  const params = [...url.searchParams.entries()].filter(([k]) => !TRACKING.test(k)).sort(([a], [b]) => a.localeCompare(b));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  return `${host}${url.port ? `:${url.port}` : ''}${path}${query}`;
}

/**
 * GitHub and GitLab serve one file as a rendered page, as raw bytes and through an API. The
 * branch or commit is dropped too: the model looping over refs of the same file is still a loop.
 * @param {string} host @param {string} path
 */
function codeHostFamily(host, path) {
  let m;
  if (host === 'github.com' && (m = /^\/([^/]+)\/([^/]+)\/(?:blob|raw|tree)\/[^/]+\/(.+)$/.exec(path))) return `github:${m[1]}/${m[2]}/${m[3]}`.toLowerCase();
  if (host === 'raw.githubusercontent.com' && (m = /^\/([^/]+)\/([^/]+)\/(?:refs\/heads\/)?[^/]+\/(.+)$/.exec(path))) return `github:${m[1]}/${m[2]}/${m[3]}`.toLowerCase();
  if (host === 'api.github.com' && (m = /^\/repos\/([^/]+)\/([^/]+)\/contents\/(.+)$/.exec(path))) return `github:${m[1]}/${m[2]}/${m[3]}`.toLowerCase();
  if (host === 'gitlab.com' && (m = /^\/(.+?)\/-\/(?:blob|raw)\/[^/]+\/(.+)$/.exec(path))) return `gitlab:${m[1]}/${m[2]}`.toLowerCase();
  return null;
}
