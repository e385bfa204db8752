// Parameters and pages of workflows: "{{name}}" placeholders filled at replay, a typed
// value turned into a parameter or back into a fixed value, and the URL family a step runs on.
/** @import { PagePattern, Workflow, WorkflowParam } from '../../types/workflows' */

const PLACEHOLDER = /\{\{([a-z][a-z0-9_]*)\}\}/g;

/**
 * A parameter name from the field's label: "Full name" → full_name; unique among taken ones.
 * @param {string} label @param {Set<string>} taken
 */
export function paramName(label, taken) {
  const base = String(label ?? '').normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').replace(/^(\d)/, 'p_$1').slice(0, 40) || 'value';
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}

/** The parameters a text uses. @param {string} text @returns {string[]} */
export function placeholdersIn(text) {
  return [...String(text).matchAll(PLACEHOLDER)].map((m) => m[1]);
}

/**
 * Every "{{name}}" in every string of a value replaced by its value.
 * @template T @param {T} v @param {Record<string, string>} values @returns {T}
 */
export function fillDeep(v, values) {
  if (typeof v === 'string') return /** @type {T} */ (/** @type {unknown} */ (v.replace(PLACEHOLDER, (all, name) => (Object.hasOwn(values, name) ? values[name] : all))));
  if (Array.isArray(v)) return /** @type {T} */ (/** @type {unknown} */ (v.map((x) => fillDeep(x, values))));
  if (v && typeof v === 'object') {
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = fillDeep(x, values);
    return /** @type {T} */ (/** @type {unknown} */ (out));
  }
  return v;
}

/**
 * The values a replay runs with: the user's, else each parameter's default. A parameter with
 * neither (a secret, always) is missing.
 * @param {WorkflowParam[]} params @param {Record<string, unknown>} given
 * @returns {{ ok: true, values: Record<string, string> } | { ok: false, missing: WorkflowParam[] }}
 */
export function resolveValues(params, given) {
  /** @type {Record<string, string>} */
  const values = {};
  const missing = [];
  for (const p of params) {
    const v = given?.[p.name];
    if (typeof v === 'string' && (v !== '' || p.default === undefined)) values[p.name] = v;
    else if (p.default !== undefined && !p.secret) values[p.name] = p.default;
    else missing.push(p);
  }
  return missing.length ? { ok: false, missing } : { ok: true, values };
}

/**
 * A parameter made a fixed value again: its placeholders become its default, and it leaves the
 * list. A secret (it has no value to fix) stays a parameter.
 * @param {Workflow} wf @param {string} name @returns {Workflow}
 */
export function fixParam(wf, name) {
  const p = wf.params.find((x) => x.name === name);
  if (!p || p.secret || p.default === undefined) return wf;
  const values = { [name]: p.default };
  return { ...wf, params: wf.params.filter((x) => x.name !== name), steps: fillDeep(wf.steps, values), summary: wf.summary === undefined ? undefined : fillDeep(wf.summary, values) };
}

/** A path segment that names one record rather than a page: numbers, long hex, UUIDs. @param {string} seg */
const idLike = (seg) => /^\d+$/.test(seg) || /^[0-9a-f]{12,}$/i.test(seg) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(seg);

/**
 * The URL family a step runs on: its origin, and its path with record ids as "*"; the query is
 * left out (it carries the values).
 * @param {string} url @returns {PagePattern}
 */
export function pagePattern(url) {
  try {
    const u = new URL(url);
    const path = u.pathname.split('/').map((seg) => (idLike(seg) ? '*' : seg)).join('/').replace(/\/index\.html?$/i, '/') || '/';
    return { origin: u.origin, path };
  } catch {
    return { origin: '', path: String(url ?? '') };
  }
}

/** @param {PagePattern} pattern @param {string} url */
export function onPage(pattern, url) {
  const here = pagePattern(url);
  if (here.origin !== pattern.origin) return false;
  const a = here.path.split('/');
  const b = pattern.path.split('/');
  return a.length === b.length && b.every((seg, i) => seg === '*' || seg === a[i] || (idLike(a[i]) && seg === '*'));
}

/** A page pattern as a person reads it. @param {PagePattern} p */
export function describePage(p) {
  return `${p.origin}${p.path}`;
}
