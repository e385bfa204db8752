// The shared test environment: one browser per kind, one fixture site and one mock LLM for the
// whole run, reused across scenarios that cannot disturb each other.
import { launch, launchChromium, launchFirefox } from './browsers.js';
import { startSite } from '../../fixtures/site/server.js';
import { startMockLLM } from '../../fixtures/llm/server.js';
import { closeLocalModels } from './local-models.js';

/** @import { BrowserEnv } from './browsers.js' */
/** @import { Driver } from './driver.js' */

const ALL_BROWSERS = /** @type {const} */ (['chromium', 'firefox']);
/**
 * The browsers the file being declared runs in. `npm test` (scripts/test.mjs) runs a few lanes per
 * browser side by side, each with TW_BROWSERS set to the browser of the file it runs (a lane that has
 * run out of its own browser's files may take the other's: harness/lane.mjs sets it before each
 * file), and the cross-browser files in a process with both; a hand run without TW_BROWSERS gets
 * both in one process. Read when a file declares its suites.
 * @returns {readonly ('chromium' | 'firefox')[]}
 */
export function browsers() {
  const only = process.env.TW_BROWSERS;
  return only ? ALL_BROWSERS.filter((b) => only.split(',').includes(b)) : ALL_BROWSERS;
}

/** @type {Promise<{ site: Awaited<ReturnType<typeof startSite>>, llm: Awaited<ReturnType<typeof startMockLLM>> }> | null} */
let servers = null;
/** @type {Map<string, Promise<TestEnv>>} */
const envs = new Map();

export function getServers() {
  servers ??= (async () => ({ site: await startSite(), llm: await startMockLLM() }))();
  return servers;
}

/**
 * @typedef {object} TestEnv
 * @property {BrowserEnv} browser
 * @property {Driver} control an extension page kept open to talk to the background
 * @property {Awaited<ReturnType<typeof startSite>>} site
 * @property {Awaited<ReturnType<typeof startMockLLM>>} llm
 */

/** @param {'chromium' | 'firefox'} kind @returns {Promise<TestEnv>} */
export function getEnv(kind) {
  let p = envs.get(kind);
  if (!p) {
    p = (async () => {
      const { site, llm } = await getServers();
      const browser = await launch(kind);
      const control = await browser.openExtensionPage('ui/options.html').catch(async (err) => { await browser.close(); throw err; });
      // The control page's waits are on the service's answers, not on its DOM: polled from Node.
      control.pollFromNode = true;
      return { browser, control, site, llm };
    })();
    // A launch that failed fails its suite; the next suite launches again instead of failing on the
    // same rejected promise (one slow start once failed the 80 tests after it in its process).
    p.catch(() => { if (envs.get(kind) === p) envs.delete(kind); });
    envs.set(kind, p);
  }
  return p;
}

/**
 * The second browsers some suites need, each launched once per process and shared by every suite
 * that needs it: another UI language (Chromium from --lang, Firefox from its language packs). The
 * dark scheme needs none: Driver.colorScheme switches it in a running browser. Closed with the rest
 * at the end.
 */
const VARIANTS = {
  chromium: {
    ja: () => launchChromium({ locale: 'ja', args: ['--lang=ja'], env: { ...process.env, LANGUAGE: 'ja', LANG: 'ja_JP.UTF-8' } }),
    ar: () => launchChromium({ locale: 'ar', args: ['--lang=ar'], env: { ...process.env, LANGUAGE: 'ar', LANG: 'ar_EG.UTF-8' } }),
    de: () => launchChromium({ locale: 'de-DE', args: ['--lang=de'], env: { ...process.env, LANGUAGE: 'de', LANG: 'de_DE.UTF-8' } }),
  },
  firefox: {
    ja: () => launchFirefox({ prefs: { 'intl.locale.requested': 'ja' } }),
    ar: () => launchFirefox({ prefs: { 'intl.locale.requested': 'ar' } }),
  },
};
/** @typedef {keyof typeof VARIANTS.chromium | keyof typeof VARIANTS.firefox} Variant */

