// Playwright's snapshot timed inside the page: its injected script as playwright-core ships it,
// created in an isolated world of the page as Playwright does, called over CDP without Playwright's
// round trip. Used by bench/snapshot.mjs (the in-page comparison) and bench/playwright-warmth.mjs.
import { readFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Playwright's injected script (a string literal in playwright-core's bundle). Null when this
 * playwright-core lays its bundle out differently (the in-page comparison is then left out).
 * @returns {Promise<string | null>}
 */
export async function playwrightInjectedSource() {
  try {
    const bundle = await readFile(join(root, 'node_modules/playwright-core/lib/coreBundle.js'), 'utf8');
    const at = bundle.indexOf('src/generated/injectedScriptSource.ts"() {');
    const open = at < 0 ? -1 : bundle.indexOf(" = '", at);
    if (open < 0 || open - at > 200) return null;
    let i = open + 4;
    for (; i < bundle.length && bundle[i] !== "'"; i++) if (bundle[i] === '\\') i++;
    // A single-quoted JavaScript string literal: evaluated as one, nothing else.
    return /** @type {string} */ (new Function(`return ${bundle.slice(open + 3, i + 1)};`)());
  } catch { return null; }
}

/**
 * Creates Playwright's InjectedScript in a new isolated world of the page's main frame and returns
 * a function that times one ai-mode snapshot of the body inside the page (from a collected heap
 * unless `gc` is false; the browser must run with --js-flags=--expose-gc). Null if it cannot be made.
 * @param {import('playwright-core').Page} page @param {string} source @param {{ gc?: boolean, world?: string }} [opts]
 * @returns {Promise<(() => Promise<{ ms: number, length: number }>) | null>}
 */
export async function playwrightInPage(page, source, { gc = true, world = 'playwright-injected' } = {}) {
  const cdp = await page.context().newCDPSession(page);
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const { executionContextId } = await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: world });
  const options = { isUnderTest: false, sdkLanguage: 'javascript', frameSeq: 0, testIdAttributeName: 'data-testid', stableRafCount: 1,
    browserName: 'chromium', shouldPrependErrorPrefix: true, isUtilityWorld: true, customEngines: [] };
  const made = await cdp.send('Runtime.evaluate', { contextId: executionContextId, returnByValue: true,
    expression: `(() => { const module = {}; ${source}\n globalThis.__pwInjected = new (module.exports.InjectedScript())(globalThis, ${JSON.stringify(options)}); return true; })()` });
  if (made.exceptionDetails) return null;
  return async () => {
    const r = await cdp.send('Runtime.evaluate', { contextId: executionContextId, returnByValue: true,
      expression: `(() => { ${gc ? 'gc();' : ''} const t0 = performance.now(); const text = globalThis.__pwInjected.ariaSnapshot(document.body, { mode: "ai" }); return { ms: performance.now() - t0, length: text.length }; })()` });
    if (r.exceptionDetails) throw new Error(r.exceptionDetails.text);
    return r.result.value;
  };
}
