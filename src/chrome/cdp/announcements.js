// Where each request of a held tab was announced (Network.requestWillBeSent names the session that
// sent it). A dedicated worker's request pauses in its frame's session but is announced in the
// worker's, so a write's card and its answer are the worker's, not the frame's.

/** How long a paused write waits for its announcement. */
export const SENDER_WAIT_MS = 150;
const MAX_SEEN = 1000;

/** @typedef {{ sessionId?: string, documentUrl?: string }} Announced */

/** @param {number} [waitMs] */
export function createAnnouncements(waitMs = SENDER_WAIT_MS) {
  /** The session each request was announced in, by tab and Network id. @type {Map<string, Announced>} */
  const seen = new Map();
  /** Waiting for an announcement. @type {Map<string, () => void>} */
  const waiting = new Map();
  return {
    /** Network.requestWillBeSent. @param {number} tabId @param {any} p @param {string | undefined} sessionId */
    announce(tabId, p, sessionId) {
      const key = `${tabId}|${p.requestId}`;
      if (!seen.has(key)) seen.set(key, { sessionId, documentUrl: p.documentURL });
      if (seen.size > MAX_SEEN) seen.delete(/** @type {string} */ (seen.keys().next().value));
      waiting.get(key)?.();
    },
    /**
     * Where a paused request was announced, waiting a moment for a worker's announcement.
     * @param {number} tabId @param {string | undefined} networkId @returns {Promise<Announced | undefined>}
     */
    async announcedIn(tabId, networkId) {
      if (!networkId) return undefined;
      const key = `${tabId}|${networkId}`;
      if (!seen.has(key)) {
        await new Promise((resolve) => {
          const timer = setTimeout(done, waitMs);
          function done() { clearTimeout(timer); waiting.delete(key); resolve(undefined); }
          waiting.set(key, done);
        });
      }
      return seen.get(key);
    },
  };
}
