// Large strings of a tab's stored conversation (page snapshots, page text, long tool results), kept
// once each in IndexedDB and referenced from storage.session (service/session-store.js), so that a
// long run never reaches storage.session's quota. Keys start with the tab id, so a closed tab's
// strings go with it.
import { openDB } from '../vendor/idb.js';

const DB_NAME = 'tabwright-blobs';
const STORE = 'blobs';

/**
 * @typedef {object} BlobStore
 * @property {(key: string, text: string) => Promise<void>} put
 * @property {(key: string) => Promise<string | undefined>} get
 * @property {(tabId: number) => Promise<void>} removeTab every string of that tab
 */

/** Uses the global indexedDB (under Node, tests load fake-indexeddb/auto). @returns {BlobStore} */
export function createBlobStore() {
  /** @type {Promise<import('../vendor/idb.js').IDBPDatabase> | null} */
  let db = null;
  const open = () => {
    db ??= openDB(DB_NAME, 1, { upgrade(d) { d.createObjectStore(STORE); } });
    return db;
  };
  return {
    async put(key, text) { await (await open()).put(STORE, text, key); },
    async get(key) { return (await open()).get(STORE, key); },
    async removeTab(tabId) {
      await (await open()).delete(STORE, IDBKeyRange.bound(`${tabId}:`, `${tabId}:\uffff`));
    },
  };
}

/**
 * A key for a string: its tab, its length and two 32-bit FNV-1a hashes (different offsets), so the
 * same snapshot kept in the conversation and in the transcript is stored once.
 * @param {number} tabId @param {string} s
 */
export function blobKey(tabId, s) {
  let a = 0x811c9dc5, b = 0x01000193 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return `${tabId}:${s.length.toString(36)}:${(a >>> 0).toString(36)}${(b >>> 0).toString(36)}`;
}
