#!/usr/bin/env node
// The outline as the model gets it: through the extension's own tool runner (tool.run, the path the
// agent's tools take: panel page → background → content script → back), in Chromium with the
// extension loaded, on the saved real pages of ../shared/corpus/real-pages and a generated page of
// about 100,000 elements; against Playwright's page.ariaSnapshot({ mode: 'ai' }) on the same tab.
// Per page and summed up:
//   round trip: the median of three timed calls after one untimed one, for each side; medians and
//     p90s over the pages; a call that takes over 30 s counts as timed out;
//   tokens (o200k) of the text the model receives: the snapshot's result through formatToolResult
//     with the snapshot's own budget and the untrusted-content fence, exactly as the agent loop sends it;
//   coverage as received: of the refs in the page's whole outline (snapshot with maxChars 200000), the
//     share that is in the received text or in the text of a follow-up call that text names
//     ("snapshot ref=… from=…").
// Writes bench/results/snapshot-runner.json.
//   node bench/snapshot-runner.mjs [--limit N] [--filter substring]
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { launchChromium } from '../test/e2e/harness/browsers.js';
import { bigPageHtml } from '../test/fixtures/site/big-page.js';
import { followUps } from '../test/fixtures/follow-ups.js';
import { serveRealPages } from '../test/fixtures/real-pages.js';
import { formatToolResult } from '../src/chrome/agent/tool-result.js';
import { resultBudget } from '../src/chrome/agent/budget.js';
import { createFence } from '../src/chrome/agent/untrusted.js';
import { snapshot as snapshotTool } from '../src/chrome/agent/tools/perception.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The corpus beside the work trees (/work/shared), or beside a clone (../shared).
const CORPUS = process.env.TW_CORPUS ?? [join(root, '../shared/corpus/real-pages'), join(root, '../../shared/corpus/real-pages')].find((d) => existsSync(d)) ?? join(root, '../shared/corpus/real-pages');
const args = process.argv.slice(2);
const opt = (/** @type {string} */ name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const limit = Number(opt('--limit') ?? Infinity);
const filter = opt('--filter');
const RUNS = 3;
const CALL_LIMIT_MS = 30_000;
const GENERATED = '__generated-100k.html';
/** The shapes whose summaries once opened to themselves: a sidebar of 3,000 links, an essay laid out in one table. */
const SUMMARIES = '__summaries.html';
/** Named follow-up calls made per page at most (an outline names at most 80 per "not outlined" line). */
const MAX_FOLLOW_UPS = 400;

/** @param {number[]} xs @param {number} q */
function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return 0;
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}
/** @param {number[]} xs */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** @template T @param {Promise<T>} p @returns {Promise<T | 'timeout'>} */
function bounded(p) {
  return Promise.race([p, new Promise((r) => setTimeout(() => r(/** @type {'timeout'} */ ('timeout')), CALL_LIMIT_MS))]);
}

/** @param {string} text */
const refsIn = (text) => new Set([...text.matchAll(/\[((?:f\d+:)?e\d+)\]/g)].map((m) => m[1]));


/** The corpus pages to measure, after --filter and --limit, and the two generated pages. */
async function pagesToMeasure() {
  let files = (await readdir(CORPUS)).filter((f) => f.endsWith('.html')).sort();
  if (filter) files = files.filter((f) => f.includes(filter));
  files = files.slice(0, limit);
  if (!filter || GENERATED.includes(filter)) files.push(GENERATED);
  if (!filter || SUMMARIES.includes(filter)) files.push(SUMMARIES);
  return files;
}

/** @typedef {(tabId: number, a: Record<string, unknown>) => Promise<any>} RunSnapshot */

/**
 * Tabwright through the tool runner: one untimed call, then RUNS timed ones; the last result.
 * @param {RunSnapshot} run @param {number} tabId
 */
async function timeTabwright(run, tabId) {
  /** @type {number[]} */
  const ms = [];
  let timeouts = 0;
  let result = await bounded(run(tabId, {}));
  if (result === 'timeout') timeouts++;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const r = await bounded(run(tabId, {}));
    if (r === 'timeout') { timeouts++; continue; }
    ms.push(performance.now() - t0);
    result = r;
  }
  if (result === 'timeout' || !result?.ok) throw new Error(result === 'timeout' ? 'the tool runner timed out' : `${result.code}: ${result.message}`);
  return { ms, timeouts, result };
}

/** Playwright's snapshot of the same tab: one untimed call, then RUNS timed ones. @param {any} page */
async function timePlaywright(page) {
  await page.ariaSnapshot({ mode: 'ai', timeout: CALL_LIMIT_MS });
  /** @type {number[]} */
  const ms = [];
  let text = '';
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    text = await page.ariaSnapshot({ mode: 'ai', timeout: CALL_LIMIT_MS });
    ms.push(performance.now() - t0);
  }
  return { ms, text };
}

