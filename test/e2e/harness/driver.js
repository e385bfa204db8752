// One small page-driving interface over Playwright (Chromium) and Puppeteer (Firefox, WebDriver
// BiDi), so each scenario is written once and runs in both browsers.
import { setFirefoxIntPref } from './firefox-chrome.js';

/**
 * @typedef {object} RawPage the subset both libraries share
 * @property {(fn: any, ...args: any[]) => Promise<any>} evaluate
 * @property {(url: string, opts?: any) => Promise<any>} goto
 * @property {(opts?: any) => Promise<any>} reload
 * @property {() => Promise<void>} close
 * @property {() => Promise<void>} bringToFront
 * @property {(sel: string, opts?: any) => Promise<void>} click
 * @property {() => string} url
 */

/**
 * The page last brought to the front in each browser (its context in Chromium, the browser in
 * Firefox). A browser paints only the tab in front: input sent to a tab behind waits for frames it
 * is not given (a click took 1 to 5 s there, against about 100 ms in front), so trusted input first
 * brings its page to the front, as a person looks at the tab they click in.
 * @type {WeakMap<object, RawPage>}
 */
const FRONT = new WeakMap();
/** The longest one in-page wait lasts before it answers Node, which checks its deadline and asks again. */
const WATCH_CHUNK_MS = 2_000;
let frontFollowsInput = true;

/**
 * While a scenario counts the tab activations a run causes (the person's tab must never change),
 * input leaves the tabs where they are. @param {boolean} on
 */
export function setFrontFollowsInput(on) { frontFollowsInput = on; }

/**
 * Runs fn in the page until it returns something truthy or chunkMs pass: again after each change to
 * the page's DOM and every `every` ms. The page's side is sent as source (an expression, evaluated
 * through the debugging protocol, so no page's script policy applies). A page that goes away
 * mid-wait (a navigation) answers with an error or not at all: Node stops waiting for it a little
 * after the chunk and asks the next document.
 * @param {RawPage} page @param {Function} fn @param {unknown} arg @param {number} chunkMs @param {number} every
 */
