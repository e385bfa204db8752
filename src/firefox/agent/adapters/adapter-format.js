// One site adapter file (docs/ADAPTERS.md): front matter + guidance, checked field by field so the
// settings page can say exactly what to fix. Bundled and user adapters pass the same checks.
/** @import { Adapter, AdapterCategory, KnowledgeSource } from '../../types/knowledge' */
/** @import { FieldError } from '../front-matter.js' */
import { parseFrontMatter, stringList } from '../front-matter.js';
import { formatFrontMatter } from '../front-matter-text.js';
import { compilePattern } from '../url-patterns.js';

/** @type {readonly AdapterCategory[]} */
export const ADAPTER_CATEGORIES = ['mail', 'calendar', 'chat', 'code', 'tracker', 'docs', 'cloud', 'crm', 'payments', 'shop', 'travel', 'social', 'video', 'maps', 'finance', 'government', 'jobs', 'search', 'other'];
export const MAX_GUIDANCE_CHARS = 1200;
const FIELDS = new Set(['id', 'name', 'category', 'match', 'risk', 'tools', 'locale']);
export const ID_RE = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** @typedef {(field: string, message: string) => void} Err */
/** @typedef {{ source?: KnowledgeSource, file?: string, toolNames?: ReadonlySet<string> }} ParseOptions */

/**
 * @param {string} text the file
 * @param {ParseOptions} [opts] file: the name it was read from (its id must match); toolNames: the tools that exist
 * @returns {{ ok: true, adapter: Adapter } | { ok: false, errors: FieldError[] }}
 */
export function parseAdapter(text, opts = {}) {
  const parsed = parseFrontMatter(text);
  if (!parsed.ok) return parsed;
  const d = parsed.data;
  /** @type {FieldError[]} */
  const errors = [];
  /** @type {Err} */
  const err = (field, message) => { errors.push({ field, message }); };

  for (const k of Object.keys(d)) if (!FIELDS.has(k)) err(k, `"${k}" is not an adapter field (fields: ${[...FIELDS].join(', ')}).`);
  const id = checkId(d.id, opts.file, err);
  const name = checkName(d.name, err);
  const category = checkCategory(d.category, err);
  const match = checkMatch(d.match, err);
  const risk = checkRisk(d.risk, err);
  const tools = checkTools(d.tools, opts.toolNames, err);
  const locale = checkLocale(d.locale, err);
  const guidance = checkGuidance(parsed.body, err);
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    adapter: {
      id, name, category: /** @type {AdapterCategory} */ (category), match: /** @type {string[]} */ (match),
      risk: /** @type {'normal' | 'high'} */ (risk), tools: /** @type {string[]} */ (tools), ...(locale ? { locale } : {}),
      guidance, source: opts.source ?? 'user',
    },
  };
}

/** @param {unknown} v */
const trimmed = (v) => (typeof v === 'string' ? v.trim() : '');

/** The id: lowercase letters, digits and dashes, the file's name. @param {unknown} v @param {string | undefined} file @param {Err} err */
export function checkId(v, file, err) {
  const id = trimmed(v);
  if (!id) err('id', 'Give the adapter an id: lowercase letters, digits and dashes (github, google-maps).');
  else if (!ID_RE.test(id)) err('id', `"${id}" is not a valid id: use lowercase letters, digits and dashes.`);
  else if (file && file !== `${id}.md`) err('id', `The id "${id}" must match the file name (${file}).`);
  return id;
}

/** The site as people call it, up to 60 characters. @param {unknown} v @param {Err} err */
export function checkName(v, err) {
  const name = trimmed(v);
  if (!name) err('name', 'Give the adapter a name: the site as people call it.');
  else if (name.length > 60) err('name', `The name is ${name.length} characters; keep it to 60.`);
  return name;
}

/** @param {unknown} v @param {Err} err */
export function checkCategory(v, err) {
  const category = trimmed(v);
  if (!ADAPTER_CATEGORIES.includes(/** @type {AdapterCategory} */ (category))) err('category', `Choose a category: ${ADAPTER_CATEGORIES.join(', ')}.`);
  return category;
}

/** At least one URL pattern, each one valid. @param {unknown} v @param {Err} err */
export function checkMatch(v, err) {
  const match = stringList(v);
  if (!match || !match.length) err('match', 'List at least one URL pattern, for example [github.com] or [google.com/maps].');
  else for (const p of match) { const c = compilePattern(p); if (!c.ok) err('match', c.message); }
  return match;
}

/** normal (the default) or high. @param {unknown} v @param {Err} err */
export function checkRisk(v, err) {
  const risk = v === undefined ? 'normal' : v;
  if (risk !== 'normal' && risk !== 'high') err('risk', 'The risk is "normal" or "high" (every acting step on a high-risk site asks the user).');
  return risk;
}

/** A list of tool names, each one a tool that exists (when known). @param {unknown} v @param {ReadonlySet<string> | undefined} toolNames @param {Err} err */
export function checkTools(v, toolNames, err) {
  const tools = stringList(v);
  if (!tools) err('tools', 'tools is a list of tool names, for example [snapshot, find].');
  else if (toolNames) for (const t of tools) if (!toolNames.has(t)) err('tools', `"${t}" is not a Tabwright tool.`);
  return tools;
}

/** A language code, when given. @param {unknown} v @param {Err} err @returns {string | undefined} */
export function checkLocale(v, err) {
  if (v === undefined) return undefined;
  if (typeof v === 'string' && /^[a-z]{2,3}(?:-[A-Za-z]{2,4})?$/.test(v)) return v;
  err('locale', 'The locale is a language code such as ja, de or pt-BR.');
  return undefined;
}

/** The guidance below the front matter, up to MAX_GUIDANCE_CHARS. @param {string} guidance @param {Err} err */
export function checkGuidance(guidance, err) {
  if (!guidance) err('guidance', 'Write the guidance below the front matter: a few lines on landmarks, flows, shortcuts and pitfalls.');
  else if (guidance.length > MAX_GUIDANCE_CHARS) err('guidance', `The guidance is ${guidance.length} characters; keep it to ${MAX_GUIDANCE_CHARS}.`);
  return guidance;
}

/** The file text of an adapter (for editing and export). @param {Adapter} a */
export function formatAdapter(a) {
  return formatFrontMatter({ id: a.id, name: a.name, category: a.category, match: a.match, risk: a.risk === 'high' ? 'high' : undefined, tools: a.tools, locale: a.locale }, a.guidance);
}
