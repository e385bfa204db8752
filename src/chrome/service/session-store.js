// Keeps each tab's conversation in storage.session, debounced, so it survives the Chrome service
// worker being stopped (WebBrain persists the same way, 300 ms debounce). storage.session is
// cleared when the browser quits; history.js keeps conversations across restarts.
/** @import { StoredSession } from '../types/messages' */

/**
 * @typedef {{ get(key: string): Promise<Record<string, any>>, set(items: Record<string, any>): Promise<void>, remove(key: string): Promise<void> }} StorageArea
 * @typedef {{ setTimeout: (fn: () => void, ms: number) => unknown, clearTimeout: (t: any) => void }} Timers
 */

/** @param {number} tabId */
const keyOf = (tabId) => `session:${tabId}`;

/**
 * @param {{ area: StorageArea, debounceMs?: number, timers?: Timers }} deps
 */
export function createSessionStore({ area, debounceMs = 300, timers = globalThis }) {
  /** @type {Map<number, unknown>} */
  const scheduled = new Map();
  /** @type {Map<number, () => StoredSession>} */
  const latest = new Map();

  /** @param {number} tabId */
  async function write(tabId) {
    scheduled.delete(tabId);
    const snapshot = latest.get(tabId);
    latest.delete(tabId);
    if (!snapshot) return;
    try {
      await area.set({ [keyOf(tabId)]: snapshot() });
    } catch (err) {
      // Quota or a closed context: the live session is intact; the next change retries.
      console.warn('Tabwright: could not save the conversation', err);
    }
  }

  return {
    /** Save soon; repeated calls within the debounce window write once. @param {number} tabId @param {() => StoredSession} snapshot */
    schedule(tabId, snapshot) {
      latest.set(tabId, snapshot);
      if (scheduled.has(tabId)) return;
      scheduled.set(tabId, timers.setTimeout(() => { write(tabId); }, debounceMs));
    },
    /** Write now what is scheduled. @param {number} tabId */
    async flush(tabId) {
      const t = scheduled.get(tabId);
      if (t !== undefined) timers.clearTimeout(t);
      await write(tabId);
    },
    /** @param {number} tabId @returns {Promise<StoredSession | null>} */
    async load(tabId) {
      const got = await area.get(keyOf(tabId));
      const data = got?.[keyOf(tabId)];
      return data && data.v === 1 ? data : null;
    },
    /** @param {number} tabId */
    async remove(tabId) {
      const t = scheduled.get(tabId);
      if (t !== undefined) timers.clearTimeout(t);
      scheduled.delete(tabId);
      latest.delete(tabId);
      await area.remove(keyOf(tabId));
    },
  };
}
