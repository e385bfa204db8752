// Traces of runs in IndexedDB through idb: the only file that opens the traces database.
// A trace has the id of its run's history record; retention (how many, how old) is applied on save.
/** @import { Trace, TraceSummary, TraceSettings } from '../types/traces' */
import { openDB } from '../vendor/idb.js';

const DB_NAME = 'tabwright-traces';
const STORE = 'traces';
/** The list's entries, apart, so listing never reads whole traces. */
const SUMMARIES = 'summaries';

/** Record traces, keep the newest 100, none older than 30 days. @type {TraceSettings} */
export const TRACE_DEFAULTS = Object.freeze({ record: true, keepRuns: 100, keepDays: 30 });

/** Uses the global indexedDB (under Node, tests load fake-indexeddb/auto). */
export function createTraceStore() {
  /** @type {Promise<import('../vendor/idb.js').IDBPDatabase> | null} */
  let db = null;
  const open = () => {
    db ??= openDB(DB_NAME, 1, {
      upgrade(d) {
        d.createObjectStore(STORE, { keyPath: 'id' });
        d.createObjectStore(SUMMARIES, { keyPath: 'id' }).createIndex('endedAt', 'endedAt');
      },
    });
    return db;
  };

  /**
   * Drops traces past the retention: older than keepDays, then the oldest past keepRuns.
   * @param {Pick<TraceSettings, 'keepRuns' | 'keepDays'>} keep @param {number} now
   */
  async function prune(keep, now) {
    const d = await open();
    const tx = d.transaction([STORE, SUMMARIES], 'readwrite');
    const summaries = tx.objectStore(SUMMARIES);
    let extra = (await summaries.count()) - keep.keepRuns;
    const oldest = now - keep.keepDays * 86_400_000;
    let removed = 0;
    for (let cursor = await summaries.index('endedAt').openCursor(); cursor; cursor = await cursor.continue()) {
      const t = /** @type {TraceSummary} */ (cursor.value);
      if (extra <= 0 && t.endedAt >= oldest) break;
      await tx.objectStore(STORE).delete(t.id);
      await cursor.delete();
      extra--;
      removed++;
    }
    await tx.done;
    return removed;
  }

  return {
    /** @param {Trace} trace @param {Pick<TraceSettings, 'keepRuns' | 'keepDays'>} [keep] */
    async save(trace, keep = TRACE_DEFAULTS) {
      const d = await open();
      const tx = d.transaction([STORE, SUMMARIES], 'readwrite');
      const { messages: _m, steps: _s, ...summary } = trace;
      await Promise.all([tx.objectStore(STORE).put(trace), tx.objectStore(SUMMARIES).put(summary), tx.done]);
      await prune(keep, Date.now());
    },
    /** Newest first, without messages and steps. @returns {Promise<TraceSummary[]>} */
    async list() {
      const all = /** @type {TraceSummary[]} */ (await (await open()).getAllFromIndex(SUMMARIES, 'endedAt'));
      return all.reverse();
    },
    /** @param {string} id @returns {Promise<Trace | undefined>} */
    async get(id) {
      return (await open()).get(STORE, id);
    },
    /** @param {string} id */
    async delete(id) {
      const tx = (await open()).transaction([STORE, SUMMARIES], 'readwrite');
      await Promise.all([tx.objectStore(STORE).delete(id), tx.objectStore(SUMMARIES).delete(id), tx.done]);
    },
    async clear() {
      const tx = (await open()).transaction([STORE, SUMMARIES], 'readwrite');
      await Promise.all([tx.objectStore(STORE).clear(), tx.objectStore(SUMMARIES).clear(), tx.done]);
    },
    prune,
  };
}
/** @typedef {ReturnType<typeof createTraceStore>} TraceStore */
