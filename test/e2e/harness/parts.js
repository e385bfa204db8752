// A big corpus file split over several e2e processes. `npm test` (scripts/test.mjs) balances the
// files over a few processes per browser by their recorded times; a file that alone would outlast a
// process (the injection corpus, the lying pages, the eval subset) is cut into parts, and each
// process runs only its parts' cases. TW_PARTS carries, per file, how many parts there are and which
// of them this process runs: {"test/e2e/injection.e2e.js":{"of":3,"run":[0,2]}}. Without it (a hand
// run) a file runs all its cases.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** @typedef {{ of: number, run: number[] }} Part */

/**
 * This process's share of a file, or null for all of it. Read when the file is imported: an e2e lane
 * (harness/lane.mjs) sets TW_PARTS before each file it is handed.
 * @param {string} moduleUrl the file's import.meta.url
 * @returns {Part | null}
 */
export function partOf(moduleUrl) {
  /** @type {Record<string, Part>} */
  const parts = process.env.TW_PARTS ? JSON.parse(process.env.TW_PARTS) : {};
  return parts[relative(process.cwd(), fileURLToPath(moduleUrl))] ?? null;
}

/**
 * The items of a list this process runs: item i belongs to part i mod of (every part gets a mix
 * of early and late cases, so the parts take about as long as each other).
 * @template T @param {Part | null} part @param {readonly T[]} items @returns {T[]}
 */
export function inPart(part, items) {
  return part ? items.filter((_, i) => part.run.includes(i % part.of)) : [...items];
}

/** A suffix that tells the parts' artifacts apart: '' for a whole file, '-part1,3of3' for two parts. @param {Part | null} part */
export function partSuffix(part) {
  return part ? `-part${part.run.map((i) => i + 1).join(',')}of${part.of}` : '';
}

/** A title suffix naming the part, so the spec output and the timings tell the parts apart. @param {Part | null} part */
export function partTitle(part) {
  return part ? ` (part ${part.run.map((i) => i + 1).join(', ')} of ${part.of})` : '';
}
