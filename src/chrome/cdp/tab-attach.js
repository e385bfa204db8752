// Attaching chrome.debugger to a tab and setting its session up for Tabwright's use.
import { attachFailure } from './cdp-error.js';

export const VERSION = '1.3';

/**
 * What this needs of chrome.debugger (so Node tests can stand in for it).
 * @typedef {{ attach(target: { tabId: number }, version: string): Promise<void>,
 *   sendCommand(target: { tabId: number }, method: string, params?: Record<string, unknown>): Promise<unknown> }} TabDebugger
 */

/**
 * Attaches to the tab and prepares it; the top frame's CDP id when Chrome gives it. Throws a
 * CdpError when the debugger cannot attach.
 * @param {TabDebugger} dbg chrome.debugger @param {number} tabId @returns {Promise<string | null>}
 */
export async function attachTab(dbg, tabId) {
  try {
    await dbg.attach({ tabId }, VERSION);
  } catch (err) {
    throw attachFailure(err);
  }
  /** @param {string} method @param {Record<string, unknown>} [params] */
  const send = (method, params) => dbg.sendCommand({ tabId }, method, params);
  // A hold left by an earlier service worker must not freeze the tab's requests.
  await send('Fetch.disable').catch(() => {});
  await send('Page.enable').catch(() => {});
  // A tab Tabwright acts in stays in the background: it must behave as focused (focus and blur
  // handlers, :focus, document.hasFocus) and never be frozen, without being brought to the front.
  await send('Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => {});
  await send('Page.setWebLifecycleState', { state: 'active' }).catch(() => {});
  const tree = /** @type {any} */ (await send('Page.getFrameTree').catch(() => null));
  return tree?.frameTree?.frame?.id ?? null;
}
