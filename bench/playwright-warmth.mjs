#!/usr/bin/env node
// Why bench/snapshot.mjs times the in-page builds in a fresh tab (docs/PERFORMANCE.md, session 9):
// Playwright's injected script, created anew in an isolated world, runs its first calls on a page
// almost as fast as its later ones when page.ariaSnapshot ran five times on that page before
// ("prior"), and much slower on a fresh tab of the page ("fresh"). Prints the median time of calls
// one to four over the pages; the two cases alternate which goes first.
//   node bench/playwright-warmth.mjs [pages-file]   (default: every 7th saved page, at most 24)
import { readFile, readdir } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveRealPages } from '../test/fixtures/real-pages.js';
import { playwrightInjectedSource, playwrightInPage } from './playwright-in-page.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = process.env.TW_CORPUS ?? join(root, '../shared/corpus/real-pages');
const CALLS = 4;

/** @param {number[]} v */
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];

/** @returns {Promise<string[]>} */
async function pageList() {
  const listed = process.argv[2];
  const all = listed ? (await readFile(listed, 'utf8')).split('\n').filter(Boolean)
    : (await readdir(CORPUS)).filter((f) => f.endsWith('.html')).sort().filter((_, k) => k % 7 === 0);
  return all.slice(0, 24);
}

async function main() {
  const injected = await playwrightInjectedSource();
  if (!injected) throw new Error('playwright-core lays out its bundle differently: its injected script was not found');
  const { server, origin } = await serveRealPages(CORPUS);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--js-flags=--expose-gc'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route('**/*', (route) => (route.request().url().startsWith(origin) ? route.continue() : route.abort()));
  /** @type {Record<'fresh' | 'prior', number[][]>} */
  const times = { fresh: [...Array(CALLS)].map(() => []), prior: [...Array(CALLS)].map(() => []) };
  const files = await pageList();
  for (const [n, file] of files.entries()) {
    /** @type {('fresh' | 'prior')[]} */
    const order = n % 2 ? ['prior', 'fresh'] : ['fresh', 'prior'];
    for (const mode of order) {
      const page = await context.newPage();
      await page.goto(`${origin}/${encodeURIComponent(file)}`, { waitUntil: 'load', timeout: 20_000 }).catch(() => {});
      if (mode === 'prior') for (let k = 0; k < 5; k++) { await page.evaluate('gc()'); await page.ariaSnapshot({ mode: 'ai' }); }
      const call = await playwrightInPage(page, injected);
      if (call) for (let k = 0; k < CALLS; k++) times[mode][k].push((await call()).ms);
      await page.close();
    }
  }
  console.log(`${files.length} pages, Playwright's in-page snapshot, median ms of calls 1 to ${CALLS} of a new instance:`);
  for (const mode of /** @type {const} */ (['fresh', 'prior'])) {
    console.log(`  ${mode === 'fresh' ? 'fresh tab               ' : 'after 5 page.ariaSnapshot'} ${times[mode].map((v, k) => `#${k + 1} ${median(v).toFixed(1)}`).join('  ')}`);
  }
  await browser.close();
  server.close();
}

main().catch((e) => { console.error(e); process.exit(1); });
