// The user's side of the site adapters, in storage.local (`adapters`): their own adapter files and the
// ids they turned off. Nothing is stored that does not parse (docs/ADAPTERS.md).
/** @import { AdapterSettings } from '../types/knowledge' */
/** @import { FieldError } from '../agent/front-matter.js' */
/** @import { StorageArea } from './settings.js' */
import { parseAdapter, ID_RE } from '../agent/adapters/adapter-format.js';

/** At most this many adapters of the user's own (each at most a few KB). */
export const MAX_CUSTOM_ADAPTERS = 200;

/** @param {StorageArea} area @param {ReadonlySet<string>} [toolNames] */
export function createAdapterStore(area, toolNames) {
  /** @returns {Promise<AdapterSettings>} */
  async function get() {
    const { adapters } = await area.get('adapters');
    const a = adapters && typeof adapters === 'object' ? adapters : {};
    return {
      custom: Array.isArray(a.custom) ? a.custom.filter((/** @type {unknown} */ x) => typeof x === 'string') : [],
      disabled: Array.isArray(a.disabled) ? a.disabled.filter((/** @type {unknown} */ x) => typeof x === 'string' && ID_RE.test(x)) : [],
    };
  }

  /** @param {AdapterSettings} next */
  async function put(next) {
    await area.set({ adapters: next });
  }

  return {
    get,
    /** @param {string} id @param {boolean} enabled */
    async setEnabled(id, enabled) {
      const cur = await get();
      const disabled = new Set(cur.disabled);
      if (enabled) disabled.delete(id); else disabled.add(id);
      await put({ ...cur, disabled: [...disabled].sort() });
    },
    /**
     * Adds or replaces (same id) one of the user's adapters.
     * @param {string} text
     * @returns {Promise<{ ok: true, id: string } | { ok: false, errors: FieldError[] }>}
     */
    async save(text) {
      const r = parseAdapter(text, { source: 'user', toolNames });
      if (!r.ok) return r;
      const cur = await get();
      const others = cur.custom.filter((t) => { const p = parseAdapter(t); return !p.ok || p.adapter.id !== r.adapter.id; });
      if (others.length >= MAX_CUSTOM_ADAPTERS) return { ok: false, errors: [{ field: 'file', message: `You have ${MAX_CUSTOM_ADAPTERS} adapters of your own; delete one first.` }] };
      await put({ ...cur, custom: [...others, text.replace(/\r\n?/g, '\n').trim() + '\n'] });
      return { ok: true, id: r.adapter.id };
    },
    /** @param {string} id */
    async remove(id) {
      const cur = await get();
      await put({ ...cur, custom: cur.custom.filter((t) => { const p = parseAdapter(t); return !p.ok || p.adapter.id !== id; }) });
    },
    /**
     * Imports an export (adapters and the off list). All or nothing: any adapter that does not
     * parse is named with its problems and nothing changes.
     * @param {unknown} data
     * @returns {Promise<{ ok: true, count: number } | { ok: false, errors: FieldError[] }>}
     */
    async import(data) {
      const d = /** @type {any} */ (data);
      if (!d || typeof d !== 'object' || d.kind !== 'tabwright-adapters' || !Array.isArray(d.adapters)) {
        return { ok: false, errors: [{ field: 'file', message: 'This is not a Tabwright adapters export (it has no "kind": "tabwright-adapters" and "adapters" list).' }] };
      }
      /** @type {FieldError[]} */
      const errors = [];
      /** @type {Map<string, string>} */
      const byId = new Map();
      d.adapters.forEach((/** @type {unknown} */ t, /** @type {number} */ i) => {
        const r = typeof t === 'string' ? parseAdapter(t, { source: 'user', toolNames }) : { ok: /** @type {const} */ (false), errors: [{ field: 'file', message: 'not text' }] };
        if (r.ok) byId.set(r.adapter.id, /** @type {string} */ (t));
        else for (const e of r.errors) errors.push({ field: `adapter ${i + 1} ${e.field}`, message: e.message });
      });
      if (errors.length) return { ok: false, errors };
      const cur = await get();
      const kept = cur.custom.filter((t) => { const p = parseAdapter(t); return !p.ok || !byId.has(p.adapter.id); });
      const custom = [...kept, ...byId.values()];
      if (custom.length > MAX_CUSTOM_ADAPTERS) return { ok: false, errors: [{ field: 'file', message: `That would make ${custom.length} adapters of your own; the limit is ${MAX_CUSTOM_ADAPTERS}.` }] };
      const disabled = Array.isArray(d.disabled) ? d.disabled.filter((/** @type {unknown} */ x) => typeof x === 'string' && ID_RE.test(x)) : cur.disabled;
      await put({ custom, disabled });
      return { ok: true, count: byId.size };
    },
    /** The user's adapters and off list, as a file. */
    async export() {
      const cur = await get();
      return { kind: 'tabwright-adapters', version: 1, adapters: cur.custom, disabled: cur.disabled };
    },
  };
}
