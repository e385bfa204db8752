// Many short runs side by side through the real panel (the injection corpus, the lying pages): a
// pool of places, each keeping one tab and its panel from run to run as a person goes on in the
// same tab: the panel's New chat, then the next page. Opening a panel is a large part of a short
// run's cost; a run that went wrong leaves its place, and the next one there opens afresh.
import { tabIdOf } from './env.js';

/** @import { TestEnv } from './env.js' */
/** @import { Driver } from './driver.js' */

/** A tab and its panel, kept by one of a pool's places. @typedef {{ pair: { page: Driver, panel: Driver } | null }} Place */

/** @param {number} n @returns {Place[]} */
export function places(n) {
  return Array.from({ length: n }, () => ({ pair: null }));
}

/**
 * The page at url in the place's tab, with an empty conversation in its panel: the place's first run
 * opens both; a later one starts a New chat in the panel, then goes to its page in the same tab.
 * url must differ from the tab's address (tabIdOf finds a new tab by it).
 * @param {TestEnv} env @param {Place} place @param {string} url
 */
export async function arrive(env, place, url) {
  if (place.pair) {
    const { page, panel } = place.pair;
    await panel.click('#new-chat');
    await panel.waitFor(() => document.body.dataset.running === 'false' && !document.querySelector('#log .msg, #log .card, #log .tool'), undefined, { message: 'a new chat' });
    await page.goto(url);
    return place.pair;
  }
  const page = await env.browser.openPage(url);
  const panel = await (async () => env.browser.openExtensionPage(`ui/panel.html?tabId=${await tabIdOf(env, url)}`))()
    .catch(async (err) => { await page.close().catch(() => {}); throw err; });
  place.pair = { page, panel };
  await panel.waitFor(() => document.body.dataset.tabId, undefined, { timeout: 60_000, message: 'the panel to attach' });
  return place.pair;
}

/** Close the place's tab and panel. @param {Place} place */
export async function leave(place) {
  const pair = place.pair;
  place.pair = null;
  await pair?.page.close().catch(() => {});
  await pair?.panel.close().catch(() => {});
}

/**
 * fn over the items, size at a time, each worker in its own place (a worker's index is its place's).
 * @template T, R @param {T[]} items @param {number} size @param {(t: T, worker: number) => Promise<R>} fn
 * @returns {Promise<R[]>} in the items' order
 */
export async function pool(items, size, fn) {
  /** @type {R[]} */
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: size }, async (_, worker) => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], worker);
    }
  }));
  return out;
}
