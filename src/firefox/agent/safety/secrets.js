// Stand-in until the secrets branch lands: known secret values of a tab, in memory only.
/** @import { SecretVault } from '../../types/safety' */
import { looksLikeToken } from './secret-patterns.js';

const MASK = '••••••';

/** @returns {SecretVault} */
export function createSecretVault() {
  /** @type {Map<string, string>} value → origin */
  const known = new Map();
  /** @param {string} text */
  const forms = (text) => text;
  return {
    add(values, origin) { for (const v of values) if (v && v.length >= 4) known.set(v, origin); },
    has(text) { return [...known.keys()].some((v) => forms(text).includes(v) || text.includes(encodeURIComponent(v))); },
    find(text) { return [...known].filter(([v]) => text.includes(v) || text.includes(encodeURIComponent(v))).map(([, origin]) => ({ origin })); },
    mask(text) {
      let out = text;
      for (const v of known.keys()) out = out.split(v).join(MASK).split(encodeURIComponent(v)).join(MASK);
      return looksLikeToken(out) ? out.replace(/\S+/g, (w) => (looksLikeToken(w) ? MASK : w)) : out;
    },
    maskDeep(value) {
      if (typeof value === 'string') return /** @type {any} */ (this.mask(value));
      if (Array.isArray(value)) return /** @type {any} */ (value.map((x) => this.maskDeep(x)));
      if (value && typeof value === 'object') return /** @type {any} */ (Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.maskDeep(v)])));
      return value;
    },
    ownerOf(value) { return known.get(value) ?? null; },
  };
}
