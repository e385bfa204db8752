// One skill file (docs/SKILLS.md): front matter + the prompt, checked field by field; and the prompt
// a run of it sends, with its parameters filled in.
/** @import { Skill, SkillParameter, KnowledgeSource } from '../../types/knowledge' */
/** @import { Mode } from '../../types/core' */
/** @import { FieldError } from '../front-matter.js' */
import { parseFrontMatter, stringList } from '../front-matter.js';
import { compilePattern } from '../url-patterns.js';

export const SKILL_NAME_RE = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/;
const PARAM_RE = /^[a-z][a-z0-9_]{0,31}$/;
const FIELDS = new Set(['name', 'title', 'description', 'mode', 'match', 'tools', 'parameters']);
const MODES = /** @type {readonly Mode[]} */ (['ask', 'act', 'plan']);
export const MAX_SKILL_BODY = 6000;
const PLACEHOLDER = /\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g;

/** @typedef {(field: string, message: string) => void} Err */

/**
 * @param {string} text the file
 * @param {{ source?: KnowledgeSource, file?: string, toolNames?: ReadonlySet<string> }} [opts]
 * @returns {{ ok: true, skill: Skill } | { ok: false, errors: FieldError[] }}
 */
export function parseSkill(text, opts = {}) {
  const parsed = parseFrontMatter(text);
  if (!parsed.ok) return parsed;
  const d = parsed.data;
  /** @type {FieldError[]} */
  const errors = [];
  /** @type {Err} */
  const err = (field, message) => { errors.push({ field, message }); };
  for (const k of Object.keys(d)) if (!FIELDS.has(k)) err(k, `"${k}" is not a skill field (fields: ${[...FIELDS].join(', ')}).`);

  const name = checkSkillName(d.name, opts.file, err);
  const title = checkShortText(d.title, 'title', 40, 'Give the skill a title: a few words shown on its button.', err);
  const description = checkShortText(d.description, 'description', 160, 'Describe in one sentence what the skill does.', err);
  const mode = checkMode(d.mode, err);
  const match = checkPatterns(d.match, err);
  const tools = checkToolList(d.tools, opts.toolNames, err);
  const parameters = readParameters(d.parameters, err);
  const body = checkPrompt(parsed.body, parameters, err);
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    skill: {
      name, title, description, mode: /** @type {Mode} */ (mode), match: /** @type {string[]} */ (match), tools: /** @type {string[]} */ (tools),
      parameters: /** @type {SkillParameter[]} */ (parameters), body, source: opts.source ?? 'user',
    },
  };
}

/** @param {unknown} v */
const trimmed = (v) => (typeof v === 'string' ? v.trim() : '');

/** What is typed after "/": lowercase letters, digits and dashes, the file's name. @param {unknown} v @param {string | undefined} file @param {Err} err */
export function checkSkillName(v, file, err) {
  const name = trimmed(v);
  if (!name) err('name', 'Give the skill a name: lowercase letters, digits and dashes; it is what you type after "/".');
  else if (!SKILL_NAME_RE.test(name)) err('name', `"${name}" is not a valid name: use lowercase letters, digits and dashes (up to 48).`);
  else if (file && file !== `${name}.md`) err('name', `The name "${name}" must match the file name (${file}).`);
  return name;
}

/**
 * A required line of text up to `max` characters (the title, the description).
 * @param {unknown} v @param {string} field @param {number} max @param {string} missing what to say when it is absent @param {Err} err
 */
export function checkShortText(v, field, max, missing, err) {
  const text = trimmed(v);
  if (!text) err(field, missing);
  else if (text.length > max) err(field, `The ${field} is ${text.length} characters; keep it to ${max}.`);
  return text;
}

/** ask (the default), act or plan. @param {unknown} v @param {Err} err */
export function checkMode(v, err) {
  const mode = v === undefined ? 'ask' : v;
  if (!MODES.includes(/** @type {Mode} */ (mode))) err('mode', 'The mode is ask, act or plan.');
  return mode;
}

