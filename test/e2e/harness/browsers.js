// Launches real Chromium (playwright-core) and real Firefox ESR (puppeteer-core over WebDriver
// BiDi) with the extension loaded. Recipes: ../shared/BROWSERS.md.
import { access, mkdtemp, rm } from 'node:fs/promises';
import { constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { Driver } from './driver.js';
import { chromiumLocalModelRules, firefoxLocalModelPrefs, localModels } from './local-models.js';
import { firefoxTabsAndAddon, inFirefoxChrome } from './firefox-chrome.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
/** A hang guard on opening a page: on a machine at a load of 60 to 75 (2 cores shared with other browsers) a panel once took over 20 s. */
const LOAD_GUARD_MS = 60_000;
export const CHROME_EXT = join(root, 'src/chrome');
export const FIREFOX_EXT = join(root, 'src/firefox');
export const GECKO_ID = 'tabwright@tabwright.dev';
export const FIREFOX_UUID = '6f0c1b8e-7d2a-4c55-9a3e-2b1f0d4c9e71';
/**
 * Real sites' host names the browsers resolve to 127.0.0.1, so the fixture site can stand in for
 * them where a test needs a site adapter to match (test/e2e/adapters.e2e.js). Chosen among hosts
 * that neither browser forces to HTTPS (no HSTS preload in Chromium; Firefox's list is turned off).
 */
export const MAPPED_HOSTS = Object.freeze(['gitlab.com', 'trello.com', 'online.chase.com']);

/**
 * An unpacked extension's id, as Chromium derives it from the folder's path: the first 32 hex digits
 * of its SHA-256, written with the letters a–p. @param {string} path
 */
export function unpackedExtensionId(path) {
  return [...createHash('sha256').update(path).digest('hex').slice(0, 32)].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('');
}

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** @param {string} path @param {string} what @param {string} install */
async function requireBinary(path, what, install) {
  try { await access(path, constants.X_OK); } catch {
    throw new Error(`${what} not found at ${path}. Install it (${install}) or point ${what === 'Chromium' ? 'CHROMIUM_PATH' : 'FIREFOX_PATH'} at it. The e2e suite runs in both browsers and skips neither.`);
  }
}

/**
 * @typedef {object} BrowserEnv
 * @property {'chromium' | 'firefox'} kind
 * @property {string} extBase the extension's base URL, ending in /
 * @property {(url: string, opts?: { waitUntil?: 'load' | 'domcontentloaded' }) => Promise<Driver>} openPage a web page in a new tab (by default once it has loaded)
 * @property {(path: string) => Promise<Driver>} openExtensionPage an extension page in a new tab
 * @property {() => Promise<void>} close
 * @property {any} raw the library's browser or context
 */

/**
 * @param {{ args?: string[], env?: Record<string, string | undefined>, locale?: string, hostRules?: string[], headed?: boolean, throttled?: boolean }} [extra] more flags and
 *   environment; locale sets the browser's UI language (Playwright passes it as --lang); hostRules: more
 *   host-resolver rules ("MAP host 127.0.0.1:port"); headed: a real window on env.DISPLAY (harness/headed.js)
 * @returns {Promise<BrowserEnv>}
 */
export async function launchChromium(extra = {}) {
  await requireBinary(CHROMIUM_PATH, 'Chromium', 'apt-get install -y chromium');
  const { chromium } = await import('playwright-core');
  const userDir = await mkdtemp(join(tmpdir(), 'tw-chr-'));
  // The first run's probes of local model servers reach this process's stand-ins (harness/local-models.js).
  const local = chromiumLocalModelRules(await localModels());
  const ctx = await chromium.launchPersistentContext(userDir, {
    executablePath: CHROMIUM_PATH,
    headless: !extra.headed,
    args: [...(extra.headed ? [] : ['--headless=new']), `--disable-extensions-except=${CHROME_EXT}`, `--load-extension=${CHROME_EXT}`,
      '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic',
      `--host-resolver-rules=${[...MAPPED_HOSTS.map((h) => `MAP ${h} 127.0.0.1`), ...local, ...(extra.hostRules ?? [])].join(',')}`, ...(extra.args ?? [])],
    ...(extra.env ? { env: extra.env } : {}),
    ...(extra.locale ? { locale: extra.locale } : {}),
    // throttled: Chromium's own background-tab throttling, which Playwright turns off by default (bench/runs-at-once.mjs).
    ...(extra.throttled ? { ignoreDefaultArgs: ['--disable-background-timer-throttling', '--disable-backgrounding-occluded-windows', '--disable-renderer-backgrounding'] } : {}),
  });
  let [sw] = ctx.serviceWorkers();
  sw ??= await ctx.waitForEvent('serviceworker', { timeout: LOAD_GUARD_MS }).catch(async (err) => {
    // A launch that failed leaves no browser behind (the next suite of this process launches anew).
    await ctx.close().catch(() => {});
    await rm(userDir, { recursive: true, force: true }).catch(() => {});
    throw err;
  });
  const extBase = `chrome-extension://${new URL(sw.url()).host}/`;
  // The initial about:blank tab stays, so the window never closes between scenarios.
  return {
    kind: 'chromium',
    extBase,
    raw: ctx,
    async openPage(url, opts = {}) {
      const page = await ctx.newPage();
      await page.goto(url, { waitUntil: opts.waitUntil ?? 'load', timeout: LOAD_GUARD_MS });
      return new Driver('chromium', /** @type {any} */ (page), undefined, { front: true });
    },
    async openExtensionPage(path) {
      const page = await ctx.newPage();
      await page.goto(extBase + path, { waitUntil: 'load', timeout: LOAD_GUARD_MS });
      return new Driver('chromium', /** @type {any} */ (page), undefined, { front: true });
    },
    async close() {
      await ctx.close().catch(() => {});
      await rm(userDir, { recursive: true, force: true }).catch(() => {});
    },
  };
}

/**
 * @param {{ prefs?: Record<string, unknown>, acceptInsecureCerts?: boolean, executablePath?: string }} [extra] more preferences (the system's dark theme, say);
 *   acceptInsecureCerts: accept any certificate (a test's own TLS server); executablePath: another copy of
 *   Firefox (a private install with its own distribution/policies.json, test/e2e/managed/)
 * @returns {Promise<BrowserEnv>}
 */
export async function launchFirefox(extra = {}) {
  const executablePath = extra.executablePath ?? FIREFOX_PATH;
  await requireBinary(executablePath, 'Firefox', 'apt-get install -y firefox-esr');
  const puppeteer = (await import('puppeteer-core')).default;
  const local = firefoxLocalModelPrefs(await localModels());
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: true,
    args: ['--remote-allow-system-access'],
    ...(extra.acceptInsecureCerts ? { acceptInsecureCerts: true } : {}),
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: FIREFOX_UUID }),
      // Keep the closed network quiet and the profile deterministic.
      'app.update.enabled': false,
      'browser.shell.checkDefaultBrowser': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      'toolkit.telemetry.enabled': false,
      // MAPPED_HOSTS resolve to this machine, over plain HTTP.
      'network.dns.localDomains': MAPPED_HOSTS.join(','),
      'dom.security.https_first': false,
      'network.stricttransportsecurity.preloadlist': false,
      // The first run's probes of local model servers reach this process's stand-ins (harness/local-models.js).
      ...local,
      ...(extra.prefs ?? {}),
    },
  });
  const extBase = `moz-extension://${FIREFOX_UUID}/`;
  try {
    await browser.installExtension(FIREFOX_EXT);
    await closeWelcomeTab(browser, `${extBase}ui/welcome.html`);
  } catch (err) {
    // A launch that failed leaves no browser behind (the next suite of this process launches anew).
    await browser.close().catch(() => {});
    throw err;
  }
  return {
    kind: 'firefox',
    extBase,
    raw: browser,
    async openPage(url, opts = {}) {
      const page = await newFirefoxPage(browser);
      await page.goto(url, { waitUntil: opts.waitUntil ?? 'load', timeout: LOAD_GUARD_MS });
      return new Driver('firefox', /** @type {any} */ (page), undefined, { front: true });
    },
    async openExtensionPage(path) {
      const page = await newFirefoxPage(browser);
      const url = extBase + path;
      // goto() on a moz-extension URL never resolves under BiDi: start it and poll instead.
      page.goto(url).catch(() => {});
      const d = new Driver('firefox', /** @type {any} */ (page), undefined, { front: true });
      await d.waitFor((u) => location.href === u && document.readyState === 'complete', url, { timeout: LOAD_GUARD_MS, message: `${url} to load` });
      return d;
    },
    async close() {
      await browser.close().catch(() => {});
    },
  };
}

