// The skills in force: the bundled files (bundled-skills/bundled.js) and the ones kept in IndexedDB (the
// user's and those the agent saved with the user's confirmation), a kept skill replacing a bundled
// one of the same name, minus the bundled ones turned off.
/** @import { Skill, KnowledgeSource } from '../../types/knowledge' */
/** @import { FieldError } from '../front-matter.js' */
/** @import { UrlPattern } from '../url-patterns.js' */
import { parseSkill } from './skill-format.js';
import { bestMatch, compilePattern, parseUrl } from '../url-patterns.js';

/** @typedef {{ text: string, source: KnowledgeSource, updatedAt: number }} StoredSkill */

/**
 * @param {object} opts
 * @param {readonly { file: string, text: string }[]} opts.bundled
 * @param {readonly StoredSkill[]} [opts.stored]
 * @param {readonly string[]} [opts.disabled] names of bundled skills turned off
 * @param {ReadonlySet<string>} [opts.toolNames]
 */
export function createSkillCatalog({ bundled, stored = [], disabled = [], toolNames }) {
  /** @type {{ file: string, errors: FieldError[] }[]} */
  const problems = [];
  const off = new Set(disabled);
  /** @type {Map<string, { skill: Skill, patterns: UrlPattern[] }>} */
  const byName = new Map();
  for (const f of bundled) {
    const r = parseSkill(f.text, { source: 'bundled', file: f.file, toolNames });
    if (r.ok) byName.set(r.skill.name, entry({ ...r.skill, disabled: off.has(r.skill.name) }));
    else problems.push({ file: f.file, errors: r.errors });
  }
  for (const s of stored) {
    const r = parseSkill(s.text, { source: s.source, toolNames });
    if (r.ok) byName.set(r.skill.name, entry({ ...r.skill, updatedAt: s.updatedAt }));
    else problems.push({ file: `saved skill ${s.text.slice(0, 40)}`, errors: r.errors });
  }

  /** @param {Skill} skill */
  function entry(skill) {
    return { skill, patterns: skill.match.map(compilePattern).flatMap((c) => (c.ok ? [c.pattern] : [])) };
  }

  /** Every skill, site-specific ones first within each source. */
  function list() {
    return [...byName.values()].map((e) => e.skill);
  }

  /** @param {string} name */
  function get(name) {
    const e = byName.get(name);
    return e && !e.skill.disabled ? e.skill : null;
  }

  /**
   * The skills for a page: the ones whose patterns match it (most specific first), then the ones
   * for any page. Turned-off skills are left out.
   * @param {string} href
   */
  function forUrl(href) {
    const url = parseUrl(href);
    /** @type {{ skill: Skill, specificity: number }[]} */
    const site = [];
    /** @type {Skill[]} */
    const general = [];
    for (const e of byName.values()) {
      if (e.skill.disabled) continue;
      if (!e.patterns.length) { general.push(e.skill); continue; }
      const p = url ? bestMatch(e.patterns, url) : null;
      if (p) site.push({ skill: e.skill, specificity: p.specificity });
    }
    site.sort((a, b) => b.specificity - a.specificity || a.skill.name.localeCompare(b.skill.name));
    return [...site.map((x) => x.skill), ...general.sort((a, b) => a.name.localeCompare(b.name))];
  }

  return { list, get, forUrl, problems };
}
