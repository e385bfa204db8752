// The paired MCP clients: what Settings lists (name, tabs granted, when paired, last use) in
// storage.local, and each pair's secret as a non-extractable WebCrypto key in IndexedDB: once
// stored, the secret can be used to sign but never read back, by Tabwright or by anything that
// reads its storage. Neither is part of a settings export.
/** @import { Grant } from '../../mcp-protocol/grants.js' */
import { openDB } from '../../vendor/idb.js';
import { importSecret } from '../../mcp-protocol/pairing.js';
import { parseGrant, DEFAULT_GRANT } from '../../mcp-protocol/grants.js';
import { fail } from '../../agent/error-codes.js';

const KEY = 'mcpClients';
const DB_NAME = 'tabwright-mcp';
const STORE = 'keys';
/** At most this many paired bridges; pairing one more is refused with the reason. */
export const MAX_CLIENTS = 20;

/**
 * @typedef {object} ClientRecord
 * @property {string} id the bridge's id (hex)
 * @property {string} name the MCP client's name, as it said at pairing or last sign-in
 * @property {Grant} grant
 * @property {number} pairedAt
 * @property {number} [lastUsed] the last call it made
 */

/**
 * @param {{ area: { get(key: string): Promise<Record<string, any>>, set(items: Record<string, any>): Promise<void> } }} deps
 */
export function createClientsStore({ area }) {
  /** @type {Promise<import('../../vendor/idb.js').IDBPDatabase> | null} */
  let db = null;
  const open = () => {
    db ??= openDB(DB_NAME, 1, { upgrade(d) { d.createObjectStore(STORE); } });
    return db;
  };

  /** @returns {Promise<ClientRecord[]>} */
  async function list() {
    const stored = (await area.get(KEY))[KEY];
    if (!Array.isArray(stored)) return [];
    return stored.filter((c) => c && typeof c.id === 'string').map((c) => ({ ...c, grant: parseGrant(c.grant) ?? DEFAULT_GRANT }));
  }

  /** @param {ClientRecord[]} all */
  const save = (all) => area.set({ [KEY]: all });

  return {
    list,
    /** @param {string} id */
    async get(id) { return (await list()).find((c) => c.id === id) ?? null; },
    /** The key that signs for a pair, or null when it was revoked. @param {string} id @returns {Promise<CryptoKey | null>} */
    async key(id) { return (await (await open()).get(STORE, id)) ?? null; },

    /**
     * Keeps a new pair: its key first (so a listed client always has one), then its record.
     * @param {{ id: string, name: string, grant: Grant }} client @param {string} secretHex dropped once imported
     */
    async add(client, secretHex) {
      const all = (await list()).filter((c) => c.id !== client.id);
      if (all.length >= MAX_CLIENTS) return fail('MCP_TOO_MANY', `at most ${MAX_CLIENTS}`);
      await (await open()).put(STORE, await importSecret(secretHex, false), client.id);
      await save([...all, { ...client, pairedAt: Date.now() }]);
      return { ok: true };
    },

    /** @param {string} id @param {Partial<Pick<ClientRecord, 'name' | 'grant' | 'lastUsed'>>} patch */
    async update(id, patch) {
      const all = await list();
      const i = all.findIndex((c) => c.id === id);
      if (i < 0) return false;
      all[i] = { ...all[i], ...patch };
      await save(all);
      return true;
    },

    /** Forget a pair: its record and its key. @param {string} id */
    async remove(id) {
      await save((await list()).filter((c) => c.id !== id));
      await (await open()).delete(STORE, id);
    },
  };
}
/** @typedef {ReturnType<typeof createClientsStore>} ClientsStore */
