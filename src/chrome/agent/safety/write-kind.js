// What one answer covers (browser-free): a write's kind is its method, origin, path, body keys and,
// for GraphQL and JSON-RPC, its operation. "Allow once" covers the same kind for the rest of the step
// (agent/safety/guard.js), "Allow for this task" the same kind at the same or a lower severity for the
// rest of the run (agent/safety/policy.js): a harmless operation allowed on a site's one RPC endpoint
// does not let another operation through, nor the same path with other fields.
/** @import { HeldRequest } from '../../types/safety' */
import { expandJson, parseBody } from './request-body.js';

/**
 * The fields of a request: the platform's, else parsed from its body.
 * @param {Pick<HeldRequest, 'body' | 'fields'>} req @returns {[string, string][]}
 */
export function fieldsOf(req) {
  if (req.fields?.length) return expandJson(req.fields);
  return req.body ? parseBody({ text: req.body }).fields ?? [] : [];
}

/** Body keys, sorted, with array positions folded ("items.3.name" → "items.#.name"). @param {[string, string][]} fields */
export function bodyKeys(fields) {
  return [...new Set(fields.map(([k]) => k.replace(/\.\d+(?=\.|$)/g, '.#')))].sort();
}

/**
 * The GraphQL or JSON-RPC operation a body runs: "mutation DeleteRepo {deleteRepository}", "rpc
 * transfer.create", or '' when it is neither. A GraphQL operation is named by its type, its name and
 * its top-level fields, so a request that keeps a harmless name but runs other fields is another one.
 * @param {Pick<HeldRequest, 'body' | 'fields'>} req
 */
export function operationOf(req) {
  const fields = new Map(fieldsOf(req).map(([k, v]) => [k, v]));
  /** @type {any} */
  let json = null;
  try { json = req.body ? JSON.parse(req.body) : null; } catch { /* not JSON */ }
  /** @type {any[]} */
  const items = Array.isArray(json) ? json : json ? [json] : [];
  /** @type {string[]} */
  const ops = [];
  for (const j of items) {
    if (!j || typeof j !== 'object') continue;
    if (typeof j.query === 'string') ops.push(graphqlOperation(j.query, j.operationName));
    else if (typeof j.method === 'string' && ('jsonrpc' in j || 'params' in j || 'id' in j)) ops.push(`rpc ${j.method}`);
  }
  if (!ops.length && fields.has('query')) ops.push(graphqlOperation(String(fields.get('query')), fields.get('operationName')));
  return ops.join(' + ');
}

/** @param {string} query @param {unknown} name */
function graphqlOperation(query, name) {
  const head = /^\s*(query|mutation|subscription)\b\s*([_A-Za-z]\w*)?/.exec(query.replace(/#[^\n]*/g, ''));
  const type = head?.[1] ?? 'query';
  const opName = typeof name === 'string' && name ? name : head?.[2] ?? '';
  return `${type}${opName ? ` ${opName}` : ''} {${topFields(query).join(' ')}}`;
}

/** The top-level field names of a GraphQL document's first operation (aliases resolved to the field). @param {string} query */
function topFields(query) {
  const start = query.indexOf('{');
  if (start < 0) return [];
  /** @type {string[]} */
  const out = [];
  let depth = 0, paren = 0;
  for (let i = start; i < query.length; i++) {
    const c = query[i];
    if (c === '(') paren++;
    else if (c === ')') paren--;
    else if (paren) continue;
    else if (c === '{') depth++;
    else if (c === '}') { if (--depth === 0) break; }
    else if (depth === 1 && /[_A-Za-z]/.test(c) && !/[\w]/.test(query[i - 1] ?? '')) {
      const m = /^([_A-Za-z]\w*)(\s*:\s*([_A-Za-z]\w*))?/.exec(query.slice(i));
      if (m) { out.push(m[3] ?? m[1]); i += m[0].length - 1; }
    }
  }
  return out;
}

/**
 * The kind of a write: what one answer covers.
 * @param {HeldRequest} req @returns {string}
 */
export function writeKind(req) {
  let where = req.url;
  try { const u = new URL(req.url); where = `${u.origin}${u.pathname}`; } catch { /* keep the URL */ }
  const op = operationOf(req);
  return `${req.method} ${where} [${bodyKeys(fieldsOf(req)).join(',')}]${op ? ` ${op}` : ''}`;
}
