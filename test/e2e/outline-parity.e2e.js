// The outline is the same in Chromium and Firefox. Every fixture page is outlined in
// both browsers and compared line by line; the only differences allowed are the ones written in
// docs/PERCEPTION.md ("Browser differences"), applied here by normalise().
import { expect } from 'chai';
import { browsers, getEnv, ask, tabIdOf } from './harness/env.js';

const PAGES = ['index.html', 'login.html', 'article.html', 'shop.html', 'perception.html', 'frame.html'];

/**
 * The documented differences: browsers number frames differently, so frameIds in frame markers
 * and frame-qualified refs are renumbered by order of appearance.
 * @param {string} outline
 */
export function normalise(outline) {
  /** @type {Map<string, number>} */
  const ids = new Map();
  const id = (/** @type {string} */ n) => { if (!ids.has(n)) ids.set(n, ids.size + 1); return ids.get(n); };
  return outline.replace(/\[frame=(\d+)\]/g, (_, n) => `[frame=F${id(n)}]`).replace(/\bf(\d+):e/g, (_, n) => `fF${id(n)}:e`);
}

/** @param {'chromium' | 'firefox'} kind @param {string} path */
async function outlineIn(kind, path) {
  const env = await getEnv(kind);
  const url = `${env.site.url}/${path}`;
  const page = await env.browser.openPage(url);
  try {
    const tabId = await tabIdOf(env, url);
    // Wait until every frame of the page is in the outline (the cross-origin one loads last).
    const deadline = Date.now() + 15_000;
    for (;;) {
      const r = await ask(env.control, { type: 'tool.run', tabId, name: 'snapshot', args: {} });
      if (!r.ok) throw new Error(`[${kind}] snapshot of ${path} failed: ${JSON.stringify(r)}`);
      const text = /** @type {string} */ (r.data);
      if (path !== 'perception.html' || text.includes('Cross frame action') || Date.now() > deadline) return text;
      await new Promise((res) => setTimeout(res, 200));
    }
  } finally {
    await page.close();
  }
}

describe('outline parity [chromium + firefox]', function () {
  this.timeout(120_000);
  before(function () {
    // Only a hand-run narrowed with TW_BROWSERS gets here with one browser; npm test always has both.
    if (browsers().length < 2) {
      console.log(`    outline parity needs both browsers; TW_BROWSERS=${process.env.TW_BROWSERS} narrows this run to one`);
      this.skip();
    }
  });

  for (const path of PAGES) {
    it(`outlines ${path} the same in both browsers`, async () => {
      const chromium = normalise(await outlineIn('chromium', path));
      const firefox = normalise(await outlineIn('firefox', path));
      expect(chromium.split('\n').length).to.be.greaterThan(1);
      // Same-origin frames are spliced like cross-origin ones (their own refs), so the cross-origin frame is the second.
      if (path === 'perception.html') expect(chromium).to.match(/\[frame=F2\]\n\s+Inside a frame\n\s+- button "Cross frame action" \[fF2:e1\]/);
      expect(firefox).to.equal(chromium);
    });
  }
});
