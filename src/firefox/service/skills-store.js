// Skills kept in IndexedDB (docs/SKILLS.md): the user's own, the ones the agent saved with the
// user's confirmation, and which bundled ones are turned off. The only file that opens this database.
/** @import { KnowledgeSource } from '../types/knowledge' */
/** @import { StoredSkill } from '../agent/skills/catalog.js' */
/** @import { FieldError } from '../agent/front-matter.js' */
import { openDB } from '../vendor/idb.js';
import { parseSkill } from '../agent/skills/skill-format.js';

const DB_NAME = 'tabwright-skills';
const SKILLS = 'skills';
const PREFS = 'prefs';
export const MAX_SKILLS = 500;

/** @param {{ toolNames?: ReadonlySet<string>, now?: () => number }} [opts] Uses the global indexedDB (fake-indexeddb under Node). */
export function createSkillStore(opts = {}) {
  const now = opts.now ?? Date.now;
  /** @type {Promise<import('../vendor/idb.js').IDBPDatabase> | null} */
  let db = null;
  const open = () => {
    db ??= openDB(DB_NAME, 1, {
      upgrade(d) {
        d.createObjectStore(SKILLS, { keyPath: 'name' });
        d.createObjectStore(PREFS);
      },
    });
    return db;
  };

  /** @returns {Promise<(StoredSkill & { name: string })[]>} */
  async function all() {
    return (await open()).getAll(SKILLS);
  }

  /**
   * Adds or replaces (same name) a skill.
   * @param {string} text @param {Exclude<KnowledgeSource, 'bundled'>} source
   * @returns {Promise<{ ok: true, name: string } | { ok: false, errors: FieldError[] }>}
   */
  async function save(text, source) {
    const r = parseSkill(text, { source, toolNames: opts.toolNames });
    if (!r.ok) return r;
    const d = await open();
    const exists = await d.get(SKILLS, r.skill.name);
    if (!exists && (await d.count(SKILLS)) >= MAX_SKILLS) return { ok: false, errors: [{ field: 'file', message: `There are ${MAX_SKILLS} saved skills; delete one first.` }] };
    await d.put(SKILLS, { name: r.skill.name, text: text.replace(/\r\n?/g, '\n').trim() + '\n', source, updatedAt: now() });
    return { ok: true, name: r.skill.name };
  }

  return {
    all,
    save,
    /** @param {string} name */
    async remove(name) { await (await open()).delete(SKILLS, name); },
    /** @returns {Promise<string[]>} bundled skills turned off */
    async disabled() { return (await (await open()).get(PREFS, 'disabled')) ?? []; },
    /** @param {string} name @param {boolean} enabled */
    async setEnabled(name, enabled) {
      const d = await open();
      const cur = new Set(/** @type {string[]} */ ((await d.get(PREFS, 'disabled')) ?? []));
      if (enabled) cur.delete(name); else cur.add(name);
      await d.put(PREFS, [...cur].sort(), 'disabled');
    },
    /**
     * Imports an export, all or nothing: a skill that does not parse is named and nothing changes.
     * @param {unknown} data @returns {Promise<{ ok: true, count: number } | { ok: false, errors: FieldError[] }>}
     */
    async import(data) {
      const d = /** @type {any} */ (data);
      if (!d || typeof d !== 'object' || d.kind !== 'tabwright-skills' || !Array.isArray(d.skills)) {
        return { ok: false, errors: [{ field: 'file', message: 'This is not a Tabwright skills export (it has no "kind": "tabwright-skills" and "skills" list).' }] };
      }
      /** @type {FieldError[]} */
      const errors = [];
      /** @type {{ text: string, source: 'user' | 'agent' }[]} */
      const ok = [];
      d.skills.forEach((/** @type {any} */ s, /** @type {number} */ i) => {
        const text = typeof s === 'string' ? s : s?.text;
        const source = s?.source === 'agent' ? 'agent' : 'user';
        const r = typeof text === 'string' ? parseSkill(text, { source, toolNames: opts.toolNames }) : { ok: /** @type {const} */ (false), errors: [{ field: 'file', message: 'not text' }] };
        if (r.ok) ok.push({ text, source });
        else for (const e of r.errors) errors.push({ field: `skill ${i + 1} ${e.field}`, message: e.message });
      });
      if (errors.length) return { ok: false, errors };
      for (const s of ok) {
        const r = await save(s.text, s.source);
        if (!r.ok) return r;
      }
      return { ok: true, count: ok.length };
    },
    async export() {
      return { kind: 'tabwright-skills', version: 1, skills: (await all()).map((s) => ({ text: s.text, source: s.source })) };
    },
  };
}
