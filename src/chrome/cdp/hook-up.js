// Installing cdp/worker-hook.js in one worker through a CDP binding (Runtime.addBinding, whose
// global the hook removes at once), and calling the control function it returns, reachable only
// from this debugger session.
/** @import { HeldRequest } from '../types/safety' */
import { workerHook } from './worker-hook.js';

/**
 * @typedef {{ sendTo(tabId: number, sessionId: string | undefined, method: string, params?: Record<string, unknown>): Promise<any> }} CdpSend
 * @typedef {{ tabId: number, name: string, objectId: string, url: string, source: NonNullable<HeldRequest['source']> }} Hook
 */

/**
 * The hook in the worker, or null when it could not be installed (the worker is gone).
 * @param {CdpSend} cdp @param {number} tabId @param {string} sessionId @param {{ url: string, type: string }} worker
 * @returns {Promise<Hook | null>}
 */
export async function hookUp(cdp, tabId, sessionId, worker) {
  const name = `__tw${Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => b.toString(16).padStart(2, '0')).join('')}`;
  /** @param {string} method @param {Record<string, unknown>} [params] */
  const send = (method, params) => cdp.sendTo(tabId, sessionId, method, params);
  try {
    // bindingCalled is told only with Runtime on.
    await send('Runtime.enable');
    await send('Runtime.addBinding', { name });
    const r = await send('Runtime.evaluate', { expression: `(${workerHook.toString()})(${JSON.stringify(name)}, true)`, silent: true });
    const objectId = r?.result?.objectId;
    if (r?.exceptionDetails || r?.result?.type !== 'function' || typeof objectId !== 'string') return null;
    return { tabId, name, objectId, url: worker.url, source: worker.type === 'service_worker' ? 'service_worker' : 'worker' };
  } catch { return null; /* the worker is gone */ }
}

/** Calls the hook's control: ('held', bool), ('answer', id, allow), ('late'). @param {CdpSend} cdp @param {number} tabId @param {string} sessionId @param {string} objectId @param {unknown[]} args */
export function controlHook(cdp, tabId, sessionId, objectId, args) {
  return cdp.sendTo(tabId, sessionId, 'Runtime.callFunctionOn', {
    objectId, functionDeclaration: 'function (op, a, b) { this(op, a, b); }', arguments: args.map((value) => ({ value })), silent: true,
  }).catch(() => {});
}
