// What counts as page data when a request would carry it off the site (browser-free): strings of a
// personal shape (e-mail, phone, IBAN, card number) and the values the page showed the agent (field
// values and identifier-like words of the results the model read: policy.notePage).
//
//   shapedData(text)        [{ label, value }] the e-mail, phone, IBAN and card-shaped strings in text
//   createPageMemory()      note(texts) / values() / carried(text) / shown(value): what the page showed,
//                           bounded (a page cannot grow it without limit; the oldest go first)

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
/** International or national phone numbers: 8 to 15 digits, with the usual separators. */
const PHONE = /(?<![\w.])\+?\d[\d ().-]{6,18}\d(?![\w.])/g;
/** Either case: the checks that look for data read bodies lower-cased; the check digits decide. */
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/gi;
const CARD = /(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)/g;

/** Values the page showed that are kept, at most (the oldest go first). */
const MAX_VALUES = 5000;
/** Page text kept for provenance, in characters. */
const MAX_TEXT = 400_000;
/** A page value this short is too common to mean anything when a URL or body holds it. */
const MIN_VALUE = 6;

/** @param {string} digits */
function luhn(digits) {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return sum % 10 === 0;
}

/** IBAN check digits (ISO 13616, mod 97). @param {string} s */
function ibanValid(s) {
  const v = s.replace(/ /g, '');
  if (v.length < 15 || v.length > 34) return false;
  const moved = `${v.slice(4)}${v.slice(0, 4)}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const ch of moved) rest = (rest * 10 + Number(ch)) % 97;
  return rest === 1;
}

/**
 * The personal-shaped strings in text: what a request must not carry to another site unasked.
 * Card numbers pass the Luhn check and IBANs their check digits, so order numbers and dates do not count.
 * @param {string} text @returns {{ label: string, value: string }[]}
 */
export function shapedData(text) {
  /** @type {{ label: string, value: string }[]} */
  const out = [];
  if (!text || text.length < 6) return out;
  for (const m of text.matchAll(EMAIL)) out.push({ label: 'an e-mail address', value: m[0] });
  for (const m of text.matchAll(IBAN)) if (ibanValid(m[0].toUpperCase())) out.push({ label: 'an IBAN', value: m[0] });
  for (const m of text.matchAll(CARD)) if (luhn(m[0].replace(/\D/g, ''))) out.push({ label: 'a card number', value: m[0] });
  for (const m of text.matchAll(PHONE)) {
    const digits = m[0].replace(/\D/g, '');
    // A date (2026-01-31) or a card already counted is not a phone number.
    // A bare run of digits is an id or a timestamp: a phone number is written with a + or separators.
    const written = /^\+/.test(m[0]) || /\d[ ().-]+\d/.test(m[0]);
    if (written && digits.length >= 8 && digits.length <= 15 && !/^\d{4}-\d{2}-\d{2}/.test(m[0]) && !out.some((o) => o.value.includes(m[0].trim()))) {
      out.push({ label: 'a phone number', value: m[0].trim() });
    }
  }
  return out;
}

/**
 * Identifier-like words of a page text: field values (value="…" in the outline), and words with
 * digits, an @ or a dot (an account, a payee id, a domain, an e-mail). Ordinary words are not kept:
 * "Home" in an analytics URL is no one's data.
 * @param {string} text @returns {string[]}
 */
export function pageValuesOf(text) {
  /** @type {Set<string>} */
  const out = new Set();
  for (const m of text.matchAll(/\bvalue="((?:[^"\\]|\\.)*)"/g)) {
    let v = m[1];
    try { v = JSON.parse(`"${m[1]}"`); } catch { /* keep it raw */ }
    if (v.trim().length >= MIN_VALUE) out.add(v.trim());
  }
  for (const m of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}\p{M}._@+-]*[\p{L}\p{N}]/gu)) {
    const w = m[0];
    if (w.length >= MIN_VALUE && w.length <= 80 && /[\p{N}@.]/u.test(w)) out.add(w);
  }
  for (const s of shapedData(text)) out.add(s.value);
  return [...out];
}

export function createPageMemory() {
  /** Values in the order seen (a Set keeps insertion order). @type {Set<string>} */
  const values = new Set();
  /** Page texts, newest last. @type {string[]} */
  const texts = [];
  let chars = 0;
  return {
    /** What the page showed the model. @param {string[]} list */
    note(list) {
      for (const t of list) {
        if (typeof t !== 'string' || !t) continue;
        for (const v of pageValuesOf(t)) { values.delete(v); values.add(v); }
        texts.push(t.toLowerCase());
        chars += t.length;
      }
      while (values.size > MAX_VALUES) values.delete(/** @type {string} */ (values.values().next().value));
      while (chars > MAX_TEXT && texts.length > 1) chars -= /** @type {string} */ (texts.shift()).length;
    },
    values() { return [...values]; },
    /** The page values text holds (case-insensitive). @param {string} text */
    carried(text) {
      const low = text.toLowerCase();
      return [...values].filter((v) => v.length >= MIN_VALUE && low.includes(v.toLowerCase()));
    },
    /** Did the page show this value (anywhere in what the model read)? @param {string} value */
    shown(value) {
      const v = value.trim().toLowerCase();
      return v.length > 0 && texts.some((t) => t.includes(v));
    },
  };
}
/** @typedef {ReturnType<typeof createPageMemory>} PageMemory */
