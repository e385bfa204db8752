// A Firefox preference changed while the browser runs, through WebDriver BiDi in the browser's own
// (chrome) scope, which `--remote-allow-system-access` opens to the harness (harness/browsers.js). A
// preference is browser-wide: a test that sets one puts it back (null clears it to the default).

/**
 * @param {any} browser Puppeteer's Firefox browser
 * @param {string} name
 * @param {number | null} value an integer preference's value, or null for the default
 */
export async function setFirefoxIntPref(browser, name, value) {
  const conn = browser.connection;
  const tree = await conn.send('browsingContext.getTree', { 'moz:scope': 'chrome', maxDepth: 0 });
  const context = (tree.result ?? tree).contexts[0]?.context;
  if (!context) throw new Error('Firefox showed the harness no window of its own to set a preference in');
  const code = value === null ? `Services.prefs.clearUserPref(${JSON.stringify(name)})` : `Services.prefs.setIntPref(${JSON.stringify(name)}, ${Math.trunc(value)})`;
  const r = await conn.send('script.evaluate', { expression: `${code}; true`, target: { context }, awaitPromise: false });
  const out = r.result ?? r;
  if (out.type !== 'success') throw new Error(`Firefox refused to set ${name}: ${JSON.stringify(out.exceptionDetails ?? out).slice(0, 300)}`);
}