/** URL patterns (none: every page), each one valid. @param {unknown} v @param {Err} err */
export function checkPatterns(v, err) {
  const match = stringList(v);
  if (!match) err('match', 'match is a list of URL patterns, for example [github.com].');
  else for (const p of match) { const c = compilePattern(p); if (!c.ok) err('match', c.message); }
  return match;
}

/** A list of tool names, each one a tool that exists (when known). @param {unknown} v @param {ReadonlySet<string> | undefined} toolNames @param {Err} err */
export function checkToolList(v, toolNames, err) {
  const tools = stringList(v);
  if (!tools) err('tools', 'tools is a list of tool names, for example [snapshot, read_page].');
  else if (toolNames) for (const t of tools) if (!toolNames.has(t)) err('tools', `"${t}" is not a Tabwright tool.`);
  return tools;
}

/**
 * The prompt, up to MAX_SKILL_BODY, using every parameter and no other.
 * @param {string} body @param {SkillParameter[] | null} parameters @param {Err} err
 */
export function checkPrompt(body, parameters, err) {
  if (!body) err('prompt', 'Write the prompt below the front matter.');
  else if (body.length > MAX_SKILL_BODY) err('prompt', `The prompt is ${body.length} characters; keep it to ${MAX_SKILL_BODY}.`);
  if (parameters) {
    const used = new Set([...body.matchAll(PLACEHOLDER)].map((m) => m[1]));
    for (const u of used) if (!parameters.some((p) => p.name === u)) err('prompt', `The prompt uses {{${u}}}, which is not one of the parameters.`);
    for (const p of parameters) if (!used.has(p.name)) err('parameters', `The parameter "${p.name}" is not used in the prompt (write {{${p.name}}} where its value goes).`);
  }
  return body;
}

/**
 * @param {unknown} v @param {(field: string, message: string) => void} err
 * @returns {SkillParameter[] | null}
 */
function readParameters(v, err) {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) { err('parameters', 'parameters is a list; each item has a name, a description and, if it is optional, a default.'); return null; }
  /** @type {SkillParameter[]} */
  const out = [];
  v.forEach((p, i) => {
    const at = `parameters ${i + 1}`;
    if (!p || typeof p !== 'object' || Array.isArray(p)) { err(at, 'Each parameter is a name, a description and an optional default.'); return; }
    const { name, description, default: def, ...rest } = /** @type {Record<string, unknown>} */ (p);
    for (const k of Object.keys(rest)) err(at, `"${k}" is not a parameter field (name, description, default).`);
    if (typeof name !== 'string' || !PARAM_RE.test(name)) { err(at, 'A parameter name is lowercase letters, digits and underscores, starting with a letter.'); return; }
    if (out.some((o) => o.name === name)) err(at, `The parameter "${name}" is listed twice.`);
    if (typeof description !== 'string' || !description.trim()) err(at, `Describe the parameter "${name}" (the question the user is asked).`);
    if (def !== undefined && typeof def !== 'string' && typeof def !== 'number' && typeof def !== 'boolean') err(at, `The default of "${name}" must be text.`);
    out.push({ name, description: String(description ?? '').trim(), ...(def === undefined || def === null ? {} : { default: String(def) }) });
  });
  return out;
}

/**
 * The prompt a run of the skill sends, its parameters filled in. A parameter the user left empty
 * takes its default; a required one missing is an error naming it.
 * @param {Skill} skill @param {Record<string, string>} values
 * @returns {{ ok: true, text: string } | { ok: false, missing: string[] }}
 */
export function fillSkill(skill, values) {
  const missing = skill.parameters.filter((p) => p.default === undefined && !String(values[p.name] ?? '').trim()).map((p) => p.name);
  if (missing.length) return { ok: false, missing };
  const value = (/** @type {string} */ n) => {
    const given = String(values[n] ?? '').trim();
    return given || skill.parameters.find((p) => p.name === n)?.default || '';
  };
  return { ok: true, text: skill.body.replace(PLACEHOLDER, (_, n) => value(n)) };
}
