#!/usr/bin/env node
// The outline's build time in the page, old against new: the content scripts of a git revision
// (--base, default HEAD) against the working tree's, both loaded into each saved real page of
// ../shared/corpus/real-pages under two names, timed in alternating batches inside the page.
// Prints new/old per page and the geometric mean over the pages, and every page where the two
// outlines differ (a speed change should change nothing the model reads).
//
// A position bias of a few percent appears with identical code (whichever set is loaded second runs
// faster), so the run is made twice with the load order swapped and the two estimates combined:
// sqrt((new/old, new second) / (old/new, old second)). Each side's time on a page is the best of
// --rounds batches of --batch builds, each batch from a collected heap. Noise is about ±1.5 %.
//   node scripts/outline-ab.mjs [--base REV] [--every K] [--limit N] [--rounds 8] [--batch 5] [--verbose]
// Not a benchmark against a peer (that is npm run bench:snapshot): a tool for changing the outline.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveRealPages, perceptionSources } from '../test/fixtures/real-pages.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = process.env.TW_CORPUS ?? join(root, '../shared/corpus/real-pages');
const args = process.argv.slice(2);
const opt = (/** @type {string} */ name, /** @type {string} */ fallback) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : fallback; };
const base = opt('--base', 'HEAD');
const every = Number(opt('--every', '4'));
const limit = Number(opt('--limit', '1000'));
const rounds = Number(opt('--rounds', '8'));
const batch = Number(opt('--batch', '5'));
const verbose = args.includes('--verbose');

async function main() {
  const old = mkdtempSync(join(tmpdir(), 'tw-ab-'));
  execFileSync('tar', ['-x', '-C', old], { input: execFileSync('git', ['-C', root, 'archive', base, 'src/chrome'], { maxBuffer: 1 << 30 }) });
  const oldSrc = await perceptionSources(join(old, 'src/chrome'));
  const newSrc = await perceptionSources(join(root, 'src/chrome'));
  rmSync(old, { recursive: true, force: true });
  const tracker = await readFile(join(root, 'src/chrome/content/page-world.js'), 'utf8');

  const { server, origin } = await serveRealPages(CORPUS);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--js-flags=--expose-gc'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route('**/*', (route) => (route.request().url().startsWith(origin) ? route.continue() : route.abort()));
  await context.addInitScript({ content: tracker });
  const files = (await readdir(CORPUS)).filter((f) => f.endsWith('.html')).sort().filter((_, i) => i % every === 0).slice(0, limit);

  /**
   * One pass over the pages with one load order: the ratio second/first per page.
   * @param {'old' | 'new'} first
   */
  async function pass(first) {
    const sets = first === 'old' ? [oldSrc, newSrc] : [newSrc, oldSrc];
    /** @type {number[]} */
    const ratios = [];
    /** @type {string[]} */
    const diffs = [];
    for (const file of files) {
      const page = await context.newPage();
      try {
        await page.goto(`${origin}/${encodeURIComponent(file)}`, { waitUntil: 'load', timeout: 20_000 }).catch(() => {});
        for (const [k, src] of sets.entries()) {
          for (const s of src) await page.evaluate(s);
          await page.evaluate(`window.TwSet${k} = window.Tabwright; delete window.Tabwright`);
        }
        const run = (/** @type {number} */ k) => page.evaluate(`(() => { gc(); window.Tabwright = window.TwSet${k}; const t0 = performance.now(); let text = ''; for (let i = 0; i < ${batch}; i++) text = window.TwSet${k}.outline.build({ maxChars: 1e9 }).text; return { ms: performance.now() - t0, text }; })()`);
        const [a, b] = [await run(0), await run(1)];
        if (a.text !== b.text) diffs.push(file);
        const best = [Infinity, Infinity];
        for (let r = 0; r < rounds; r++) {
          const order = r % 2 ? [0, 1] : [1, 0];
          for (const k of order) best[k] = Math.min(best[k], (await run(k)).ms);
        }
        ratios.push(best[1] / best[0]);
        if (verbose) console.log(`  ${file.slice(0, 50).padEnd(50)} first ${(best[0] / batch).toFixed(2)} ms, second ${(best[1] / batch).toFixed(2)} ms`);
      } catch (err) {
        console.log(`  ${file}: skipped (${err instanceof Error ? err.message.split('\n')[0] : err})`);
      } finally {
        await page.close().catch(() => {});
      }
    }
    return { geomean: Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length), pages: ratios.length, diffs };
  }

  const newSecond = await pass('old');
  const oldSecond = await pass('new');
  await browser.close();
  server.close();
  const estimate = Math.sqrt(newSecond.geomean / oldSecond.geomean);
  console.log(`${newSecond.pages} pages (every ${every}th), base ${base}: new/old ${estimate.toFixed(3)} (loaded second: new ${newSecond.geomean.toFixed(3)}, old ${(1 / oldSecond.geomean).toFixed(3)})`);
  const diffs = [...new Set([...newSecond.diffs, ...oldSecond.diffs])];
  console.log(diffs.length ? `outlines differ on ${diffs.length} page(s): ${diffs.join(', ')}` : 'outlines identical on every page');
}

await main();