/**
 * The add-on opens its welcome tab when it is installed (platform/welcome-tab.js); the suites start
 * from a browser without it, as they did before, so it is closed once it has opened. Firefox's own tab
 * list is read (its chrome scope, harness/firefox-chrome.js): Puppeteer's list once never showed a tab
 * Firefox had opened. Its absence fails the launch, saying what Firefox shows.
 * @param {import('puppeteer-core').Browser} browser @param {string} url
 */
async function closeWelcomeTab(browser, url) {
  // The same guard as a page's load: at the start of `npm test` four browsers launch beside the checks.
  const until = Date.now() + LOAD_GUARD_MS;
  while (Date.now() < until) {
    const closed = await inFirefoxChrome(browser, `(() => {
      for (const w of Services.wm.getEnumerator('navigator:browser')) {
        const tab = w.gBrowser.tabs.find((t) => t.linkedBrowser.currentURI.spec === ${JSON.stringify(url)});
        if (tab) { w.gBrowser.removeTab(tab); return true; }
      }
      return false;
    })()`);
    if (closed) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Firefox did not open ${url} within ${LOAD_GUARD_MS / 1000} s of installing Tabwright (Firefox shows ${await firefoxTabsAndAddon(browser, GECKO_ID)})`);
}

/** @param {'chromium' | 'firefox'} kind */
export function launch(kind) {
  return kind === 'chromium' ? launchChromium() : launchFirefox();
}

/**
 * A new tab under WebDriver BiDi. Firefox now and then discards the browsing context it is
 * creating when several tabs open at once on a loaded machine ("BrowsingContext does no longer
 * exist" from browsingContext.create): the harness asks again, twice at most. Nothing the
 * extension does is retried here; only the test's own tab creation.
 * @param {import('puppeteer-core').Browser} browser
 */
async function newFirefoxPage(browser) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await browser.newPage();
    } catch (err) {
      if (attempt >= 3 || !/DiscardedBrowsingContextError|no such frame/.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 250 * attempt));
    }
  }
}
