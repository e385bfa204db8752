// The history of past runs, in IndexedDB through idb. The only file that opens the database.
/** @import { RunRecord } from '../types/messages' */
import { openDB } from '../vendor/idb.js';

const DB_NAME = 'tabwright-history';
const STORE = 'runs';
/** Older runs are dropped past this many, so the history never grows without bound. */
export const MAX_RUNS = 200;

/** Uses the global indexedDB (under Node, tests load fake-indexeddb/auto). */
export function createHistoryStore() {
  /** @type {Promise<import('../vendor/idb.js').IDBPDatabase> | null} */
  let db = null;
  const open = () => {
    db ??= openDB(DB_NAME, 1, {
      upgrade(d) {
        const store = d.createObjectStore(STORE, { keyPath: 'id' });
        store.createIndex('endedAt', 'endedAt');
      },
    });
    return db;
  };

  return {
    /** @param {RunRecord} run */
    async save(run) {
      const d = await open();
      await d.put(STORE, run);
      const count = await d.count(STORE);
      if (count > MAX_RUNS) {
        let cursor = await d.transaction(STORE, 'readwrite').store.index('endedAt').openCursor();
        for (let extra = count - MAX_RUNS; cursor && extra > 0; extra--) {
          await cursor.delete();
          cursor = await cursor.continue();
        }
      }
    },
    /** Newest first, without their transcripts: the request's first words stand in. @returns {Promise<import('../types/messages').RunSummary[]>} */
    async list() {
      const d = await open();
      const all = /** @type {RunRecord[]} */ (await d.getAllFromIndex(STORE, 'endedAt'));
      return all.reverse().map(({ items, ...rest }) => {
        const first = items.find((i) => i.kind === 'user');
        return { ...rest, task: first && first.kind === 'user' ? first.text.slice(0, 300) : '' };
      });
    },
    /** @param {string} id */
    async delete(id) {
      await (await open()).delete(STORE, id);
    },
    /** @param {string} id @returns {Promise<RunRecord | undefined>} */
    async get(id) {
      return (await open()).get(STORE, id);
    },
    async clear() {
      await (await open()).clear(STORE);
    },
  };
}
