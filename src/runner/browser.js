// One headless browser with Tabwright loaded and a profile folder: Chromium through playwright-core
// (a persistent context), Firefox ESR through puppeteer-core over WebDriver BiDi (a temporary
// add-on with a pinned UUID, so the extension's address is known). The runner talks to the
// extension exactly as its own pages do: router requests sent from one extension page it keeps open.
import { spawn } from 'node:child_process';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserMemory } from './memory.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const GECKO_ID = 'tabwright@tabwright.dev';
/** The moz-extension UUID the runner pins, so the extension's pages have a known address. */
const FIREFOX_UUID = '6f0c1b8e-7d2a-4c55-9a3e-2b1f0d4c9e71';
/** The page that stays open to talk to the background (it loads the webextension polyfill in Chrome). */
const CONTROL_PAGE = 'ui/options.html';
/** The longest the extension may take to answer one request (each answers in milliseconds: a hang guard). */
const ANSWER_MS = 60_000;

/**
 * @typedef {object} Browser
 * @property {'chromium' | 'firefox'} kind
 * @property {string} profile the profile folder
 * @property {(req: Record<string, unknown>) => Promise<any>} ask a router request, answered as the panel's are
 * @property {(url: string, made?: (tabId: number) => void) => Promise<number>} openTab a new background tab at
 *   url, loaded; its tab id (made hears it as soon as the tab exists, before it has loaded)
 * @property {(tabId: number) => Promise<void>} closeTab
 * @property {(url: string) => Promise<string>} readText the text a GET of url shows in this profile (its cookies)
 * @property {() => Promise<number>} memory the browser's processes' proportional set size, bytes
 * @property {() => Promise<void>} close
 */

/**
 * What the runner uses of a Playwright or Puppeteer page (the two libraries share it).
 * @typedef {{ evaluate: (fn: any, arg?: any) => Promise<any>, goto: (url: string, opts?: any) => Promise<unknown>, close: () => Promise<void> }} Page
 */

/**
 * @param {{ kind: 'chromium' | 'firefox', profile?: string, headed?: boolean }} opts profile: a folder to
 *   keep (default: a temporary one, removed on close)
 * @returns {Promise<Browser>}
 */
export async function launchBrowser(opts) {
  const temp = !opts.profile;
  const profile = opts.profile ?? await mkdtemp(join(tmpdir(), `tabwright-${opts.kind}-`));
  const b = opts.kind === 'firefox' ? await launchFirefox(profile, !opts.headed) : await launchChromium(profile, !opts.headed);
  const control = await b.openExtensionPage(CONTROL_PAGE);
  // An evaluate has no time-out of its own and, rarely, never returns (the page's renderer stuck
  // under load, a message nobody answers): each is bounded, so the run fails (and is retried)
  // instead of waiting for ever.
  /** @param {(arg: any) => any} fn @param {unknown} [arg] @param {string} [what] */
  const inControl = (fn, arg, what = 'a request') => bounded(control.evaluate(fn, arg), ANSWER_MS, `the extension's answer to ${what}`);
  return {
    kind: opts.kind,
    profile,
    ask: (req) => inControl((r) => /** @type {any} */ (globalThis).browser.runtime.sendMessage(r), req, String(req.type)),
    // A tab per run, never reused: a run's request hold on a tab is cleaned up in the background
    // after it ends, and a next run's hold on the same tab right after it once saw its write go
    // unheld (NO_WRITE_SEEN) on a very loaded machine. A new tab costs a renderer; it is worth it.
    async openTab(url, made) {
      const id = await inControl((u) => /** @type {any} */ (globalThis).browser.tabs.create({ url: u, active: false }).then((/** @type {any} */ t) => t.id), url);
      made?.(id);
      const want = samePage(url);
      await waitUntil(() => inControl((i) => /** @type {any} */ (globalThis).browser.tabs.get(i).then((/** @type {any} */ t) => t.status === 'complete' ? t.url : ''), id).then(want), 30_000, `the tab at ${url} to load`);
      return id;
    },
    async closeTab(tabId) {
      await inControl((i) => /** @type {any} */ (globalThis).browser.tabs.remove(i), tabId).catch(() => {});
    },
    readText: (url) => bounded(readPage(b, url), ANSWER_MS, `the page ${url}`),
    memory: () => browserMemory(profile),
    async close() {
      await b.close().catch(() => {});
      if (temp) await rm(profile, { recursive: true, force: true }).catch(() => {});
    },
  };
}

/** The text a page shows, read in a page of its own. @param {{ newPage: () => Promise<Page> }} b @param {string} url */
async function readPage(b, url) {
  const page = await b.newPage();
  try {
    await page.goto(url, { waitUntil: 'load' });
    return String(await page.evaluate(() => document.body?.innerText ?? ''));
  } finally {
    // Not awaited past a moment: a close that hangs must not hold the lookup's answer.
    await Promise.race([page.close().catch(() => {}), new Promise((r) => setTimeout(r, 5_000))]);
  }
}