/**
 * A browser of kind in a variant, on the shared fixture site and mock LLM, with its own control page.
 * @param {'chromium' | 'firefox'} kind @param {Variant} variant @returns {Promise<TestEnv>}
 */
export function getVariantEnv(kind, variant) {
  const key = `${kind}:${variant}`;
  let p = envs.get(key);
  if (!p) {
    const start = /** @type {Record<string, () => Promise<BrowserEnv>>} */ (VARIANTS[kind])[variant];
    if (!start) throw new Error(`no ${variant} variant of ${kind}`);
    p = (async () => {
      const { site, llm } = await getServers();
      const browser = await start();
      const control = await browser.openExtensionPage('ui/options.html').catch(async (err) => { await browser.close(); throw err; });
      // The control page's waits are on the service's answers, not on its DOM: polled from Node.
      control.pollFromNode = true;
      return { browser, control, site, llm };
    })();
    // As getEnv: a failed launch fails its suite, and the next one launches again.
    p.catch(() => { if (envs.get(key) === p) envs.delete(key); });
    envs.set(key, p);
  }
  return p;
}

export async function closeAll() {
  // The process's browsers (its own and the second ones) close side by side.
  await Promise.all([...envs.values()].map(async (p) => {
    try { const env = await p; await env.browser.close(); } catch { /* launch failed; reported by the tests */ }
  }));
  envs.clear();
  if (servers) { const s = await servers; await s.site.close(); await s.llm.close(); servers = null; }
  await closeLocalModels();
}

/**
 * Send a router request from an extension page, exactly as the panel does.
 * @param {Driver} page @param {import('../../../src/chrome/types/messages').RouterRequest} req
 */
export function ask(page, req) {
  return page.evaluate((r) => browser.runtime.sendMessage(r), req);
}

/** @param {TestEnv} env @param {Record<string, unknown>} [provider] */
export async function useMockProvider(env, provider = {}) {
  const reply = await ask(env.control, { type: 'settings.set', settings: { provider: { kind: 'openai', baseUrl: env.llm.baseUrl, model: 'mock-1', apiKey: 'sk-test-123', ...provider } } });
  if (!reply.ok) throw new Error(`settings.set failed: ${reply.message}`);
}

/**
 * A settle period for the runs that follow (Settings settleMs: how long the hold stays past the last
 * acting step once the agent said done; agent/safety/guard.js). Only for pages that send and change
 * nothing late: the product's 5 s default is what catches a page's delayed write, and the scenarios
 * that prove it (autosaves, late pixels, rollbacks, slow refusals) keep it. null goes back to the
 * default; a suite that shortens it puts it back before the next file runs in the same browser.
 * @param {TestEnv} env @param {number | null} ms
 */
export async function useSettle(env, ms) {
  const reply = await ask(env.control, { type: 'settings.set', settings: /** @type {any} */ ({ settleMs: ms }) });
  if (!reply.ok) throw new Error(`settings.set failed: ${reply.message}`);
}
/** The settle period of pages that send nothing late (the shortest the settings allow). */
export const QUICK_SETTLE_MS = 1_000;

/** The tab id of the open tab whose URL is url. @param {TestEnv} env @param {string} url */
export async function tabIdOf(env, url) {
  // A hang guard: on a loaded machine a new tab can take far longer than usual to report its URL.
  const id = await env.control.waitFor((u) => browser.tabs.query({}).then((tabs) => tabs.find((t) => t.url === u)?.id), url, { timeout: 60_000, message: `a tab at ${url}` });
  return /** @type {number} */ (id);
}

/**
 * Open a fixture page and a panel pinned to its tab.
 * @param {TestEnv} env @param {string} path
 */
