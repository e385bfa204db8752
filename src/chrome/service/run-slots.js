// How many runs go at once: the limit in Settings (maxRunsAtOnce). A run the person starts from a
// panel always starts (the limit is there to keep background work out of their way); work that
// starts by itself (a job falling due, an MCP client's run_task) waits here for a free slot, and the
// runs overview lists it as queued, with the reason.

/** The limit when Settings hold none. */
export const DEFAULT_MAX_RUNS = 4;

/**
 * @typedef {object} QueuedRun
 * @property {string} id the job's id, or the MCP call's
 * @property {'job' | 'mcp'} kind
 * @property {string} title the job's title, or the client's task
 * @property {number} since when it began to wait
 * @property {number} limit the limit it waits under
 */

/**
 * @param {{ limit: () => Promise<number>, active: () => number, onChange?: () => void, now?: () => number }} deps
 *   active: the runs holding a tab now (every session whose run is active)
 */
export function createRunSlots({ limit, active, onChange = () => {}, now = () => Date.now() }) {
  /** Slots handed out whose run has not begun yet: counted, so two waiters never take one slot. */
  let reserved = 0;
  /** @type {Map<string, QueuedRun & { wake: () => void }>} */
  const waiting = new Map();

  /**
   * Waits for a free slot. Returns a release to call once the run has begun (or could not): from
   * then on the run's own session counts. Resolves null when the signal aborts first.
   * @param {{ id: string, kind: 'job' | 'mcp', title: string }} who @param {AbortSignal} [signal]
   * @param {() => void} [onQueued] called once, when it has to wait
   * @returns {Promise<(() => void) | null>}
   */
  async function acquire(who, signal, onQueued) {
    for (;;) {
      if (signal?.aborted) return leave(who.id);
      const max = await limit().catch(() => DEFAULT_MAX_RUNS);
      if (active() + reserved < max) {
        leave(who.id);
        reserved++;
        let released = false;
        return () => { if (!released) { released = true; reserved--; recheck(); } };
      }
      await new Promise((resolve) => {
        const entry = waiting.get(who.id);
        const wake = () => { signal?.removeEventListener('abort', wake); resolve(undefined); };
        if (!entry) { waiting.set(who.id, { ...who, since: now(), limit: max, wake }); onChange(); onQueued?.(); }
        else Object.assign(entry, { limit: max, wake });
        signal?.addEventListener('abort', wake, { once: true });
      });
    }
  }

  /** @param {string} id @returns {null} */
  function leave(id) {
    if (waiting.delete(id)) onChange();
    return null;
  }

  /** A run ended, or the limit changed: every waiter looks again, oldest first. */
  function recheck() {
    for (const w of [...waiting.values()].sort((a, b) => a.since - b.since)) w.wake();
  }

  return {
    acquire,
    recheck,
    /** The work waiting for a slot, oldest first. @returns {QueuedRun[]} */
    queued: () => [...waiting.values()].sort((a, b) => a.since - b.since).map(({ wake: _w, ...q }) => q),
  };
}
