// Chrome's request hold (docs/SECURITY.md): while the safety guard arms it on a tab, every request
// the tab's page starts is paused by CDP Fetch at the request stage; the ones the policy wants wait
// for its decision, the rest continue at once. A paused request is never left behind: release()
// disables interception, a detached debugger lets everything go, and a failing decision fails it.
// Not covered: requests of service workers and of out-of-process (cross-site) frames, WebSockets.
/** @import { EffectHold, HoldHandlers } from '../types/safety' */
/** @import { createCdpSessions } from './session.js' */
import { heldRequest } from './held-request.js';

/**
 * @param {ReturnType<typeof createCdpSessions>} cdp
 */
export function createNetHold(cdp) {
  /** Armed tabs and their handlers. @type {Map<number, HoldHandlers>} */
  const armed = new Map();
  /** Writes let go, by their Network request id, until their answer: how each ended goes to its handlers. @type {Map<string, { req: import('../types/safety').HeldRequest, handlers: HoldHandlers }>} */
  const writes = new Map();

  cdp.onEvent((tabId, method, params) => {
    if (method === 'Network.responseReceived' || method === 'Network.loadingFailed') {
      const w = writes.get(params.requestId);
      if (!w) return;
      // A redirect's final answer comes as responseReceived too; the first answer is the server's word on the write.
      writes.delete(params.requestId);
      w.handlers.settled?.(w.req, method === 'Network.responseReceived' ? { status: params.response?.status } : { error: params.canceled ? 'cancelled' : String(params.errorText ?? 'failed') });
      return;
    }
    if (method !== 'Fetch.requestPaused') return;
    const handlers = armed.get(tabId);
    const id = /** @type {string} */ (params.requestId);
    // Interception outlived its hold (released a moment ago): let it go.
    if (!handlers) { cdp.send(tabId, 'Fetch.continueRequest', { requestId: id }).catch(() => {}); return; }
    const req = heldRequest(params, cdp.mainFrameId(tabId));
    let wanted = false;
    try { wanted = handlers.wants(req); } catch { wanted = true; }
    if (!wanted) { cdp.send(tabId, 'Fetch.continueRequest', { requestId: id }).catch(() => {}); return; }
    // A declined navigation is aborted (the tab stays on its page); BlockedByClient would leave it on
    // an error page. Other requests fail as blocked, which the page sees as a network error.
    const refusal = req.topLevel ? 'Aborted' : 'BlockedByClient';
    handlers.decide(req).catch(() => false).then((allowed) => {
      if (allowed && req.method !== 'GET' && req.method !== 'HEAD' && params.networkId) {
        writes.set(params.networkId, { req, handlers });
        if (writes.size > 500) writes.delete(/** @type {string} */ (writes.keys().next().value));
      }
      return cdp.send(tabId,
        allowed ? 'Fetch.continueRequest' : 'Fetch.failRequest',
        allowed ? { requestId: id } : { requestId: id, errorReason: refusal });
    }).catch(() => {});
  });
  cdp.onDetach((tabId) => { armed.delete(tabId); });

  return {
    /**
     * @param {number} tabId @param {HoldHandlers} handlers
     * @returns {Promise<EffectHold | null>} null when the debugger cannot attach (DevTools open)
     */
    async hold(tabId, handlers) {
      try {
        await cdp.pin(tabId);
        armed.set(tabId, handlers);
        // The Network domain tells how a write let go ended (its status); it stays on while attached.
        await cdp.send(tabId, 'Network.enable', { maxTotalBufferSize: 20_000_000, maxResourceBufferSize: 5_000_000 });
        await cdp.send(tabId, 'Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
      } catch {
        armed.delete(tabId);
        cdp.unpin(tabId);
        return null;
      }
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          if (armed.get(tabId) === handlers) armed.delete(tabId);
          await cdp.send(tabId, 'Fetch.disable').catch(() => {});
          cdp.unpin(tabId);
        },
      };
    },
  };
}
