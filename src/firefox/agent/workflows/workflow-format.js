// Checks a workflow before it is stored (a save from the review page, an import, a repair saved
// back): every field in range, steps only of replayable tools, targets as fingerprints and never
// refs, selectors or points, placeholders only of declared parameters, and no value for a secret.
/** @import { Workflow } from '../../types/workflows' */
import { REPLAYABLE } from './compile.js';
import { placeholdersIn } from './params.js';

export const WORKFLOW_LIMITS = Object.freeze({ name: 120, description: 2_000, steps: 200, params: 30, text: 10_000 });
const PARAM_NAME = /^[a-z][a-z0-9_]{0,39}$/;
const ADDRESSING = ['ref', 'selector', 'x', 'y', 'frame_id'];

/** @typedef {{ field: string, message: string }} FieldError */

/**
 * @param {unknown} value
 * @returns {{ ok: true, workflow: Workflow } | { ok: false, errors: FieldError[] }}
 */
export function checkWorkflow(value) {
  /** @type {FieldError[]} */
  const errors = [];
  const bad = (/** @type {string} */ field, /** @type {string} */ message) => { errors.push({ field, message }); };
  const w = /** @type {Record<string, any>} */ (value && typeof value === 'object' ? value : {});
  if (w.v !== 1) bad('v', 'must be 1 (a Tabwright workflow)');
  if (typeof w.name !== 'string' || !w.name.trim() || w.name.length > WORKFLOW_LIMITS.name) bad('name', `must be a name of 1 to ${WORKFLOW_LIMITS.name} characters`);
  if (w.description !== undefined && (typeof w.description !== 'string' || w.description.length > WORKFLOW_LIMITS.description)) bad('description', `must be text of at most ${WORKFLOW_LIMITS.description} characters`);
  if (!isHttpUrl(w.start?.url)) bad('start.url', 'must be an http(s) address');
  const params = Array.isArray(w.params) ? w.params : (bad('params', 'must be a list'), []);
  if (params.length > WORKFLOW_LIMITS.params) bad('params', `must hold at most ${WORKFLOW_LIMITS.params} parameters`);
  const names = new Set();
  params.forEach((/** @type {any} */ p, /** @type {number} */ i) => {
    if (!PARAM_NAME.test(p?.name ?? '')) bad(`params[${i}].name`, 'must be lower-case letters, digits and _ (starting with a letter)');
    else if (names.has(p.name)) bad(`params[${i}].name`, `"${p.name}" is used twice`);
    names.add(p?.name);
    if (typeof p?.label !== 'string' || p.label.length > 200) bad(`params[${i}].label`, 'must be text');
    if (p?.default !== undefined && (typeof p.default !== 'string' || p.default.length > WORKFLOW_LIMITS.text)) bad(`params[${i}].default`, 'must be text');
    if (p?.secret === true && p.default !== undefined) bad(`params[${i}].default`, 'a secret parameter never keeps a value');
  });
  const steps = Array.isArray(w.steps) ? w.steps : (bad('steps', 'must be a list'), []);
  if (!steps.length || steps.length > WORKFLOW_LIMITS.steps) bad('steps', `must hold 1 to ${WORKFLOW_LIMITS.steps} steps`);
  steps.forEach((/** @type {any} */ s, /** @type {number} */ i) => checkStep(s, `steps[${i}]`, names, bad));
  for (const n of placeholdersIn(String(w.summary ?? ''))) if (!names.has(n)) bad('summary', `uses {{${n}}}, which is no parameter`);
  if (errors.length) return { ok: false, errors };
  return { ok: true, workflow: /** @type {Workflow} */ ({ ...w, name: w.name.trim(), description: w.description ?? '' }) };
}

/** @param {any} s @param {string} at @param {Set<string>} names @param {(f: string, m: string) => void} bad */
function checkStep(s, at, names, bad) {
  if (!REPLAYABLE.has(s?.tool)) { bad(`${at}.tool`, `must be one of ${[...REPLAYABLE].join(', ')}`); return; }
  if (s.target !== undefined && (typeof s.target?.role !== 'string' || typeof s.target?.name !== 'string' || !s.target.name || typeof (s.target.landmark ?? '') !== 'string')) bad(`${at}.target`, 'must be { role, name, landmark }');
  if (!s.args || typeof s.args !== 'object' || Array.isArray(s.args)) { bad(`${at}.args`, 'must be an object'); return; }
  for (const k of ADDRESSING) if (s.args[k] !== undefined) bad(`${at}.args.${k}`, 'a workflow names elements by their fingerprint, never by ref, selector or position');
  if (JSON.stringify(s.args).length > WORKFLOW_LIMITS.text) bad(`${at}.args`, 'are too long');
  for (const n of placeholdersIn(JSON.stringify(s.args))) if (!names.has(n)) bad(`${at}.args`, `use {{${n}}}, which is no parameter`);
  if (typeof s.page?.origin !== 'string' || typeof s.page?.path !== 'string') bad(`${at}.page`, 'must be { origin, path }');
  if (s.sees !== undefined && typeof s.sees !== 'string') bad(`${at}.sees`, 'must be text');
}

/** @param {unknown} v */
function isHttpUrl(v) {
  try { const u = new URL(String(v)); return u.protocol === 'http:' || u.protocol === 'https:'; } catch { return false; }
}

/** The sentence for a refused workflow. @param {FieldError[]} errors */
export function workflowErrorMessage(errors) {
  return `The workflow was not saved: ${errors.slice(0, 6).map((e) => `${e.field} ${e.message}`).join('; ')}${errors.length > 6 ? ` (and ${errors.length - 6} more)` : ''}.`;
}
