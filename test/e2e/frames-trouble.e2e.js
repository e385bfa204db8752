// Pages whose frames cannot host scripts or never load. The ad-tag pattern (an iframe with
// src="javascript:false" beside an empty iframe a script writes into) once made snapshot, get_frames
// and click hang in Chromium; a frame that fails to load added half a second to every step. Each
// page is driven through the tool runner and compared with the same page without the frames: not
// by the clock (a busy machine makes any call slow) but by the work done, the waits the background
// ran out while it answered (a deadline for a frame that never answers, a fixed pause for frames).
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ok, openFixture, tool } from './harness/tools.js';

/** @import { TestEnv } from './harness/env.js' */

/** Waits shorter than this are the product's own short pauses (a click's 100 ms settle), the same on every page. */
const WAIT_MS = 200;

/**
 * Runs fn in Tabwright's background (Chrome's service worker, Firefox's background page, reached
 * from the extension page the harness keeps open) with that background's global object.
 * @template T @param {TestEnv} env @param {(g: any, minMs: number) => T} fn @returns {Promise<T>}
 */
async function inBackground(env, fn) {
  if (env.browser.kind === 'chromium') {
    const [sw] = env.browser.raw.serviceWorkers().filter((/** @type {any} */ w) => String(w.url()).startsWith(env.browser.extBase));
    return sw.evaluate(`(${fn})(globalThis, ${WAIT_MS})`);
  }
  return env.control.page.evaluate(`browser.runtime.getBackgroundPage().then((g) => (${fn})(g, ${WAIT_MS}))`);
}

/**
 * Counts, from now on, the background's timers of WAIT_MS or more that run out: each is a wait some
 * call sat through (a timer cleared because its answer came first is not counted).
 * @param {TestEnv} env
 */
function startCountingWaits(env) {
  return inBackground(env, (g, minMs) => {
    if (!g.__twWaits) {
      const real = g.setTimeout;
      g.__twWaits = [];
      g.setTimeout = (/** @type {any} */ fn, /** @type {number} */ ms, /** @type {any[]} */ ...rest) => (typeof fn === 'function' && ms >= minMs
        ? real.call(g, (/** @type {any[]} */ ...a) => { g.__twWaits.push(ms); return fn(...a); }, ms, ...rest)
        : real.call(g, fn, ms, ...rest));
    }
    g.__twWaits.length = 0;
    return true;
  });
}

/** The waits run out since startCountingWaits (their lengths in ms); fails if the background restarted. @param {TestEnv} env @returns {Promise<number[]>} */
async function waitsRunOut(env) {
  const got = await inBackground(env, (g) => (g.__twWaits ? [...g.__twWaits] : null));
  if (!got) throw new Error('the background restarted while its waits were counted');
  return got;
}

scenario('frames that cannot host scripts or never load', (ctx) => {
  /**
   * Five rounds of snapshot and click on one page, each call bounded so a hang fails the test instead
   * of stalling it; returns the waits the background ran out during the calls, the page's like count
   * afterwards, get_frames's answer and a last snapshot.
   * @param {string} path
   */
  async function roundTrips(path) {
    const f = await openFixture(ctx.env, path, { waitUntil: 'domcontentloaded' });
    await f.page.waitFor(() => document.querySelectorAll('a[href^="#story"]').length === 40, undefined, { message: 'the stories' });
    try {
      await startCountingWaits(ctx.env);
      for (let i = 0; i < 5; i++) {
        const snap = await bounded(tool(ctx.env, f.tabId, 'snapshot'), `snapshot on ${path}`);
        expect(snap.ok, JSON.stringify(snap)).to.equal(true);
        const click = await bounded(tool(ctx.env, f.tabId, 'click', { text: 'Like this story' }), `click on ${path}`);
        expect(click.ok, JSON.stringify(click)).to.equal(true);
      }
      const waits = await waitsRunOut(ctx.env);
      // The count itself is checked: a wait of 250 ms the tool runner is asked for is seen.
      await ok(ctx.env, f.tabId, 'wait_for', { time_ms: 250 });
      expect(await waitsRunOut(ctx.env), 'the count of waits').to.deep.equal([...waits, 250]);
      const likes = await f.page.text('#likes');
      const frames = await bounded(tool(ctx.env, f.tabId, 'get_frames'), `get_frames on ${path}`);
      const snap = String((await ok(ctx.env, f.tabId, 'snapshot')).data);
      return { waits, likes, frames, snap };
    } finally { await f.page.close(); }
  }

  /** @template T @param {Promise<T>} p @param {string} what @returns {Promise<T>} */
  function bounded(p, what) {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const hang = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} did not answer within 20 s`)), 20_000); });
    return Promise.race([p, hang]).finally(() => clearTimeout(timer));
  }

  /** @type {Awaited<ReturnType<typeof roundTrips>>} */
  let plain;
  before(async function () {
    this.timeout(120_000);
    plain = await roundTrips('frames/plain.html');
  });

  it('answers snapshot, click and get_frames on the ad-tag pattern with no wait the plain page has not', async () => {
    const r = await roundTrips('frames/ad-tags.html');
    expect(r.likes).to.equal('5');
    expect(r.frames.ok).to.equal(true);
    const states = r.frames.data.frames.map((/** @type {any} */ f) => `${f.url.startsWith('javascript:') || f.url === 'about:blank' ? 'blank-url' : 'http'}:${f.state}`);
    expect(states[0]).to.equal('http:readable');
    // The javascript:false frame is listed and never asked (nothing can answer there).
    expect(states).to.include('blank-url:blank');
    // The creative the script wrote into the empty frame is part of the outline.
    expect(r.snap).to.match(/link "Sponsored: buy a boat"/);
    expect(r.snap).to.match(/button "Like this story".*\[e\d+\]/);
    // No wait the page without the frames does not have: no deadline for a frame that cannot answer,
    // no pause for frames (a wait of 200 ms or more, run out, is counted whatever the machine's speed).
    expect(r.waits, `waits run out on the ad-tag page (ms): ${r.waits}; on the plain page: ${plain.waits}`).to.deep.equal(plain.waits);
  });

  it('answers on a page whose frames failed to load with no wait the plain page has not, and says which frames are broken', async () => {
    const r = await roundTrips('frames/broken.html');
    expect(r.likes).to.equal('5');
    expect(r.frames.ok).to.equal(true);
    for (const title of ['Refused widget', 'Unreachable widget', 'Never-loading widget']) {
      expect(r.snap).to.include(`- iframe "${title}" (not readable: get_frames says why)`);
    }
    /** @type {Record<string, string>} */
    const state = Object.fromEntries(r.frames.data.frames.map((/** @type {any} */ f) => [new URL(f.url).pathname, f.state]));
    expect(state['/frames/refused.html']).to.equal('failed to load');
    expect(state['/frames/never.html']).to.equal('still loading');
    // Chromium lists an unreachable frame as its error page; Firefox by the address it tried.
    expect(Object.values(state).filter((s) => s === 'readable')).to.have.length(1);
    expect(r.waits, `waits run out on the broken-frames page (ms): ${r.waits}; on the plain page: ${plain.waits}`).to.deep.equal(plain.waits);
  });
});
