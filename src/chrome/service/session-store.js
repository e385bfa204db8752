// Keeps each tab's conversation in storage.session so it survives the Chrome service worker being
// stopped. Changes are written after a short debounce, and at once when the run asks (write-ahead:
// the user's message, a tool call before it runs, its result after; service/runs.js). Large strings
// go to IndexedDB once each (service/blob-store.js) and are referenced from here, so a long run
// never reaches storage.session's quota (10 MB); should the conversation still not fit, the oldest
// tool results are shortened and the caller is told. storage.session is cleared when the browser
// quits; history-store.js keeps runs across restarts. How an entry fits the storage: session-fit.js.
/** @import { StoredSession } from '../types/messages' */
/** @import { BlobStore } from './blob-store.js' */
import { createSessionFit } from './session-fit.js';

/**
 * @typedef {{ get(key: string): Promise<Record<string, any>>, set(items: Record<string, any>): Promise<void>, remove(key: string): Promise<void> }} StorageArea
 * @typedef {{ setTimeout: (fn: () => void, ms: number) => unknown, clearTimeout: (t: any) => void }} Timers
 */

/** @param {number} tabId */
const keyOf = (tabId) => `session:${tabId}`;

export { BLOB_MIN_CHARS, SOFT_LIMIT_CHARS, HARD_LIMIT_CHARS } from './session-fit.js';

/**
 * @param {{ area: StorageArea, debounceMs?: number, timers?: Timers, blobs?: BlobStore | null,
 *   limits?: { blobMin?: number, soft?: number, hard?: number },
 *   onTrimmed?: (tabId: number, count: number) => void }} deps
 *   onTrimmed: the oldest tool results were shortened to fit (the session tells the user)
 */
export function createSessionStore({ area, debounceMs = 300, timers = globalThis, blobs = null, limits = {}, onTrimmed }) {
  const fit = createSessionFit({ blobs, limits, onTrimmed });
  /** @type {Map<number, unknown>} */
  const scheduled = new Map();
  /** @type {Map<number, () => StoredSession>} */
  const latest = new Map();
  /** Writes in progress per tab, in order: a flush waits for the write before it. @type {Map<number, Promise<void>>} */
  const writing = new Map();

  /** @param {number} tabId */
  async function write(tabId) {
    scheduled.delete(tabId);
    const snapshot = latest.get(tabId);
    latest.delete(tabId);
    if (!snapshot) return;
    try {
      await area.set({ [keyOf(tabId)]: await fit.fitted(tabId, snapshot()) });
    } catch (err) {
      // A closed context, or a quota other tabs filled: the live session is intact; the next change retries.
      console.warn('Tabwright: could not save the conversation', err);
    }
  }

  /** Writes one after another per tab, so an older snapshot never lands after a newer one. @param {number} tabId */
  function queue(tabId) {
    const next = (writing.get(tabId) ?? Promise.resolve()).then(() => write(tabId));
    writing.set(tabId, next);
    next.finally(() => { if (writing.get(tabId) === next) writing.delete(tabId); });
    return next;
  }

  return {
    /** Save soon; repeated calls within the debounce window write once. @param {number} tabId @param {() => StoredSession} snapshot */
    schedule(tabId, snapshot) {
      latest.set(tabId, snapshot);
      if (scheduled.has(tabId)) return;
      scheduled.set(tabId, timers.setTimeout(() => { queue(tabId); }, debounceMs));
    },
    /** Write now what is scheduled, after any write already under way. @param {number} tabId */
    async flush(tabId) {
      const t = scheduled.get(tabId);
      if (t !== undefined) timers.clearTimeout(t);
      scheduled.delete(tabId);
      await queue(tabId);
    },
    /** @param {number} tabId @returns {Promise<StoredSession | null>} */
    async load(tabId) {
      const got = await area.get(keyOf(tabId));
      const data = got?.[keyOf(tabId)];
      return data && data.v === 1 ? fit.resolve(data) : null;
    },
    /** @param {number} tabId */
    async remove(tabId) {
      const t = scheduled.get(tabId);
      if (t !== undefined) timers.clearTimeout(t);
      scheduled.delete(tabId);
      latest.delete(tabId);
      await area.remove(keyOf(tabId));
      fit.forgetTab(tabId);
      await blobs?.removeTab(tabId).catch(() => {});
    },
  };
}
