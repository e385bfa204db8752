// Issue 13: pages whose frames cannot host scripts or never load. The ad-tag pattern (an iframe with
// src="javascript:false" beside an empty iframe a script writes into) once made snapshot, get_frames
// and click hang in Chromium; a frame that fails to load added half a second to every step. Each
// page is driven through the tool runner and compared with the same page without the frames.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ok, openFixture, tool } from './harness/tools.js';

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

scenario('frames that cannot host scripts or never load', (ctx) => {
  /**
   * Round trips of snapshot and click on one page, each bounded so a hang fails the test instead of
   * stalling it; returns the medians and the page's like count afterwards.
   * @param {string} path
   */
  async function roundTrips(path) {
    const f = await openFixture(ctx.env, path, { waitUntil: 'domcontentloaded' });
    await f.page.waitFor(() => document.querySelectorAll('a[href^="#story"]').length === 40, undefined, { message: 'the stories' });
    try {
      const snaps = [], clicks = [];
      for (let i = 0; i < 5; i++) {
        let t = performance.now();
        const snap = await bounded(tool(ctx.env, f.tabId, 'snapshot'), `snapshot on ${path}`);
        snaps.push(performance.now() - t);
        expect(snap.ok, JSON.stringify(snap)).to.equal(true);
        t = performance.now();
        const click = await bounded(tool(ctx.env, f.tabId, 'click', { text: 'Like this story' }), `click on ${path}`);
        clicks.push(performance.now() - t);
        expect(click.ok, JSON.stringify(click)).to.equal(true);
      }
      const likes = await f.page.text('#likes');
      const frames = await bounded(tool(ctx.env, f.tabId, 'get_frames'), `get_frames on ${path}`);
      const snap = String((await ok(ctx.env, f.tabId, 'snapshot')).data);
      return { snapshot: median(snaps), click: median(clicks), likes, frames, snap };
    } finally { await f.page.close(); }
  }

  /** @template T @param {Promise<T>} p @param {string} what @returns {Promise<T>} */
  function bounded(p, what) {
    return Promise.race([p, new Promise((_, reject) => setTimeout(() => reject(new Error(`${what} did not answer within 20 s`)), 20_000))]);
  }

  /** @type {Awaited<ReturnType<typeof roundTrips>>} */
  let plain;
  before(async function () {
    this.timeout(120_000);
    await roundTrips('frames/plain.html'); // warm-up: the first page of a browser pays for start-up
    plain = await roundTrips('frames/plain.html');
  });

  it('answers snapshot, click and get_frames on the ad-tag pattern, as fast as without it', async () => {
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
    console.log(`      ad tags: snapshot ${r.snapshot.toFixed(0)} ms (plain ${plain.snapshot.toFixed(0)}), click ${r.click.toFixed(0)} ms (plain ${plain.click.toFixed(0)})`);
    // Within noise of the page without the frames: a wait for frames that never answer costs 300 ms or more.
    expect(r.snapshot).to.be.below(plain.snapshot * 1.5 + 150);
    expect(r.click).to.be.below(plain.click * 1.5 + 150);
  });

  it('answers on a page whose frames failed to load, as fast as without them, and says which frames are broken', async () => {
    const r = await roundTrips('frames/broken.html');
    expect(r.likes).to.equal('5');
    expect(r.frames.ok).to.equal(true);
    console.log(`      broken frames: snapshot ${r.snapshot.toFixed(0)} ms (plain ${plain.snapshot.toFixed(0)}), click ${r.click.toFixed(0)} ms (plain ${plain.click.toFixed(0)})`);
    for (const title of ['Refused widget', 'Unreachable widget', 'Never-loading widget']) {
      expect(r.snap).to.include(`- iframe "${title}" (not readable: get_frames says why)`);
    }
    /** @type {Record<string, string>} */
    const state = Object.fromEntries(r.frames.data.frames.map((/** @type {any} */ f) => [new URL(f.url).pathname, f.state]));
    expect(state['/frames/refused.html']).to.equal('failed to load');
    expect(state['/frames/never.html']).to.equal('still loading');
    // Chromium lists an unreachable frame as its error page; Firefox by the address it tried.
    expect(Object.values(state).filter((s) => s === 'readable')).to.have.length(1);
    expect(r.snapshot).to.be.below(plain.snapshot * 1.5 + 150);
    expect(r.click).to.be.below(plain.click * 1.5 + 150);
  });
});