export async function openPageWithPanel(env, path) {
  const url = `${env.site.url}/${path}`;
  const page = await env.browser.openPage(url);
  const tabId = await tabIdOf(env, url);
  const panel = await env.browser.openExtensionPage(`ui/panel.html?tabId=${tabId}`);
  await panel.waitFor(() => document.body.dataset.tabId, undefined, { message: 'the panel to attach to its tab' });
  return { page, panel, tabId, url };
}

/** Runs each panel had started before the last send. @type {WeakMap<Driver, number>} */
const runsBefore = new WeakMap();

/**
 * Type a message into the real panel UI and send it.
 * @param {Driver} panel @param {string} text @param {'ask' | 'act' | 'plan'} mode
 */
export async function sendFromPanel(panel, text, mode) {
  runsBefore.set(panel, Number(await panel.evaluate(() => document.body.dataset.runs ?? 0)));
  await panel.evaluate((m) => {
    const radio = /** @type {HTMLInputElement} */ (document.querySelector(`input[name=mode][value=${m}]`));
    radio.click();
  }, mode);
  await panel.fill('#prompt', text);
  await panel.click('#send');
}

/**
 * Clicks an answer on the pending card and waits until that card (known by its id) is answered.
 * The log may re-render under the click as the run goes on (a step's entry appears): a click on a
 * card that was just replaced is lost, so while the same card still waits, the click is given again
 * on the card shown now, three times at most. Another card is never answered in its place.
 * @param {Driver} panel @param {'yes' | 'task' | 'no'} answer
 */
export async function answerPending(panel, answer) {
  const key = await panel.evaluate(() => document.querySelector('.card.confirm.pending')?.getAttribute('aria-labelledby') ?? '');
  const pending = `.card.confirm.pending[aria-labelledby="${key}"]`;
  for (let tries = 1; ; tries++) {
    await panel.click(`${pending} .confirm-${answer}`);
    try {
      await panel.waitFor((sel) => !document.querySelector(sel), pending, { message: 'the card to be answered', timeout: tries < 3 ? 5000 : 15_000 });
      return;
    } catch (err) { if (tries >= 3) throw err; }
  }
}

/** Wait until the run in the panel has finished; returns the panel's visible transcript. @param {Driver} panel */
export async function waitForIdle(panel, timeout = 30_000) {
  const before = runsBefore.get(panel) ?? 0;
  await panel.waitFor((n) => Number(document.body.dataset.runs ?? 0) > n && document.body.dataset.running === 'false', before, { timeout, message: 'the run to start and finish' });
  return transcript(panel);
}

/** @param {Driver} panel */
export function transcript(panel) {
  return panel.evaluate(() => [...document.querySelectorAll('#log > *')].map((el) => ({
    cls: el.className,
    tool: /** @type {HTMLElement} */ (el).dataset.tool ?? null,
    code: /** @type {HTMLElement} */ (el).dataset.code ?? null,
    text: el.textContent ?? '',
  })));
}

/**
 * The newest runs of the IndexedDB history, with their transcripts, read through the router as the
 * panel's history view reads them. @param {TestEnv} env @param {number} [limit]
 * @returns {Promise<any[]>}
 */
export function historyRecords(env, limit = 10) {
  return env.control.evaluate(async (n) => {
    const list = await browser.runtime.sendMessage({ type: 'history.list' });
    if (!list.ok) return [];
    const out = [];
    for (const h of list.data.slice(0, n)) {
      const r = await browser.runtime.sendMessage({ type: 'history.get', id: h.id });
      if (r.ok) out.push(r.data);
    }
    return out;
  }, limit);
}

/**
 * Poll the history until a run matches; runs are saved as they end.
 * @param {TestEnv} env @param {(run: any) => boolean} match @returns {Promise<any>}
 */
export async function waitForHistory(env, match, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  while (true) {
    const found = (await historyRecords(env)).find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`[${env.browser.kind}] no matching run in the history after ${timeout} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
