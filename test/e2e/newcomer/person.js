// A person at the keyboard: every action goes through the browser's own input (CDP Input in
// Chromium, WebDriver BiDi input in Firefox; both reach pages as trusted events) and is counted:
// clicks, key presses and typed fields, the figure the README quotes for a first answer.
import { Driver } from '../harness/driver.js';

/** @typedef {import('puppeteer-core').Page} Page */

export class Person {
  /** @param {'chromium' | 'firefox'} kind */
  constructor(kind) {
    this.kind = kind;
    this.clicks = 0;
    this.keys = 0;
    this.typed = 0;
    /** @type {string[]} what the person did, in order (printed with the count) */
    this.did = [];
  }

  get actions() { return this.clicks + this.keys + this.typed; }

  /**
   * A driver over the same page, for looking (never counted). Its waits are hang guards only, long
   * enough for a CI lane where six browsers share two cores (the test's own 90 s is the outer one).
   * @param {Page} page
   */
  look(page) { return new Driver(this.kind, /** @type {any} */ (page), 45_000); }

  /**
   * Click what a selector names, once it shows and stays put (the panel's log scrolls as a run
   * streams in; a person's eye waits for the button to stop moving too).
   * @param {Page} page @param {string} selector @param {string} [what]
   */
  async click(page, selector, what = selector) {
    // The middle of the element as the page itself lays it out, once nothing covers it.
    const at = await this.look(page).waitFor((s) => {
      const el = /** @type {HTMLElement | null} */ (document.querySelector(s));
      if (!el) return null;
      el.scrollIntoView({ block: 'nearest' });
      const r = el.getBoundingClientRect();
      const key = `${r.x},${r.y},${r.width},${r.height}`;
      const w = /** @type {any} */ (window);
      const still = w.__personSaw === key;
      w.__personSaw = key;
      const x = r.x + r.width / 2, y = r.y + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      w.__personWhy = `at ${key}, under the pointer: ${hit ? `${hit.tagName}.${hit.className}` : 'nothing'}`;
      return r.width > 0 && r.height > 0 && still && hit && (hit === el || el.contains(hit) || (el instanceof HTMLInputElement && hit.contains(el))) ? { x, y } : null;
    }, selector, { message: `${what} to show` }).catch(async (err) => {
      throw new Error(`${err.message}; ${await page.evaluate(() => /** @type {any} */ (window).__personWhy).catch(() => '')}`);
    });
    if (!at) throw new Error(`${what} not found`);
    await page.mouse.click(at.x, at.y);
    this.clicks++;
    this.did.push(`click ${what}`);
  }

  /**
   * Type into a field: a click into it unless it already has the focus, a select-all first when
   * it holds something, then the text.
   * @param {Page} page @param {string} selector @param {string} text @param {string} [what]
   */
  async type(page, selector, text, what = selector) {
    const state = await this.look(page).waitFor((s) => {
      const el = /** @type {HTMLInputElement | null} */ (document.querySelector(s));
      return el ? { focused: document.activeElement === el, filled: el.value !== '' } : null;
    }, selector, { message: `${what} to type into` });
    if (!state?.focused) await this.click(page, selector, what);
    if (state?.filled) await this.press(page, 'Control+A');
    await page.keyboard.type(text);
    this.typed++;
    this.did.push(`type "${text}" into ${what}`);
  }

  /** A key (or chord, "Control+A") pressed. @param {Page} page @param {string} key */
  async press(page, key) {
    const parts = key.split('+');
    const last = /** @type {any} */ (parts.pop());
    for (const m of parts) await page.keyboard.down(/** @type {any} */ (m));
    await page.keyboard.press(last);
    for (const m of parts.reverse()) await page.keyboard.up(/** @type {any} */ (m));
    this.keys++;
    this.did.push(`press ${key}`);
  }

  /** Pick an option of a select (one click on the open list). @param {Page} page @param {string} selector @param {string} value */
  async choose(page, selector, value) {
    await page.select(selector, value);
    this.clicks++;
    this.did.push(`choose ${value} in ${selector}`);
  }

  /** Click a tab in the tab strip. @param {Page} page @param {string} what */
  async switchTo(page, what) {
    await page.bringToFront();
    this.clicks++;
    this.did.push(`switch to ${what}`);
  }

  /**
   * Bring a page to the front without counting it: Firefox's sidebar is always in view beside the
   * page, and the tab that stands in for it (BiDi cannot reach the sidebar) is shown for free.
   * @param {Page} page
   */
  async show(page) {
    await page.bringToFront();
  }

  /** Type an address into the address bar and press Enter. @param {Page} page @param {string} url */
  async goTo(page, url) {
    await page.goto(url, { waitUntil: 'load' });
    this.typed++;
    this.keys++;
    this.did.push(`go to ${url}`);
  }

  /** The count so far, in words. */
  summary() {
    return `${this.actions} actions (${this.clicks} clicks, ${this.keys} key presses, ${this.typed} typed fields): ${this.did.join('; ')}`;
  }
}
