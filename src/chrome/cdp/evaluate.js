// execute_js in Chrome: CDP Runtime.evaluate in the top frame's main world, which the page's CSP
// does not block. Without the debugger (DevTools holds it) the page's own eval through
// scripting.executeScript, which a strict CSP refuses. The source is agent/js-eval.js's.
/** @import { EvalOutcome } from '../agent/js-eval.js' */

/** @param {ReturnType<typeof import('./session.js').createCdpSessions>} cdp */
export function createEvaluate(cdp) {
  /** @param {number} tabId @param {string} source @param {number} timeoutMs @returns {Promise<EvalOutcome>} */
  return async function evaluate(tabId, source, timeoutMs) {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const timeout = new Promise((resolve) => { timer = setTimeout(() => resolve({ timeout: true }), timeoutMs); });
    try {
      return /** @type {EvalOutcome} */ (await Promise.race([viaCdp(tabId, source).catch((err) => {
        if (err?.code !== 'DEBUGGER_UNAVAILABLE') throw err;
        return viaPage(tabId, source);
      }), timeout]));
    } finally {
      clearTimeout(timer);
    }
  };

  /** @param {number} tabId @param {string} source @returns {Promise<EvalOutcome>} */
  async function viaCdp(tabId, source) {
    const r = await cdp.send(tabId, 'Runtime.evaluate', { expression: source, awaitPromise: true, returnByValue: true, allowUnsafeEvalBlockedByCSP: true });
    // The wrapper catches what the code throws, so an exception here means the source never compiled.
    if (r?.exceptionDetails) {
      const ex = r.exceptionDetails.exception;
      return { compileError: { name: ex?.className ?? 'SyntaxError', message: String(ex?.description ?? r.exceptionDetails.text ?? '').split('\n')[0] } };
    }
    return { reply: String(r?.result?.value ?? '') };
  }

  /** @param {number} tabId @param {string} source @returns {Promise<EvalOutcome>} */
  async function viaPage(tabId, source) {
    const [res] = await chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] },
      world: 'MAIN',
      args: [source],
      func: (/** @type {string} */ src) => {
        try { return (0, eval)(src); } catch (e) {
          const err = /** @type {Error} */ (e);
          return JSON.stringify({ $notRun: { name: err?.name ?? 'Error', message: err?.message ?? String(e) } });
        }
      },
    });
    const text = String(res?.result ?? '');
    if (text.startsWith('{"$notRun"')) {
      const e = JSON.parse(text).$notRun;
      return e.name === 'SyntaxError' ? { compileError: e } : { blocked: e.message };
    }
    return { reply: text };
  }
}
