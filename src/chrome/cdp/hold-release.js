// What a released hold leaves behind on a tab, let go in order: requests still waiting for a decision
// keep waiting for it (disabling Fetch would let them go unasked), then interception stops
// everywhere; children stay attached until the writes in flight have their answers (or a bound),
// then go. A tab held again meanwhile keeps all of it.
/** @import { HoldHandlers } from '../types/safety' */
/** @import { createDecisions } from './decisions.js' */

/** Children stay attached this long after a release for the answers of writes still in flight. */
export const ANSWER_WAIT_MS = 10_000;
/** How often the release looks again for answers still to come. */
const ANSWER_POLL_MS = 250;

/**
 * @typedef {{ send(tabId: number, method: string, params?: Record<string, unknown>): Promise<any>, unpin(tabId: number): void }} CdpRelease
 * @typedef {{ cdp: CdpRelease, armed: Map<number, HoldHandlers>, decisions: Pick<ReturnType<typeof createDecisions>, 'settled'>,
 *   targets: { stopHolding(tabId: number): Promise<void>, detach(tabId: number): Promise<void> }, answers: { pending(tabId: number): number } }} ReleaseDeps
 */

/** @param {ReleaseDeps} deps */
export function createHoldRelease({ cdp, armed, decisions, targets, answers }) {
  /** @param {number} tabId */
  return async function disarm(tabId) {
    await decisions.settled(tabId);
    if (armed.has(tabId)) { cdp.unpin(tabId); return; }
    await cdp.send(tabId, 'Fetch.disable').catch(() => {});
    await targets.stopHolding(tabId);
    const deadline = Date.now() + ANSWER_WAIT_MS;
    const leave = () => {
      if (armed.has(tabId)) { cdp.unpin(tabId); return; }
      if (answers.pending(tabId) && Date.now() < deadline) { setTimeout(leave, ANSWER_POLL_MS); return; }
      targets.detach(tabId).finally(() => cdp.unpin(tabId));
    };
    leave();
  };
}
