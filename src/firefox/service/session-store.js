// Keeps each tab's conversation in storage.session so it survives the Chrome service worker being
// stopped. Changes are written after a short debounce, and at once when the run asks (write-ahead:
// the user's message, a tool call before it runs, its result after; service/runs.js). Large strings
// go to IndexedDB once each (service/blob-store.js) and are referenced from here, so a long run
// never reaches storage.session's quota (10 MB); should the conversation still not fit, the oldest
// tool results are shortened and the caller is told. storage.session is cleared when the browser
// quits; history.js keeps conversations across restarts.
/** @import { StoredSession } from '../types/messages' */
/** @import { BlobStore } from './blob-store.js' */
import { blobKey } from './blob-store.js';

/**
 * @typedef {{ get(key: string): Promise<Record<string, any>>, set(items: Record<string, any>): Promise<void>, remove(key: string): Promise<void> }} StorageArea
 * @typedef {{ setTimeout: (fn: () => void, ms: number) => unknown, clearTimeout: (t: any) => void }} Timers
 */

/** @param {number} tabId */
const keyOf = (tabId) => `session:${tabId}`;

/** Strings longer than this go to the blob store. */
export const BLOB_MIN_CHARS = 8_192;
/** Above this size (characters of JSON) smaller strings go there too. */
export const SOFT_LIMIT_CHARS = 4_000_000;
/** What one tab's entry may take in storage.session at most (its quota is 10 MB for every tab together). */
export const HARD_LIMIT_CHARS = 6_000_000;
/** What a shortened old tool result keeps. */
const KEPT_CHARS = 300;
const SHORTENED = '[Shortened by Tabwright to keep the conversation within the browser\'s storage.]';
const LEFT_OUT = '[Left out by Tabwright to keep the conversation within the browser\'s storage.]';

/**
 * @param {{ area: StorageArea, debounceMs?: number, timers?: Timers, blobs?: BlobStore | null,
 *   limits?: { blobMin?: number, soft?: number, hard?: number },
 *   onTrimmed?: (tabId: number, count: number) => void }} deps
 *   onTrimmed: the oldest tool results were shortened to fit (the session tells the user)
 */
export function createSessionStore({ area, debounceMs = 300, timers = globalThis, blobs = null, limits = {}, onTrimmed }) {
  const blobMin = limits.blobMin ?? BLOB_MIN_CHARS;
  const soft = limits.soft ?? SOFT_LIMIT_CHARS;
  const hard = limits.hard ?? HARD_LIMIT_CHARS;
  /** @type {Map<number, unknown>} */
  const scheduled = new Map();
  /** @type {Map<number, () => StoredSession>} */
  const latest = new Map();
  /** Blob keys this background has written (a put is idempotent; this spares repeating it). */
  const written = new Set();
  /** Writes in progress per tab, in order: a flush waits for the write before it. @type {Map<number, Promise<void>>} */
  const writing = new Map();

  /**
   * Every string of at least min characters replaced by a reference to the blob store.
   * @param {number} tabId @param {unknown} value @param {number} min @returns {Promise<any>}
   */
  async function externalize(tabId, value, min) {
    if (!blobs) return value;
    if (typeof value === 'string') {
      if (value.length < min) return value;
      const key = blobKey(tabId, value);
      if (!written.has(key)) { await blobs.put(key, value); written.add(key); }
      return { $blob: key };
    }
    if (Array.isArray(value)) return Promise.all(value.map((v) => externalize(tabId, v, min)));
    if (value && typeof value === 'object') {
      const out = /** @type {Record<string, unknown>} */ ({});
      for (const [k, v] of Object.entries(value)) out[k] = await externalize(tabId, v, min);
      return out;
    }
    return value;
  }

  /** @param {unknown} value @returns {Promise<any>} */
  async function resolve(value) {
    if (Array.isArray(value)) return Promise.all(value.map(resolve));
    if (value && typeof value === 'object') {
      const ref = /** @type {{ $blob?: unknown }} */ (value).$blob;
      if (typeof ref === 'string' && Object.keys(value).length === 1) {
        const text = blobs ? await blobs.get(ref).catch(() => undefined) : undefined;
        return text ?? '[This part of the conversation could not be read back from storage.]';
      }
      const out = /** @type {Record<string, unknown>} */ ({});
      for (const [k, v] of Object.entries(value)) out[k] = await resolve(v);
      return out;
    }
    return value;
  }

  /**
   * The entry as it is stored: large strings referenced; over the soft limit smaller ones too;
   * over the hard limit the oldest tool results shortened (in the stored copy only).
   * @param {number} tabId @param {StoredSession} data
   */
  async function fitted(tabId, data) {
    let out = await externalize(tabId, data, blobMin);
    if (JSON.stringify(out).length <= soft) return out;
    out = await externalize(tabId, data, 256);
    let size = JSON.stringify(out).length;
    if (size <= hard) return out;
    out = JSON.parse(JSON.stringify(out));
    // Oldest first: shortened to their start, then, if that is still too much, left out; the
    // model's copies (tool messages) first, then the transcript's.
    /** @type {{ holder: Record<string, unknown>, key: string }[]} */
    const slots = [];
    for (const m of /** @type {any[]} */ (out.messages)) if (m.role === 'tool' && typeof m.content === 'string') slots.push({ holder: m, key: 'content' });
    for (const i of /** @type {any[]} */ (out.items)) if (i.kind === 'tool' && typeof i.result?.data === 'string') slots.push({ holder: i.result, key: 'data' });
    /** @type {Set<unknown>} */
    const touched = new Set();
    for (const [keep, note] of /** @type {[number, string][]} */ ([[KEPT_CHARS, SHORTENED], [0, LEFT_OUT]])) {
      for (const { holder, key } of slots) {
        if (size <= hard) break;
        const text = /** @type {string} */ (holder[key]);
        const next = keep ? `${text.slice(0, keep)}\n${note}` : note;
        if (next.length >= text.length) continue;
        size -= text.length - next.length;
        holder[key] = next;
        touched.add(holder);
      }
    }
    const trimmed = touched.size;
    if (trimmed) onTrimmed?.(tabId, trimmed);
    return out;
  }

  /** @param {number} tabId */
  async function write(tabId) {
    scheduled.delete(tabId);
    const snapshot = latest.get(tabId);
    latest.delete(tabId);
    if (!snapshot) return;
    try {
      await area.set({ [keyOf(tabId)]: await fitted(tabId, snapshot()) });
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
      return data && data.v === 1 ? resolve(data) : null;
    },
    /** @param {number} tabId */
    async remove(tabId) {
      const t = scheduled.get(tabId);
      if (t !== undefined) timers.clearTimeout(t);
      scheduled.delete(tabId);
      latest.delete(tabId);
      await area.remove(keyOf(tabId));
      for (const key of written) if (key.startsWith(`${tabId}:`)) written.delete(key);
      await blobs?.removeTab(tabId).catch(() => {});
    },
  };
}
