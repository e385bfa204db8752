// runtime.onConnect: a panel's port (panel:<tabId>) follows that tab's session and the runs
// overview; the on-page indicator's port is only its lifeline.
/** @import { PanelEvent } from '../../types/messages' */
/** @import { Session } from '../session.js' */
import { fromExtensionPage } from './messages.js';

/**
 * @typedef {object} PanelDeps
 * @property {(tabId: number) => Promise<Session>} session
 * @property {ReturnType<typeof import('../runs-overview.js').createRunsOverview>} overview
 * @property {{ view(tabId: number): unknown }} spend
 */

/** @param {PanelDeps} ctx @param {any} port */
export function connectPort(ctx, port) {
  // The on-page indicator's lifeline (content/indicator.js): held open while it shows; nothing to say on it.
  if (port.name === 'indicator' && port.sender?.id === browser.runtime.id && typeof port.sender?.tab?.id === 'number') {
    port.onMessage.addListener(() => {});
    return;
  }
  const m = /^panel:(\d+)$/.exec(port.name ?? '');
  if (!m || !fromExtensionPage(port.sender ?? {})) { port.disconnect(); return; }
  attachPanel(ctx, port, Number(m[1]));
}

/**
 * A panel's port: the runs overview now and on each change, then the tab's transcript, usage and
 * the run's cost, and every event of the session until the port closes.
 * @param {PanelDeps} ctx @param {any} port @param {number} tabId
 */
export function attachPanel({ session, overview, spend }, port, tabId) {
  let open = true;
  /** @type {((e: PanelEvent) => void) | null} */
  let listener = null;
  /** @type {Session | null} */
  let attached = null;
  // Every panel shows the runs overview: all runs, whichever tab the panel follows.
  const unsubscribe = overview.subscribe((rows) => port.postMessage({ type: 'runs', ...rows }));
  void overview.list().then((rows) => { if (open) port.postMessage({ type: 'runs', ...rows }); });
  port.onDisconnect.addListener(() => { open = false; unsubscribe(); if (attached && listener) attached.listeners.delete(listener); });
  // The panel's keepalive messages need no answer: receiving them keeps Chrome's worker awake (panel.js).
  port.onMessage.addListener(() => {});
  session(tabId).then((s) => {
    if (!open) return;
    attached = s;
    listener = (e) => port.postMessage(e);
    s.listeners.add(listener);
    port.postMessage({ type: 'state', items: s.items, running: s.running });
    port.postMessage({ type: 'usage', usage: s.usage });
    const cost = spend.view(s.tabId);
    if (cost) port.postMessage({ type: 'runCost', cost });
  });
}
