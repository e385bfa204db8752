// Conversation history in IndexedDB (through idb), so conversations survive a browser restart;
// storage.session (session-store.js) only outlives the service worker.
/** @import { HistoryEntry } from '../types/messages' */
import { openDB } from '../vendor/idb.js';

const DB = 'tabwright';
const STORE = 'conversations';

export function createHistory() {
  /** @type {Promise<import('../vendor/idb.js').IDBPDatabase> | null} */
  let db = null;
  const open = () => (db ??= openDB(DB, 1, {
    upgrade(d) {
      const store = d.createObjectStore(STORE, { keyPath: 'id' });
      store.createIndex('updatedAt', 'updatedAt');
    },
  }));
  return {
    /** @param {HistoryEntry} entry */
    async save(entry) {
      await (await open()).put(STORE, entry);
    },
    /** Newest first. @param {number} [limit] @returns {Promise<HistoryEntry[]>} */
    async list(limit = 50) {
      const all = /** @type {HistoryEntry[]} */ (await (await open()).getAllFromIndex(STORE, 'updatedAt'));
      return all.reverse().slice(0, limit);
    },
    /** @param {string} id @returns {Promise<HistoryEntry | undefined>} */
    async get(id) {
      return (await open()).get(STORE, id);
    },
  };
}
