// Targets attached by id on behalf of a tab (a shared worker, which the tab's session cannot
// auto-attach): their events reach the listeners as the tab's, under the session id `target:<id>`,
// and their detach as Target.detachedFromTarget.
import { VERSION } from './tab-attach.js';

/** The session id prefix of a target attached by id (attachTarget). */
export const TARGET = 'target:';

/** @typedef {(tabId: number, method: string, params: any, sessionId?: string) => void} Tell */
/**
 * What this needs of chrome.debugger (so Node tests can stand in for it).
 * @typedef {{ attach(target: { targetId: string }, version: string): Promise<void>, detach(target: { targetId: string }): Promise<void> }} TargetDebugger
 */

/** @param {TargetDebugger} dbg chrome.debugger @param {Tell} tell hands an event to every listener */
export function createTargetSessions(dbg, tell) {
  /** The tab each target was attached for. @type {Map<string, number>} */
  const byTarget = new Map();

  /** A target attached by id went away (it ended, or Chrome detached it). @param {string} targetId */
  function gone(targetId) {
    const owner = byTarget.get(targetId);
    byTarget.delete(targetId);
    if (owner === undefined) return;
    tell(owner, 'Target.detachedFromTarget', { sessionId: `${TARGET}${targetId}` }, undefined);
  }

  return {
    gone,
    /** @param {string} targetId */
    has(targetId) { return byTarget.has(targetId); },
    /** An event of a target attached by id, told as its tab's. @param {string} targetId @param {string} method @param {any} params */
    event(targetId, method, params) {
      const owner = byTarget.get(targetId);
      if (owner !== undefined) tell(owner, method, params, `${TARGET}${targetId}`);
    },
    /** The target id of a `target:<id>` session, or null for a child's flat session. @param {string} sessionId */
    targetIdOf(sessionId) { return sessionId.startsWith(TARGET) ? sessionId.slice(TARGET.length) : null; },
    /** Lets go of every target attached for the tab. @param {number} tabId */
    forgetTab(tabId) {
      for (const [id, owner] of byTarget) if (owner === tabId) { byTarget.delete(id); dbg.detach({ targetId: id }).catch(() => {}); }
    },
    /** @param {number} tabId @param {string} targetId @returns {Promise<string | null>} */
    async attach(tabId, targetId) {
      if (byTarget.has(targetId)) return `${TARGET}${targetId}`;
      try { await dbg.attach({ targetId }, VERSION); } catch { return null; }
      byTarget.set(targetId, tabId);
      return `${TARGET}${targetId}`;
    },
    /** @param {string} sessionId a `target:<id>` session from attach */
    async detach(sessionId) {
      if (!sessionId.startsWith(TARGET)) return;
      const targetId = sessionId.slice(TARGET.length);
      if (!byTarget.has(targetId)) return;
      // Told as a detach, so what was kept for the session (a worker's hook) is forgotten: attached
      // again later, the target gets the same session id and must be set up anew.
      gone(targetId);
      await dbg.detach({ targetId }).catch(() => {});
    },
  };
}
