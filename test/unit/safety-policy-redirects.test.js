// fetch_url and read_pdf by URL follow no redirect to another origin (agent/safety/redirects.js):
// against a real server (Node's fetch shows a manual redirect's Location) and a browser-like fetch
// that hides it (an "opaqueredirect" response).
import { expect } from 'chai';
import http from 'node:http';
import { fetchSameOrigin, carriesData } from '../../src/chrome/agent/safety/redirects.js';
import { ERROR_CODES } from '../../src/chrome/agent/error-codes.js';

describe('fetch without a redirect to another origin', () => {
  /** @type {http.Server} */
  let server;
  /** @type {http.Server} */
  let other;
  /** @type {string[]} */
  const hits = [];
  let base = '', away = '';
  before(async () => {
    other = http.createServer((req, res) => { hits.push(`other ${req.url}`); res.end('attacker'); });
    server = http.createServer((req, res) => {
      hits.push(`site ${req.url}`);
      const u = new URL(req.url ?? '/', base);
      if (u.pathname === '/out') res.writeHead(302, { location: `${away}/collect?e=${encodeURIComponent(u.searchParams.get('e') ?? '')}` }).end();
      else if (u.pathname === '/old') res.writeHead(301, { location: '/new' }).end();
      else res.end(`page ${u.pathname}`);
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', () => r(null)));
    await new Promise((r) => other.listen(0, '127.0.0.1', () => r(null)));
    base = `http://127.0.0.1:${/** @type {any} */ (server.address()).port}`;
    away = `http://localhost:${/** @type {any} */ (other.address()).port}`;
  });
  after(() => { server.close(); other.close(); });
  beforeEach(() => { hits.length = 0; });

  it('refuses a cross-origin Location, naming it, and sends nothing there (the open-redirect attack)', async () => {
    const got = await fetchSameOrigin(fetch, `${base}/out?e=ann%40mail.test`, { method: 'GET' });
    expect(got.ok).to.equal(false);
    if (!got.ok) {
      expect(got.to).to.equal(`${away}/collect?e=ann%40mail.test`);
      expect(got.message).to.contain(away);
    }
    expect(hits).to.deep.equal(['site /out?e=ann%40mail.test']);
    expect(ERROR_CODES).to.have.property('REDIRECT_REFUSED');
  });

  it('follows a same-origin redirect', async () => {
    const got = await fetchSameOrigin(fetch, `${base}/old`, { method: 'GET' });
    expect(got.ok && await got.res.text()).to.equal('page /new');
    expect(hits).to.deep.equal(['site /old', 'site /new']);
  });

  it('where the browser hides the Location: refuses a URL that carries data; follows a plain one, keeping the content only on the same origin', async () => {
    /** @type {string[]} */
    const calls = [];
    /** A browser's fetch: a manual redirect is opaque; a followed one ends where the server says. @param {string} finalUrl */
    const browserFetch = (finalUrl) => /** @type {typeof fetch} */ (/** @type {unknown} */ (async (/** @type {string} */ url, /** @type {RequestInit} */ init) => {
      calls.push(`${init.redirect} ${url}`);
      return init.redirect === 'manual' ? { type: 'opaqueredirect', status: 0, headers: new Headers(), url } : { type: 'basic', status: 200, headers: new Headers(), url: finalUrl };
    }));
    const withData = await fetchSameOrigin(browserFetch('x'), 'https://site.test/out?e=ann%40mail.test', { method: 'GET' });
    expect(withData.ok).to.equal(false);
    expect(calls).to.deep.equal(['manual https://site.test/out?e=ann%40mail.test']);
    calls.length = 0;
    expect((await fetchSameOrigin(browserFetch('https://site.test/docs/'), 'https://site.test/docs', { method: 'GET' })).ok).to.equal(true);
    const away2 = await fetchSameOrigin(browserFetch('https://evil.example/'), 'https://site.test/go', { method: 'GET' });
    expect(away2.ok === false && away2.to).to.equal('https://evil.example/');
    const post = await fetchSameOrigin(browserFetch('https://site.test/x'), 'https://site.test/save', { method: 'POST', body: 'a=1' });
    expect(post.ok).to.equal(false);
  });

  it('what counts as data in an address', () => {
    expect(carriesData('https://x.test/a?b=1')).to.equal(true);
    expect(carriesData('https://x.test/u/ann@mail.test')).to.equal(true);
    expect(carriesData('https://x.test/docs/intro')).to.equal(false);
  });
});
