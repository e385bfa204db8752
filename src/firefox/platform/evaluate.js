// execute_js in Firefox: the source (agent/js-eval.js) runs through the page's own eval, reached
// from a content script through Xray vision (window.wrappedJSObject), so the code sees the page's
// world. The page's CSP applies: without 'unsafe-eval' it refuses, and the tool says so. The answer
// comes back as a string in a one-off DOM event (a string crosses the worlds as it is).
/** @import { EvalOutcome } from '../agent/js-eval.js' */

/**
 * @param {number} tabId @param {string} source @param {number} timeoutMs
 * @returns {Promise<EvalOutcome>}
 */
export async function evaluate(tabId, source, timeoutMs) {
  const event = `tabwright-eval-${crypto.randomUUID()}`;
  const code = `new Promise((resolve) => {
    const event = ${JSON.stringify(event)};
    const timer = setTimeout(() => resolve(JSON.stringify({ $timeout: true })), ${Number(timeoutMs)});
    document.addEventListener(event, (e) => { clearTimeout(timer); resolve(String(e.detail)); }, { once: true });
    try {
      window.wrappedJSObject.eval(${JSON.stringify(`(${source}).then((s) => document.dispatchEvent(new CustomEvent(${JSON.stringify(event)}, { detail: s })))`)});
    } catch (e) {
      clearTimeout(timer);
      const text = String(e);
      const name = /^(\\w*Error)\\b/.exec(text)?.[1] ?? 'Error';
      resolve(JSON.stringify({ $notRun: { name, message: text.replace(/^\\w*Error:\\s*/, '') } }));
    }
  })`;
  const [raw] = await browser.tabs.executeScript(tabId, { code, frameId: 0 });
  const text = String(raw ?? '');
  if (text.startsWith('{"$timeout"')) return { timeout: true };
  if (text.startsWith('{"$notRun"')) {
    const e = JSON.parse(text).$notRun;
    if (e.name === 'SyntaxError') return { compileError: e };
    return { blocked: e.message };
  }
  return { reply: text };
}
