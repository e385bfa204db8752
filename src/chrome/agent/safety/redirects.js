// Fetching from the extension without following a redirect to another origin (browser-free: the
// fetch is injected). A page's own site can hold an open redirect that sends what the URL carries (an
// e-mail in the query) to another site; the background fetch must not follow it, in Ask mode or Act.
//
// Hops are followed one at a time with redirect: 'manual', each Location checked before it is asked
// for. A browser hides a manual redirect's Location from scripts (an "opaqueredirect" response), so
// there the target cannot be checked first: a URL that carries data (a query, a fragment, an @ or an
// e-mail-like path) is then refused without following; one that carries nothing may be followed,
// without credentials and without a body, and its content is returned only when it ended on the
// same origin (otherwise the error names where it went).

/** Hops followed at most. */
const MAX_HOPS = 5;

/**
 * @param {typeof fetch} fetchFn
 * @param {string} url
 * @param {RequestInit} init method, headers, body, signal (credentials are omitted)
 * @returns {Promise<{ ok: true, res: Response } | { ok: false, to: string | null, message: string }>}
 */
export async function fetchSameOrigin(fetchFn, url, init) {
  const origin = new URL(url).origin;
  let current = url;
  let opts = { ...init, redirect: /** @type {RequestRedirect} */ ('manual'), credentials: /** @type {RequestCredentials} */ ('omit') };
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    const res = await fetchFn(current, opts);
    const redirected = res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400 && res.headers.has('location'));
    if (!redirected) return { ok: true, res };
    const location = res.headers.get('location');
    if (!location) return followHidden(fetchFn, url, current, opts);
    const next = new URL(location, current).href;
    if (new URL(next).origin !== origin) {
      return { ok: false, to: next, message: `${current} redirected to ${next}, another site than ${origin}: not followed, nothing was sent there.` };
    }
    // 303 (and 301/302 after a POST, as browsers do) turns into a GET without a body.
    const method = String(opts.method ?? 'GET').toUpperCase();
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) opts = { ...opts, method: 'GET', body: undefined };
    current = next;
  }
  return { ok: false, to: null, message: `${url} redirected more than ${MAX_HOPS} times.` };
}

/**
 * A redirect whose target the browser hides.
 * @param {typeof fetch} fetchFn @param {string} url @param {string} current @param {RequestInit} opts
 * @returns {Promise<{ ok: true, res: Response } | { ok: false, to: string | null, message: string }>}
 */
async function followHidden(fetchFn, url, current, opts) {
  const method = String(opts.method ?? 'GET').toUpperCase();
  if (carriesData(current) || (method !== 'GET' && method !== 'HEAD')) {
    return { ok: false, to: null, message: `${current} answered with a redirect whose target the browser does not show, and the request carries data${method !== 'GET' && method !== 'HEAD' ? ` (a ${method})` : ' in its address'}: not followed, so nothing went elsewhere.` };
  }
  const res = await fetchFn(current, { ...opts, redirect: 'follow' });
  const origin = new URL(url).origin;
  if (res.url && new URL(res.url).origin !== origin) {
    return { ok: false, to: res.url, message: `${current} redirected to ${res.url}, another site than ${origin}: its content is not used.` };
  }
  return { ok: true, res };
}

/** Does a URL carry anything beyond a plain address? @param {string} url */
export function carriesData(url) {
  const u = new URL(url);
  return Boolean(u.search || u.hash || u.username || u.password) || /@|%40|\d{5}/.test(u.pathname);
}
