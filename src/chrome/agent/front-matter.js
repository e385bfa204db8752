// Markdown files with a YAML front matter (site adapters, skills): split the two parts and parse the
// front matter with js-yaml's JSON schema (strings, numbers, booleans, lists, maps; no tags, no code).
// Writing one back needs no YAML parser: front-matter-text.js (the panel loads that one, not js-yaml).
import { load, JSON_SCHEMA } from '../vendor/js-yaml.js';

/** @typedef {{ field: string, message: string }} FieldError */

/**
 * @param {string} text the whole file
 * @returns {{ ok: true, data: Record<string, unknown>, body: string } | { ok: false, errors: FieldError[] }}
 */
export function parseFrontMatter(text) {
  if (typeof text !== 'string') return fail('file', 'Expected the text of a Markdown file.');
  const src = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const m = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(src);
  if (!m) return fail('front matter', 'The file must start with a front matter: a line "---", the fields (name: value), and a closing "---".');
  let data;
  try {
    data = load(m[1], { schema: JSON_SCHEMA });
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    // The usual cause: a pattern such as *.example.com, which YAML reads as an alias unless quoted.
    const hint = /alias/.test(reason) ? ' A value starting with * must be in quotes, for example ["*.example.com"].'
      : /mapping|indentation/.test(reason) ? ' A value containing ": " must be in quotes.' : '';
    return fail('front matter', `The front matter is not valid YAML: ${reason}.${hint}`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return fail('front matter', 'The front matter must be a list of "field: value" lines.');
  return { ok: true, data: /** @type {Record<string, unknown>} */ (data), body: src.slice(m[0].length).trim() };
}

/** @param {string} field @param {string} message @returns {{ ok: false, errors: FieldError[] }} */
function fail(field, message) {
  return { ok: false, errors: [{ field, message }] };
}

/**
 * A list field: a YAML list of strings, or one string (a comma-separated list).
 * @param {unknown} v @returns {string[] | null} null when it is neither
 */
export function stringList(v) {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.map((s) => s.trim()).filter(Boolean);
  return null;
}