/**
 * Coverage as received: the whole outline's refs, against what the text and its named follow-ups show.
 * @param {RunSnapshot} run @param {number} tabId @param {string} text what the model received
 * @param {(result: any, a: Record<string, unknown>) => string} received
 */
async function coverageAsReceived(run, tabId, text, received) {
  const full = await bounded(run(tabId, { maxChars: 200_000 }));
  const all = full !== 'timeout' && full.ok ? refsIn(String(full.data)) : new Set();
  if (process.env.DEBUG_FULL) console.log(String(full === 'timeout' ? full : JSON.stringify(full).slice(0, 400)));
  if (full === 'timeout' || !full.ok) console.log(`      the whole outline failed: ${full === 'timeout' ? 'timeout' : `${full.code}: ${full.message}`}`);
  const reach = refsIn(text);
  const direct = reach.size;
  const calls = followUps(text);
  // A follow-up that names itself again (the same ref and range) would make a model loop.
  const key = (/** @type {{ ref: string, from?: number, to?: number }} */ c) => `${c.ref} ${c.from ?? ''} ${c.to ?? ''}`;
  let selfLoops = 0;
  for (const f of calls.slice(0, MAX_FOLLOW_UPS)) {
    const more = await bounded(run(tabId, f));
    if (more === 'timeout' || !more.ok) continue;
    const moreText = received(more, f);
    for (const r of refsIn(moreText)) reach.add(r);
    if (followUps(moreText).some((c) => key(c) === key(f))) selfLoops++;
  }
  return { outline: all.size, direct, followUps: calls.length, selfLoops, covered: [...all].filter((r) => reach.has(r)).length };
}

/**
 * One page in a tab of the session: its row.
 * @param {Awaited<ReturnType<typeof startBrowser>>} session @param {any} page @param {string} url @param {string} file
 * @param {(result: any, a: Record<string, unknown>) => string} received
 */
async function measurePage(session, page, url, file, received) {
  const { control, run } = session;
  await page.goto(url, { waitUntil: 'load', timeout: 20_000 }).catch(() => {});
  const tabId = /** @type {number} */ (await control.waitFor((u) => browser.tabs.query({}).then((tabs) => tabs.find((t) => t.url === u)?.id), url, { message: `a tab at ${url}` }));
  // Tabwright through the tool runner, then Playwright, each warmed up once.
  const tw = await timeTabwright(run, tabId);
  const pw = await timePlaywright(page);
  const text = received(tw.result, {});
  const c = await coverageAsReceived(run, tabId, text, received);
  return {
    page: file, timeouts: tw.timeouts,
    tabwright: { roundTripMs: +median(tw.ms).toFixed(1), tokens: countTokens(text), chars: text.length, refsReceived: c.direct, refsOutline: c.outline, followUps: c.followUps, selfLoops: c.selfLoops, reachable: c.covered },
    playwright: { roundTripMs: +median(pw.ms).toFixed(1), tokens: countTokens(pw.text) },
  };
}

/** A measured page's line. @param {any} row @param {number} n */
function printRow(row, n) {
  const t = row.tabwright;
  console.log(`${String(n).padStart(3)} ${row.page.padEnd(44).slice(0, 44)} round trip ${t.roundTripMs}/${row.playwright.roundTripMs} ms tokens ${t.tokens}/${row.playwright.tokens} refs ${t.refsReceived}+${t.reachable - Math.min(t.reachable, t.refsReceived)} of ${t.refsOutline}${t.followUps ? ` (${t.followUps} follow-ups named${t.selfLoops ? `, ${t.selfLoops} naming themselves` : ''})` : ''}`);
}

async function main() {
  const files = await pagesToMeasure();
  const summaries = await readFile(join(root, 'test/fixtures/site/pages/widgets/summaries.html'), 'utf8');
  const { server, origin } = await serveRealPages(CORPUS, (name) => (name === GENERATED ? bigPageHtml() : name === SUMMARIES ? summaries : null));
  const fence = createFence();
  /** The text the model receives for a snapshot call's result. @param {any} result @param {Record<string, unknown>} a */
  const received = (result, a) => formatToolResult(result, { fence, pageContent: true, maxChars: resultBudget(snapshotTool, a) });
  // A peer's failure on one page can take the browser context down with it (Playwright's snapshot
  // timing out closes its context): that page is reported as skipped, and the run goes on in a new browser.
  let session = await startBrowser(origin);
  /** @type {any[]} */
  const pages = [];
  for (const [i, file] of files.entries()) {
    /** @type {any} */
    let page = null;
    try {
      if (!session.alive()) session = await startBrowser(origin);
      page = await session.ctx.newPage();
      const row = await measurePage(session, page, `${origin}/${encodeURIComponent(file)}`, file, received);
      pages.push(row);
      printRow(row, i + 1);
    } catch (err) {
      console.log(`${String(i + 1).padStart(3)} ${file}: skipped (${err instanceof Error ? err.message.split('\n')[0] : err})`);
      pages.push({ page: file, error: String(err instanceof Error ? err.message.split('\n')[0] : err) });
    } finally {
      await page?.close().catch(() => {});
    }
  }
  await session.chromium.close().catch(() => {});
  server.closeAllConnections();
  server.close();
  await report(pages);
}

