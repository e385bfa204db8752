// Script in Firefox's own (chrome) scope, through WebDriver BiDi, which `--remote-allow-system-access`
// opens to the harness (harness/browsers.js): a preference changed while the browser runs, and what
// the browser itself shows when a launch goes wrong. A preference is browser-wide: a test that sets
// one puts it back (null clears it to the default).

/**
 * Evaluate an expression in the browser window's chrome scope; its value, serialized by BiDi.
 * @param {any} browser Puppeteer's Firefox browser @param {string} expression
 * @returns {Promise<any>}
 */
export async function inFirefoxChrome(browser, expression) {
  const conn = browser.connection;
  const tree = await conn.send('browsingContext.getTree', { 'moz:scope': 'chrome', maxDepth: 0 });
  const context = (tree.result ?? tree).contexts[0]?.context;
  if (!context) throw new Error('Firefox showed the harness no window of its own');
  const r = await conn.send('script.evaluate', { expression, target: { context }, awaitPromise: true });
  const out = r.result ?? r;
  if (out.type !== 'success') throw new Error(`Firefox's chrome scope threw: ${JSON.stringify(out.exceptionDetails ?? out).slice(0, 300)}`);
  return out.result?.value;
}

/**
 * @param {any} browser Puppeteer's Firefox browser
 * @param {string} name
 * @param {number | null} value an integer preference's value, or null for the default
 */
export async function setFirefoxIntPref(browser, name, value) {
  const code = value === null ? `Services.prefs.clearUserPref(${JSON.stringify(name)})` : `Services.prefs.setIntPref(${JSON.stringify(name)}, ${Math.trunc(value)})`;
  await inFirefoxChrome(browser, `${code}; true`);
}

/**
 * The browser's own list of tabs and the add-on's state, for a launch whose welcome tab never came.
 * @param {any} browser @param {string} addonId
 */
export function firefoxTabsAndAddon(browser, addonId) {
  return inFirefoxChrome(browser, `(async () => {
    const tabs = [...Services.wm.getEnumerator('navigator:browser')].flatMap((w) => w.gBrowser.tabs.map((t) => t.linkedBrowser.currentURI.spec));
    const a = await AddonManager.getAddonByID(${JSON.stringify(addonId)});
    return JSON.stringify({ tabs, addon: a ? { active: a.isActive, temporary: a.temporarilyInstalled, version: a.version } : null });
  })()`).catch((err) => `unreadable: ${err.message}`);
}