async function watchInPage(page, fn, arg, chunkMs, every) {
  const expr = `(${pageWatch})(${fn}, ${arg === undefined ? 'undefined' : JSON.stringify(arg)}, ${chunkMs}, ${every})`;
  const answer = page.evaluate(expr);
  answer.catch(() => {});
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const gone = new Promise((resolve) => { timer = setTimeout(() => resolve(undefined), chunkMs + 3_000); });
  try {
    return await Promise.race([answer, gone]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The page's side of watchInPage (it closes over nothing: it is sent as source).
 * @param {(arg: any) => unknown} check @param {unknown} arg @param {number} chunkMs @param {number} every
 */
async function pageWatch(check, arg, chunkMs, every) {
  const end = Date.now() + chunkMs;
  let changed = false;
  let wake = () => {};
  const observer = new MutationObserver(() => { changed = true; wake(); });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  try {
    for (;;) {
      changed = false;
      const value = await check(arg);
      if (value || Date.now() >= end) return value;
      if (changed) continue;
      await new Promise((resolve) => {
        const done = () => { clearTimeout(timer); wake = () => {}; resolve(undefined); };
        const timer = setTimeout(done, Math.max(0, Math.min(every, end - Date.now())));
        wake = done;
      });
    }
  } finally {
    observer.disconnect();
  }
}

export class Driver {
  /**
   * @param {'chromium' | 'firefox'} kind
   * @param {RawPage} page
   * @param {number} [waitLimit] waitFor's hang guard when a call names none (15 s)
   * @param {{ front?: boolean }} [opts] front: a tab the harness opened, which trusted input brings
   *   to the front first (pages the product or a story's person opened keep their place)
   */
  constructor(kind, page, waitLimit = 15_000, opts = {}) {
    this.kind = kind;
    this.page = page;
    this.waitLimit = waitLimit;
    this.front = opts.front ?? false;
    /** waitFor polls from Node: for a page whose conditions are not in its DOM (the control page). */
    this.pollFromNode = false;
  }

  /** Bring the page to the front before trusted input, unless it is there already. */
  async toFront() {
    if (!this.front || !frontFollowsInput) return;
    const raw = /** @type {any} */ (this.page);
    const owner = this.kind === 'chromium' ? raw.context() : raw.browser();
    if (FRONT.get(owner) === this.page) return;
    // Bringing a tab forward only spares the wait for frames; it must not fail the input. Firefox
    // answers "BrowsingContext does no longer exist" while a tab is between its documents (a
    // navigation's process switch): asked once more, then the input goes to the tab where it is.
    for (let attempt = 1; attempt <= 2; attempt++) {
      try {
        await this.page.bringToFront();
        FRONT.set(owner, this.page);
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  /**
   * Run fn in the page with one serialisable argument.
   * @template A, R
   * @param {(arg: A) => R | Promise<R>} fn @param {A} [arg]
   * @returns {Promise<Awaited<R>>}
   */
  evaluate(fn, arg) {
    return this.page.evaluate(fn, arg);
  }

  /**
   * Wait until fn, run in the page, returns a truthy value; returns that value.
   * A plain function is watched in the page itself (watchInPage, above): run again at each change
   * to the page's DOM and every `interval` ms, with one round trip to the page per two seconds
   * instead of one per interval (with four browsers on two cores, polling from Node cost about
   * 5 ms of the browser's CPU per call). An async function, or any on a driver whose conditions
   * live outside its DOM (the control page's messages), is polled from Node, which survives
   * navigations the same in both libraries.
   * @template A, R
   * @param {(arg: A) => R | Promise<R>} fn @param {A} [arg]
   * @param {{ timeout?: number, interval?: number, message?: string }} [opts]
   * @returns {Promise<Awaited<R>>}
   */
  async waitFor(fn, arg, opts = {}) {
    const timeout = opts.timeout ?? this.waitLimit;
    const every = opts.interval ?? 100;
    const deadline = Date.now() + timeout;
    const inPage = !this.pollFromNode && fn.constructor.name !== 'AsyncFunction';
    let last;
    while (true) {
      const started = Date.now();
      try {
        last = inPage
          ? await watchInPage(this.page, fn, arg, Math.min(WATCH_CHUNK_MS, Math.max(0, deadline - Date.now())), every)
          : await this.page.evaluate(fn, arg);
        if (last) return last;
      } catch (err) {
        last = err;
      }
      if (Date.now() > deadline) {
        throw new Error(`[${this.kind}] timed out after ${timeout} ms waiting for ${opts.message ?? fn.toString().slice(0, 120)} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
      }
      // An answer that came back at once (an error, a page between documents) is asked again after the interval.
      const waited = Date.now() - started;
      if (waited < every) await new Promise((r) => setTimeout(r, every - waited));
    }
  }

  /**
   * Reload the page and return once the new document has loaded. A reload started from the page
   * (`location.reload()`) returns before the old document is gone, so a wait after it can be
   * answered by the old document.
   */
  async reload() {
    await this.page.reload();
  }

  /**
   * Go to url (another address than the tab's) and return once its page has loaded. Firefox's
   * goto over WebDriver BiDi sometimes never ends although the page has loaded (seen after a
   * page with frames): it is started there, and the new page is waited for in the tab.
   * @param {string} url
   */
  async goto(url) {
    if (this.kind === 'chromium') { await this.page.goto(url, { waitUntil: 'load', timeout: 60_000 }); return; }
    this.page.goto(url).catch(() => {});
    await this.waitFor((u) => location.href === u && document.readyState === 'complete', url, { timeout: 60_000, message: `${url} to load` });
  }

  /** @param {string} selector */
  async text(selector) {
    return this.evaluate((sel) => document.querySelector(sel)?.textContent ?? null, selector);
  }

  /** @param {string} selector */
  async click(selector) {
    await this.toFront();
    await this.page.click(selector);
  }

  /**
   * Set a field's value the way a user's typing would end up (input event included).
   * @param {string} selector @param {string} value
   */
  async fill(selector, value) {
    await this.evaluate(({ selector, value }) => {
      const el = /** @type {HTMLInputElement | HTMLTextAreaElement} */ (document.querySelector(selector));
      if (!el) throw new Error(`no element ${selector}`);
      el.focus();
      el.value = value;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, { selector, value });
  }

  url() { return this.page.url(); }

  /** A trusted key press in the focused element (Playwright and Puppeteer share the call). @param {string} key */
  async press(key) {
    await this.toFront();
    await /** @type {any} */ (this.page).keyboard.press(key);
  }

  /** A trusted click at viewport coordinates: reaches elements no selector can (closed shadow roots). @param {number} x @param {number} y */
  async clickAt(x, y) {
    await this.toFront();
    await /** @type {any} */ (this.page).mouse.click(x, y);
  }

  /** @param {string} path a PNG file */
  async screenshot(path) {
    await /** @type {any} */ (this.page).screenshot({ path });
  }

  /**
   * Emulate the system's light or dark preference for prefers-color-scheme; null: the system's
   * again. Chromium emulates it in this page; WebDriver BiDi cannot, so in Firefox it is the
   * browser's content preference, for every page of the browser until it is set back to null.
   * @param {'light' | 'dark' | null} scheme
   */
  async colorScheme(scheme) {
    const page = /** @type {any} */ (this.page);
    if (this.kind === 'chromium') { await page.emulateMedia({ colorScheme: scheme }); return; }
    // 0 dark, 1 light (layout.css.prefers-color-scheme.content-override); it reaches the page a moment later.
    await setFirefoxIntPref(page.browser(), 'layout.css.prefers-color-scheme.content-override', scheme === null ? null : scheme === 'dark' ? 0 : 1);
    if (scheme) await this.waitFor((dark) => matchMedia('(prefers-color-scheme: dark)').matches === dark, scheme === 'dark', { message: `the ${scheme} scheme` });
  }

  /** @param {number} width @param {number} height */
  async viewport(width, height) {
    const page = /** @type {any} */ (this.page);
    if (this.kind === 'chromium') await page.setViewportSize({ width, height });
    else await page.setViewport({ width, height });
  }

  async close() {
    await this.page.close().catch(() => {});
  }
}
