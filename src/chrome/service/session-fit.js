// A tab's conversation as storage.session keeps it: large strings go to IndexedDB once each
// (service/blob-store.js) and are referenced; over a soft limit smaller ones go too; over the hard
// limit the oldest tool results are shortened in the stored copy (the live one is intact). Reading
// back puts the strings in again.
/** @import { StoredSession } from '../types/messages' */
/** @import { BlobStore } from './blob-store.js' */
import { blobKey } from './blob-store.js';

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
 * @param {{ blobs: BlobStore | null, limits: { blobMin?: number, soft?: number, hard?: number },
 *   onTrimmed?: (tabId: number, count: number) => void }} deps
 */
export function createSessionFit({ blobs, limits, onTrimmed }) {
  const blobMin = limits.blobMin ?? BLOB_MIN_CHARS;
  const soft = limits.soft ?? SOFT_LIMIT_CHARS;
  const hard = limits.hard ?? HARD_LIMIT_CHARS;
  /** Blob keys this background has written (a put is idempotent; this spares repeating it). */
  const written = new Set();

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
    const size = JSON.stringify(out).length;
    if (size <= hard) return out;
    return trimOldest(tabId, JSON.parse(JSON.stringify(out)), size);
  }

  /**
   * Over the hard limit: the oldest tool results shortened to their start, then, if that is still
   * too much, left out; the model's copies (tool messages) first, then the transcript's.
   * @param {number} tabId @param {any} out the stored copy (changed in place) @param {number} size its size
   */
  function trimOldest(tabId, out, size) {
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
    if (touched.size) onTrimmed?.(tabId, touched.size);
    return out;
  }

  return {
    fitted,
    resolve,
    /** The tab is gone: its blobs may be written again by a new tab with the same id. @param {number} tabId */
    forgetTab(tabId) { for (const key of written) if (key.startsWith(`${tabId}:`)) written.delete(key); },
  };
}
