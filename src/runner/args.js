// The command line of `tabwright`: --flag value pairs (repeatable ones gathered into lists),
// --switch booleans, and the rest as positional words.

/**
 * @param {string[]} argv @param {{ lists?: string[], switches?: string[] }} [kinds]
 * @returns {{ words: string[], flags: Record<string, string>, lists: Record<string, string[]>, switches: Set<string> }}
 */
export function parseArgs(argv, kinds = {}) {
  const lists = new Set(kinds.lists ?? []);
  const switchNames = new Set(kinds.switches ?? []);
  /** @type {string[]} */
  const words = [];
  /** @type {Record<string, string>} */
  const flags = {};
  /** @type {Record<string, string[]>} */
  const listed = {};
  const switches = new Set();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) { words.push(a); continue; }
    const [name, inline] = a.slice(2).split(/=(.*)/s, 2);
    if (switchNames.has(name)) { switches.add(name); continue; }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value.`);
    if (lists.has(name)) (listed[name] ??= []).push(value); else flags[name] = value;
  }
  return { words, flags, lists: listed, switches };
}

/** "name=value" pairs into an object. @param {string[]} pairs */
export function valuesOf(pairs) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const p of pairs) {
    const at = p.indexOf('=');
    if (at < 1) throw new UsageError(`--value takes name=value, not "${p}".`);
    out[p.slice(0, at)] = p.slice(at + 1);
  }
  return out;
}

/** A mistake on the command line (exit 64). */
export class UsageError extends Error {}

/** @param {string | undefined} v @param {number} fallback @param {string} what */
export function numberArg(v, fallback, what) {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${what} must be a positive number, not "${v}".`);
  return n;
}
