// Saved workflows in IndexedDB through idb: the only file that opens the workflows database.
/** @import { Workflow } from '../types/workflows' */
import { openDB } from '../vendor/idb.js';

const DB_NAME = 'tabwright-workflows';
const STORE = 'workflows';

/** Uses the global indexedDB (under Node, tests load fake-indexeddb/auto). */
export function createWorkflowStore() {
  /** @type {Promise<import('../vendor/idb.js').IDBPDatabase> | null} */
  let db = null;
  const open = () => {
    db ??= openDB(DB_NAME, 1, { upgrade(d) { d.createObjectStore(STORE, { keyPath: 'id' }); } });
    return db;
  };
  return {
    /** @param {Workflow} wf */
    async save(wf) { await (await open()).put(STORE, wf); },
    /** By name, then newest. @returns {Promise<Workflow[]>} */
    async list() {
      const all = /** @type {Workflow[]} */ (await (await open()).getAll(STORE));
      return all.sort((a, b) => a.name.localeCompare(b.name) || b.updatedAt - a.updatedAt);
    },
    /** @param {string} id @returns {Promise<Workflow | undefined>} */
    async get(id) { return (await open()).get(STORE, id); },
    /** By id, else by name (case-insensitive). @param {string} nameOrId @returns {Promise<Workflow | null>} */
    async find(nameOrId) {
      const byId = await (await open()).get(STORE, nameOrId);
      if (byId) return byId;
      const key = String(nameOrId).trim().toLowerCase();
      return (await this.list()).find((w) => w.name.toLowerCase() === key) ?? null;
    },
    /** @param {string} id */
    async remove(id) { await (await open()).delete(STORE, id); },
  };
}
/** @typedef {ReturnType<typeof createWorkflowStore>} WorkflowStore */
