// The known secrets of a tab, in memory only (browser-free, pure): what the page's secret fields hold
// and the tokens it shows (content.secrets, content/secrets.js), with the origin each belongs to.
//
//   const vault = createSecretVault();
//   vault.add(values: string[], origin: string)   remember values (shorter than 4 characters are ignored)
//   vault.has(text): boolean                      does text hold a known secret (in any form below)?
//   vault.find(text): { origin: string }[]        which known secrets text holds: one entry per secret
//                                                 and origin, in any form: as is, URL-encoded (%XX, + for
//                                                 spaces), JSON-escaped, base64 or base64url (also inside a
//                                                 longer encoded string, such as Basic auth's "user:pass")
//   vault.mask(text): string                      every known secret (any form) and every token-looking
//                                                 string (agent/safety/secret-patterns.js) → MASK
//   vault.maskDeep(value)                         mask() on every string of plain objects and arrays
//                                                 (transcript items, tool arguments, tool results)
//   vault.ownerOf(value): string | null           the origin a known secret belongs to
//
// Fast enough to run on every tool result: all forms of all secrets are one regular expression,
// rebuilt only when a secret is added; mask() of a 40 kB outline takes well under a millisecond
// (test/unit/secrets.test.js measures it).
/** @import { SecretVault } from '../../types/safety' */
import { MASK, maskTokens } from './secret-patterns.js';

/** Secrets kept at most (the oldest go first): a page cannot grow the vault without bound. */
const MAX_SECRETS = 500;
/** Secrets shorter than this are not remembered: "1234" as a secret would mask every such number. */
const MIN_LENGTH = 4;
/** Base64 forms are matched only for secrets this long: a shorter one's fragments match by chance. */
const MIN_BASE64 = 6;

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** @param {Uint8Array} bytes @returns {string} standard base64 without padding */
function base64(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = i + 2 < bytes.length ? 4 : i + 1 < bytes.length ? 3 : 2;
    for (let k = 0; k < chars; k++) out += B64[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

/**
 * The base64 text of a value wherever it stands in a longer encoded string: for each of the three
 * byte alignments, the characters that depend on the value's bytes alone.
 * @param {string} value @returns {string[]}
 */
function base64Forms(value) {
  const bytes = new TextEncoder().encode(value);
  /** @type {string[]} */
  const out = [];
  for (let k = 0; k < 3; k++) {
    const padded = new Uint8Array(k + bytes.length);
    padded.set(bytes, k);
    const enc = base64(padded);
    const from = Math.ceil((8 * k) / 6), to = Math.floor((8 * (k + bytes.length)) / 6);
    const part = enc.slice(from, to);
    if (part.length >= MIN_BASE64) out.push(part, part.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/** Every form a secret may take in text. @param {string} v @returns {string[]} */
function formsOf(v) {
  const forms = new Set([v]);
  const url = encodeURIComponent(v);
  forms.add(url);
  forms.add(url.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()));
  forms.add(url.replace(/%20/g, '+'));
  const json = JSON.stringify(v).slice(1, -1);
  forms.add(json);
  // JSON inside JSON (a tool call's arguments holding a request body).
  forms.add(JSON.stringify(json).slice(1, -1));
  if (v.length >= MIN_BASE64) for (const b of base64Forms(v)) forms.add(b);
  return [...forms].filter((f) => f.length >= MIN_LENGTH);
}

/** @param {string} s */
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** @returns {SecretVault} */
export function createSecretVault() {
  /** secret → the origins it belongs to (first one first), oldest secret first @type {Map<string, Set<string>>} */
  const owners = new Map();
  /** form → the secret it is a form of @type {Map<string, string>} */
  let formOwner = new Map();
  /** every form of every secret, longest first @type {RegExp | null} */
  let re = null;
  let dirty = false;

  function build() {
    dirty = false;
    formOwner = new Map();
    for (const v of owners.keys()) for (const f of formsOf(v)) if (!formOwner.has(f)) formOwner.set(f, v);
    const forms = [...formOwner.keys()].sort((a, b) => b.length - a.length);
    re = forms.length ? new RegExp(forms.map(escapeRe).join('|'), 'g') : null;
  }
  /** @returns {RegExp | null} */
  function matcher() {
    if (dirty) build();
    return re;
  }

  /** @param {string} text @returns {Set<string>} the secrets text holds */
  function secretsIn(text) {
    /** @type {Set<string>} */
    const found = new Set();
    const r = matcher();
    if (!r || typeof text !== 'string' || text.length < MIN_LENGTH) return found;
    r.lastIndex = 0;
    for (let m = r.exec(text); m; m = r.exec(text)) {
      const v = formOwner.get(m[0]);
      if (v !== undefined) found.add(v);
    }
    return found;
  }

  /** @param {string} text @returns {string} */
  function mask(text) {
    if (typeof text !== 'string' || !text) return text;
    const r = matcher();
    const known = r ? text.replace(r, MASK) : text;
    return maskTokens(known);
  }

  /** @template T @param {T} value @param {number} depth @returns {T} */
  function deep(value, depth) {
    // A screenshot's data: URL is pixels, not text (a step card's thumbnail).
    if (typeof value === 'string') return /** @type {T} */ (/** @type {unknown} */ (/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+$/.test(value) ? value : mask(value)));
    if (!value || typeof value !== 'object' || depth > 32) return value;
    if (Array.isArray(value)) return /** @type {T} */ (/** @type {unknown} */ (value.map((x) => deep(x, depth + 1))));
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    // An image's pixels are not text: its base64 would look like tokens, and masking it breaks the picture.
    const img = /** @type {{ mediaType?: unknown, data?: unknown }} */ (value);
    if (typeof img.mediaType === 'string' && img.mediaType.startsWith('image/') && typeof img.data === 'string') return value;
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const [k, x] of Object.entries(value)) out[k] = deep(x, depth + 1);
    return /** @type {T} */ (/** @type {unknown} */ (out));
  }

  return {
    add(values, origin) {
      if (!Array.isArray(values)) return;
      for (const v of values) {
        if (typeof v !== 'string' || v.length < MIN_LENGTH || v === MASK) continue;
        const set = owners.get(v);
        if (set) { if (!set.has(origin)) { set.add(origin); } continue; }
        owners.set(v, new Set([origin]));
        dirty = true;
        if (owners.size > MAX_SECRETS) owners.delete(/** @type {string} */ (owners.keys().next().value));
      }
    },
    has(text) {
      const r = matcher();
      if (!r || typeof text !== 'string') return false;
      r.lastIndex = 0;
      return r.test(text);
    },
    find(text) {
      /** @type {{ origin: string }[]} */
      const out = [];
      for (const v of secretsIn(text)) for (const origin of owners.get(v) ?? []) out.push({ origin });
      return out;
    },
    mask,
    maskDeep(value) { return deep(value, 0); },
    ownerOf(value) {
      const set = typeof value === 'string' ? owners.get(value) : undefined;
      return set ? /** @type {string} */ (set.values().next().value) : null;
    },
  };
}