/**
 * Chromium with the extension, every request off 127.0.0.1 aborted (the pages reference live
 * CDNs), and the extension page that runs the tools.
 * @param {string} origin
 */
async function startBrowser(origin) {
  const chromium = await launchChromium();
  const ctx = chromium.raw;
  let closed = false;
  ctx.on('close', () => { closed = true; });
  await ctx.route('**/*', (/** @type {any} */ route) => (route.request().url().startsWith(origin) || route.request().url().startsWith('data:') ? route.continue() : route.abort()));
  const control = await chromium.openExtensionPage('ui/options.html');
  /** @param {number} tabId @param {Record<string, unknown>} a */
  const run = (tabId, a) => control.evaluate((r) => browser.runtime.sendMessage(r), { type: 'tool.run', tabId, name: 'snapshot', args: a });
  /** Whether the context can still open pages (a closed context, or its browser gone, cannot). */
  const alive = () => !closed && (chromium.raw.browser?.()?.isConnected?.() ?? true);
  return { chromium, ctx, control, run, alive };
}

/** @param {any[]} pages */
async function report(pages) {
  const ok = pages.filter((p) => !p.error && p.page !== GENERATED);
  const big = pages.find((p) => p.page === GENERATED && !p.error);
  const tw = ok.map((p) => p.tabwright.roundTripMs), pw = ok.map((p) => p.playwright.roundTripMs);
  const outline = ok.reduce((s, p) => s + p.tabwright.refsOutline, 0);
  const reachable = ok.reduce((s, p) => s + p.tabwright.reachable, 0);
  const direct = ok.reduce((s, p) => s + Math.min(p.tabwright.refsReceived, p.tabwright.refsOutline), 0);
  const result = {
    pages: ok.length,
    skipped: pages.filter((p) => p.error).length,
    timeouts: pages.reduce((s, p) => s + (p.timeouts ?? 0), 0),
    tabwright: { medianRoundTripMs: +median(tw).toFixed(1), p90RoundTripMs: +quantile(tw, 0.9).toFixed(1), medianTokens: median(ok.map((p) => p.tabwright.tokens)) },
    playwright: { medianRoundTripMs: +median(pw).toFixed(1), p90RoundTripMs: +quantile(pw, 0.9).toFixed(1), medianTokens: median(ok.map((p) => p.playwright.tokens)) },
    coverageAsReceived: { direct: +(direct / outline).toFixed(4), withNamedFollowUps: +(reachable / outline).toFixed(4), pagesWithFollowUps: ok.filter((p) => p.tabwright.followUps).length,
      followUpsNamingThemselves: ok.reduce((s, p) => s + (p.tabwright.selfLoops ?? 0), 0) },
    skippedPages: pages.filter((p) => p.error).map((p) => ({ page: p.page, why: p.error })),
    ratio: {},
    generated100k: big ? { roundTripMs: big.tabwright.roundTripMs, tokens: big.tabwright.tokens, followUps: big.tabwright.followUps,
      reachableInOneCall: +(big.tabwright.reachable / big.tabwright.refsOutline).toFixed(4), playwrightRoundTripMs: big.playwright.roundTripMs, playwrightTokens: big.playwright.tokens } : null,
  };
  result.ratio = {
    tokens: +(result.tabwright.medianTokens / result.playwright.medianTokens).toFixed(3),
    medianRoundTrip: +(result.tabwright.medianRoundTripMs / result.playwright.medianRoundTripMs).toFixed(3),
    p90RoundTrip: +(result.tabwright.p90RoundTripMs / result.playwright.p90RoundTripMs).toFixed(3),
  };
  console.log(JSON.stringify(result, null, 2));
  if (!filter && limit === Infinity) {
    await mkdir(join(root, 'bench/results'), { recursive: true });
    await writeFile(join(root, 'bench/results/snapshot-runner.json'), `${JSON.stringify(result, null, 2)}\n`);
  }
}

await main();
// A browser process that lingers after close (seen under load) must not keep the finished run waiting.
process.exit(0);
