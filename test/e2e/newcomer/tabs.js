// Finding the tabs and the panel a person sees, in the browser `npm start` opened.
import { FIREFOX_UUID } from '../harness/browsers.js';

/** @typedef {import('puppeteer-core').Browser} Browser @typedef {import('puppeteer-core').Page} Page */

/** @param {Page} p */
const hrefOf = async (p) => {
  const u = p.url();
  if (u && u !== 'about:blank') return u;
  return p.evaluate(() => location.href).catch(() => '');
};

/**
 * The open tab whose address contains part, waiting for it to appear (a page the extension opened).
 * @param {Browser} browser @param {string} part @param {number} [timeout]
 * @returns {Promise<Page>}
 */
export async function tabAt(browser, part, timeout = 20_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    // A target's address is the one asked for even where the page shows an error instead.
    const target = browser.targets().find((t) => t.type() === 'page' && t.url().includes(part));
    const page = target ? await target.page() : null;
    if (page) return page;
    for (const p of await browser.pages()) if ((await hrefOf(p)).includes(part)) return p;
    if (Date.now() > deadline) throw new Error(`no tab at ${part}; targets: ${browser.targets().map((t) => t.type() + ' ' + t.url()).join(', ')}; open: ${(await Promise.all((await browser.pages()).map(hrefOf))).join(', ')}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/**
 * Chrome's side panel: a page target of its own (not a tab), reached through CDP once it is open.
 * @param {Browser} browser @returns {Promise<Page>}
 */
export async function sidePanel(browser, timeout = 20_000) {
  const target = await browser.waitForTarget((t) => t.url().includes('/ui/panel.html'), { timeout });
  const page = await target.asPage();
  return page;
}

/**
 * Opens an extension page in a new tab of Firefox (goto on moz-extension never resolves over BiDi).
 * @param {Browser} browser @param {string} path
 */
export async function firefoxExtensionTab(browser, path) {
  const page = await browser.newPage();
  const url = `moz-extension://${FIREFOX_UUID}/${path}`;
  page.goto(url).catch(() => {});
  const deadline = Date.now() + 20_000;
  while (!(await page.evaluate((u) => location.href === u && document.readyState === 'complete', url).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${url} did not load`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return page;
}
