// execute_js's source and reply: the user's code wrapped so that it runs in the page's own world
// and always answers with one JSON string: the value, serialised and capped, or the exception with
// its stack. Browser-free: Chrome evaluates the source through CDP (Runtime.evaluate, which the
// page's CSP does not block), Firefox through the page's own eval (platform/evaluate.js).
/** @import { ToolResult } from '../types/core' */
import { fail } from './error-codes.js';

/** What the page's serialiser keeps: depth, items per list or object, characters per string. */
const LIMITS = { depth: 5, items: 100, chars: 2_000 };

/**
 * The serialiser, as the source of a function (it runs in the page, so it closes over nothing).
 * Values JSON cannot hold are named: undefined, functions, symbols, bigints, DOM nodes, errors,
 * Maps and Sets, cycles.
 */
const SERIALISE = `function (value, limits) {
  const seen = new WeakSet();
  const node = (n) => {
    if (n.nodeType === 3) return '#text ' + JSON.stringify((n.textContent || '').slice(0, 80));
    if (n.nodeType !== 1) return n.nodeName;
    const id = n.id ? '#' + n.id : '';
    const cls = typeof n.className === 'string' && n.className.trim() ? '.' + n.className.trim().split(/\\s+/).slice(0, 3).join('.') : '';
    const text = (n.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 60);
    return '<' + n.localName + id + cls + '>' + (text ? ' ' + JSON.stringify(text) : '');
  };
  const walk = (v, depth) => {
    if (v === null || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
    if (typeof v === 'string') return v.length > limits.chars ? v.slice(0, limits.chars) + '… (' + v.length + ' characters)' : v;
    if (typeof v === 'undefined') return '[undefined]';
    if (typeof v === 'bigint') return v.toString() + 'n';
    if (typeof v === 'symbol') return v.toString();
    if (typeof v === 'function') return '[function ' + (v.name || 'anonymous') + ']';
    if (typeof Node !== 'undefined' && v instanceof Node) return node(v);
    if (v instanceof Error) return { error: v.name, message: v.message, stack: String(v.stack || '').slice(0, 1500) };
    if (seen.has(v)) return '[circular]';
    if (depth >= limits.depth) return Array.isArray(v) ? '[array of ' + v.length + ']' : '[object]';
    seen.add(v);
    if (v instanceof Date) return isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString();
    if (v instanceof Map) return { map: walk([...v.entries()], depth + 1) };
    if (v instanceof Set) return { set: walk([...v.values()], depth + 1) };
    if (Array.isArray(v) || (typeof NodeList !== 'undefined' && v instanceof NodeList) || (typeof HTMLCollection !== 'undefined' && v instanceof HTMLCollection)) {
      const list = Array.from(v);
      const out = list.slice(0, limits.items).map((x) => walk(x, depth + 1));
      if (list.length > limits.items) out.push('… ' + (list.length - limits.items) + ' more');
      return out;
    }
    const out = {};
    const keys = Object.keys(v);
    for (const k of keys.slice(0, limits.items)) { try { out[k] = walk(v[k], depth + 1); } catch (e) { out[k] = '[unreadable]'; } }
    if (keys.length > limits.items) out['…'] = (keys.length - limits.items) + ' more keys';
    return out;
  };
  return walk(value, 0);
}`;

/**
 * The source to evaluate in the page: a promise of one JSON string. As an expression the code is
 * the value; as a function body (`const a = …; return a`) its return is. A syntax error stops the
 * whole source from compiling, so nothing of the code ran: the caller may try the other form.
 * @param {string} code @param {'expression' | 'body'} form
 */
export function evalSource(code, form) {
  const body = form === 'expression' ? `return (\n${code.trim().replace(/;+\s*$/, '')}\n);` : code;
  return `(async () => {
  const serialise = ${SERIALISE};
  try {
    const value = await (async () => {
${body}
    })();
    return JSON.stringify({ ok: true, type: value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value, value: serialise(value, ${JSON.stringify(LIMITS)}) });
  } catch (e) {
    const err = e !== null && typeof e === 'object' && 'message' in e ? e : { name: 'Thrown', message: String(e), stack: '' };
    return JSON.stringify({ ok: false, name: String(err.name), message: String(err.message), stack: String(err.stack || '').slice(0, 3000) });
  }
})()`;
}

/** Does the code need the function-body form (a top-level return)? Cheap guess; a syntax error retries the other form. @param {string} code @returns {'expression' | 'body'} */
export function guessForm(code) {
  return /(^|[;{}\n])\s*return\b/.test(code) ? 'body' : 'expression';
}

/**
 * How the platform reports one evaluation: the JSON string the source answered, or why the source
 * never ran (a syntax error, the page's CSP) or never answered.
 * @typedef {{ reply: string } | { compileError: { name: string, message: string } } | { blocked: string } | { timeout: true }} EvalOutcome
 */

/**
 * The tool result of an evaluation.
 * @param {EvalOutcome} out @param {number} maxChars @returns {ToolResult}
 */
export function readEvalReply(out, maxChars) {
  if ('timeout' in out) return fail('JS_TIMEOUT');
  if ('blocked' in out) return fail('JS_BLOCKED', out.blocked);
  if ('compileError' in out) return fail('JS_SYNTAX_ERROR', `${out.compileError.name}: ${out.compileError.message}`);
  /** @type {any} */
  let r;
  try { r = JSON.parse(out.reply); } catch { return fail('TOOL_FAILED', 'the page answered something that is not the evaluation result'); }
  if (!r || typeof r !== 'object') return fail('TOOL_FAILED', 'the page answered something that is not the evaluation result');
  if (!r.ok) {
    return fail('JS_EXCEPTION', `${r.name}: ${r.message}${r.stack ? `\n${String(r.stack).slice(0, 1500)}` : ''}`);
  }
  let text = JSON.stringify(r.value, null, 1) ?? 'undefined';
  const truncated = text.length > maxChars;
  if (truncated) text = `${text.slice(0, maxChars)}… (${text.length} characters in all; return less, or a part of it)`;
  return { ok: true, data: { type: r.type, value: text, ...(truncated ? { truncated: true } : {}) } };
}
