// The adapters in force: the bundled files (bundled-adapters/bundled.js) and the user's own (Settings), the
// user's first and replacing a bundled one of the same id, minus the ones turned off. forUrl picks
// the one adapter for a page (docs/ADAPTERS.md, "Which adapter applies").
/** @import { Adapter, AdapterSettings } from '../../types/knowledge' */
/** @import { FieldError } from '../front-matter.js' */
/** @import { UrlPattern } from '../url-patterns.js' */
import { parseAdapter } from './adapter-format.js';
import { bestMatch, compilePattern, parseUrl } from '../url-patterns.js';

/**
 * @typedef {object} CatalogEntry
 * @property {Adapter} adapter
 * @property {boolean} enabled
 * @property {boolean} overridden a bundled adapter replaced by the user's of the same id
 * @property {UrlPattern[]} patterns
 */

/**
 * @param {object} opts
 * @param {readonly { file: string, text: string }[]} opts.bundled
 * @param {Partial<AdapterSettings>} [opts.settings]
 * @param {ReadonlySet<string>} [opts.toolNames]
 */
export function createAdapterCatalog({ bundled, settings = {}, toolNames }) {
  /** @type {{ file: string, errors: FieldError[] }[]} */
  const problems = [];
  const disabled = new Set(settings.disabled ?? []);
  /** @type {Map<string, CatalogEntry>} */
  const user = new Map();
  (settings.custom ?? []).forEach((text, i) => {
    const r = parseAdapter(text, { source: 'user', toolNames });
    if (r.ok) user.set(r.adapter.id, entry(r.adapter));
    else problems.push({ file: `your adapter ${i + 1}`, errors: r.errors });
  });
  /** @type {Map<string, CatalogEntry>} */
  const shipped = new Map();
  for (const f of bundled) {
    const r = parseAdapter(f.text, { source: 'bundled', file: f.file, toolNames });
    if (r.ok) shipped.set(r.adapter.id, { ...entry(r.adapter), overridden: user.has(r.adapter.id) });
    else problems.push({ file: f.file, errors: r.errors });
  }

  /** @param {Adapter} adapter @returns {CatalogEntry} */
  function entry(adapter) {
    const patterns = adapter.match.map(compilePattern).flatMap((c) => (c.ok ? [c.pattern] : []));
    return { adapter, enabled: !disabled.has(adapter.id), overridden: false, patterns };
  }

  /**
   * The adapter for a page, or null.
   * @param {string} href @returns {Adapter | null}
   */
  function forUrl(href) {
    const url = parseUrl(href);
    if (!url) return null;
    for (const group of [user, shipped]) {
      /** @type {{ e: CatalogEntry, specificity: number } | null} */
      let best = null;
      for (const e of group.values()) {
        if (!e.enabled || e.overridden) continue;
        const p = bestMatch(e.patterns, url);
        if (p && (!best || p.specificity > best.specificity)) best = { e, specificity: p.specificity };
      }
      if (best) return best.e.adapter;
    }
    return null;
  }

  /** Every adapter, the user's first, for the settings list. */
  function list() {
    return [...user.values(), ...shipped.values()].map((e) => ({ ...e.adapter, enabled: e.enabled, overridden: e.overridden }));
  }

  return { forUrl, list, problems };
}
