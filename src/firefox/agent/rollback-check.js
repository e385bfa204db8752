// A change accepted, then undone: what an accepted write sent that the page showed when done stood
// must still be on the page after the settle period; gone, the change was rolled back (the server
// reverted it, the page re-read it and dropped it). Browser-free: the page is read through the
// done check it is given.
/** @import { DoneCheck } from '../types/core' */
/** @import { WriteEntry } from './safety/write-ledger.js' */
import { readWrites } from './outcome.js';

/** Fields whose values are never quoted back to the page check. */
const SECRET_KEY = /pass|token|secret|card|cvv|cvc|iban|ssn|otp|\bpin\b/i;
const MAX_VALUES = 8;

/**
 * Text values the accepted writes sent (the fields a person would see again on the page).
 * @param {readonly WriteEntry[]} writes @returns {string[]}
 */
export function sentValues(writes) {
  /** @type {Set<string>} */
  const values = new Set();
  for (const { w, reading } of readWrites(writes)) {
    if (reading.verdict !== 'verified') continue;
    for (const [k, v] of w.fields ?? []) {
      const t = String(v).trim();
      if (SECRET_KEY.test(k) || t.length < 3 || t.length > 120 || !/\p{L}/u.test(t) || /["“”\n]/.test(t)) continue;
      values.add(t);
    }
  }
  return [...values].slice(0, MAX_VALUES);
}

/**
 * Which of these values the page shows now; null when the page cannot be read.
 * @param {string[]} values @param {(summary: string) => Promise<DoneCheck>} observe @returns {Promise<string[] | null>}
 */
export async function shownOf(values, observe) {
  if (!values.length) return [];
  const check = await observe(values.map((v) => `"${v}"`).join(' ')).catch(() => null);
  if (!check || check.verified === null) return null;
  return values.filter((v) => !check.missing.includes(v));
}