/** Whether a loaded tab's address is url's page (origin and path: a query or hash may differ). @param {string} url */
function samePage(url) {
  const want = new URL(url);
  return (/** @type {string} */ got) => {
    try { const u = new URL(got); return u.origin === want.origin && u.pathname === want.pathname; } catch { return false; }
  };
}

/** @param {string} path @param {string} what @param {string} variable */
async function requireBinary(path, what, variable) {
  try { await access(path, constants.X_OK); } catch {
    throw new Error(`${what} was not found at ${path}: install it, or point ${variable} at it.`);
  }
}

/** @param {string} profile @param {boolean} headless */
async function launchChromium(profile, headless) {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  await requireBinary(path, 'Chromium', 'CHROMIUM_PATH');
  const { chromium } = await import('playwright-core');
  const ext = join(root, 'src/chrome');
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: path,
    headless,
    // Without the background-networking flags Chromium floods a closed network with refused connections.
    args: [...(headless ? ['--headless=new'] : []), `--disable-extensions-except=${ext}`, `--load-extension=${ext}`,
      '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  let [sw] = ctx.serviceWorkers();
  sw ??= await ctx.waitForEvent('serviceworker', { timeout: 30_000 });
  const base = `chrome-extension://${new URL(sw.url()).host}/`;
  return {
    /** @param {string} path @returns {Promise<Page>} */
    async openExtensionPage(path) {
      const page = await ctx.newPage();
      await page.goto(base + path, { waitUntil: 'load' });
      return /** @type {Page} */ (/** @type {unknown} */ (page));
    },
    newPage: async () => /** @type {Page} */ (/** @type {unknown} */ (await ctx.newPage())),
    close: () => ctx.close(),
  };
}

/** @param {string} profile @param {boolean} headless */
async function launchFirefox(profile, headless) {
  const path = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
  await requireBinary(path, 'Firefox', 'FIREFOX_PATH');
  const puppeteer = (await import('puppeteer-core')).default;
  const browser = await puppeteer.launch({
    browser: 'firefox', executablePath: path, headless, userDataDir: profile,
    // Extension pages can be opened only with system access over the remote protocol.
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: FIREFOX_UUID }),
      'app.update.enabled': false,
      'browser.shell.checkDefaultBrowser': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      'toolkit.telemetry.enabled': false,
    },
  });
  await browser.installExtension(join(root, 'src/firefox'));
  const base = `moz-extension://${FIREFOX_UUID}/`;
  const watchdog = endsWithMe(browser.process()?.pid);
  return {
    /** @param {string} path @returns {Promise<Page>} */
    async openExtensionPage(path) {
      const page = await browser.newPage();
      const url = base + path;
      // goto() on a moz-extension address never resolves under BiDi: start it and poll.
      page.goto(url).catch(() => {});
      await waitUntil(() => page.evaluate((u) => location.href === u && document.readyState === 'complete' && typeof /** @type {any} */ (globalThis).browser?.runtime?.sendMessage === 'function', url).catch(() => false), 30_000, `${url} to load`);
      return /** @type {Page} */ (/** @type {unknown} */ (page));
    },
    newPage: async () => /** @type {Page} */ (/** @type {unknown} */ (await browser.newPage())),
    async close() {
      await browser.close();
      watchdog?.kill();
    },
  };
}

/**
 * Firefox outlives a runner killed with SIGKILL (its remote protocol is a socket; Chromium's pipe
 * closes and Chromium exits): an orphaned browser would go on with the run, and a write it sent
 * after another worker took the run over would be a second one. A small detached shell ends the
 * browser within half a second of this process's end.
 * @param {number | undefined} pid the browser's process
 */
function endsWithMe(pid) {
  if (!pid) return null;
  const w = spawn('sh', ['-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 0.5; done; kill -9 ${pid} 2>/dev/null`], { detached: true, stdio: 'ignore' });
  w.unref();
  return w;
}

/**
 * p, or an error once ms have passed without its answer.
 * @template T @param {Promise<T>} p @param {number} ms @param {string} what @returns {Promise<T>}
 */
function bounded(p, ms, what) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`No answer in ${ms / 1000} s: ${what}.`)), ms); });
  return /** @type {Promise<T>} */ (Promise.race([p, late]).finally(() => clearTimeout(timer)));
}

/**
 * Polls check until it answers true; a hang guard, not a timing.
 * @param {() => Promise<unknown>} check @param {number} ms @param {string} what
 */
export async function waitUntil(check, ms, what) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${ms / 1000} s waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
