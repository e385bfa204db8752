// One site adapter file (docs/ADAPTERS.md): front matter + guidance, checked field by field so the
// settings page can say exactly what to fix. Bundled and user adapters pass the same checks.
/** @import { Adapter, AdapterCategory, KnowledgeSource } from '../../types/knowledge' */
/** @import { FieldError } from '../front-matter.js' */
import { parseFrontMatter, stringList, formatFrontMatter } from '../front-matter.js';
import { compilePattern } from '../url-patterns.js';

/** @type {readonly AdapterCategory[]} */
export const ADAPTER_CATEGORIES = ['mail', 'calendar', 'chat', 'code', 'tracker', 'docs', 'cloud', 'crm', 'payments', 'shop', 'travel', 'social', 'video', 'maps', 'finance', 'government', 'jobs', 'search', 'other'];
export const MAX_GUIDANCE_CHARS = 1200;
const FIELDS = new Set(['id', 'name', 'category', 'match', 'risk', 'tools', 'locale']);
export const ID_RE = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/**
 * @param {string} text the file
 * @param {{ source?: KnowledgeSource, file?: string, toolNames?: ReadonlySet<string> }} [opts] file: the name it was read from (its id must match); toolNames: the tools that exist
 * @returns {{ ok: true, adapter: Adapter } | { ok: false, errors: FieldError[] }}
 */
export function parseAdapter(text, opts = {}) {
  const parsed = parseFrontMatter(text);
  if (!parsed.ok) return parsed;
  const d = parsed.data;
  /** @type {FieldError[]} */
  const errors = [];
  const err = (/** @type {string} */ field, /** @type {string} */ message) => { errors.push({ field, message }); };

  for (const k of Object.keys(d)) if (!FIELDS.has(k)) err(k, `"${k}" is not an adapter field (fields: ${[...FIELDS].join(', ')}).`);
  const id = typeof d.id === 'string' ? d.id.trim() : '';
  if (!id) err('id', 'Give the adapter an id: lowercase letters, digits and dashes (github, google-maps).');
  else if (!ID_RE.test(id)) err('id', `"${id}" is not a valid id: use lowercase letters, digits and dashes.`);
  else if (opts.file && opts.file !== `${id}.md`) err('id', `The id "${id}" must match the file name (${opts.file}).`);
  const name = typeof d.name === 'string' ? d.name.trim() : '';
  if (!name) err('name', 'Give the adapter a name: the site as people call it.');
  else if (name.length > 60) err('name', `The name is ${name.length} characters; keep it to 60.`);
  const category = typeof d.category === 'string' ? d.category.trim() : '';
  if (!ADAPTER_CATEGORIES.includes(/** @type {AdapterCategory} */ (category))) err('category', `Choose a category: ${ADAPTER_CATEGORIES.join(', ')}.`);
  const match = stringList(d.match);
  if (!match || !match.length) err('match', 'List at least one URL pattern, for example [github.com] or [google.com/maps].');
  else for (const p of match) { const c = compilePattern(p); if (!c.ok) err('match', c.message); }
  const risk = d.risk === undefined ? 'normal' : d.risk;
  if (risk !== 'normal' && risk !== 'high') err('risk', 'The risk is "normal" or "high" (every acting step on a high-risk site asks the user).');
  const tools = stringList(d.tools);
  if (!tools) err('tools', 'tools is a list of tool names, for example [snapshot, find].');
  else if (opts.toolNames) for (const t of tools) if (!opts.toolNames.has(t)) err('tools', `"${t}" is not a Tabwright tool.`);
  const locale = d.locale === undefined ? undefined : typeof d.locale === 'string' && /^[a-z]{2,3}(?:-[A-Za-z]{2,4})?$/.test(d.locale) ? d.locale : null;
  if (locale === null) err('locale', 'The locale is a language code such as ja, de or pt-BR.');
  const guidance = parsed.body;
  if (!guidance) err('guidance', 'Write the guidance below the front matter: a few lines on landmarks, flows, shortcuts and pitfalls.');
  else if (guidance.length > MAX_GUIDANCE_CHARS) err('guidance', `The guidance is ${guidance.length} characters; keep it to ${MAX_GUIDANCE_CHARS}.`);
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

/** The file text of an adapter (for editing and export). @param {Adapter} a */
export function formatAdapter(a) {
  return formatFrontMatter({ id: a.id, name: a.name, category: a.category, match: a.match, risk: a.risk === 'high' ? 'high' : undefined, tools: a.tools, locale: a.locale }, a.guidance);
}
