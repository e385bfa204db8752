// The shapes in which a JSON answer says how a write went, as APIs write them: success flags and
// error fields, GraphQL errors (beside data or instead of it, and mutations' userErrors), items of a
// batch refused one by one, counts lower than what was sent, an echoed object that lacks a field
// the request set, "queued"/"pending" states. Browser-free; used by answer-reading.js.

const ERROR_WORDS = /^(error|errors|fail|failed|failure|rejected|refused|denied|invalid|forbidden|not_ok|ko)$/i;
const PENDING_WORDS = /^(queued|pending|processing|accepted|scheduled|in[_ -]?progress|running|enqueued|waiting|submitted)$/i;
/** Keys whose value, in a batch answer, lists the items one by one. */
const ITEM_LISTS = ['results', 'items', 'data', 'records', 'responses', 'operations', 'saved', 'created', 'updated', 'rows', 'entries'];
/** Counts of what the server did. */
const COUNT_KEYS = ['saved', 'stored', 'created', 'updated', 'inserted', 'imported', 'processed', 'added', 'deleted', 'removed', 'affected', 'accepted', 'succeeded', 'count', 'savedCount', 'saved_count', 'created_count', 'updated_count', 'modifiedCount', 'insertedCount', 'upsertedCount', 'rowsAffected', 'rows_affected'];
/** Fields a server does not echo back (secrets, anti-forgery tokens, form machinery). */
const NOT_ECHOED = /pass(word)?|token|csrf|xsrf|secret|nonce|captcha|_method|authenticity|confirm|submit|commit|redirect|return_?to|^utf8$/i;

/** @param {string} s */
export function short(s) { return s.length > 200 ? `${s.slice(0, 197)}…` : s; }

/** @param {string | undefined} body @returns {unknown} undefined when the body is not JSON */
export function parseJson(body) {
  const t = body?.trim();
  if (!t || !/^[[{"]/.test(t)) return undefined;
  try { return JSON.parse(t); } catch { return undefined; }
}

/** @param {unknown} v @returns {v is Record<string, any>} */
const isObj = (v) => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** A message from one error entry, whatever its shape. @param {unknown} e @returns {string} */
function errorText(e) {
  if (typeof e === 'string') return e;
  if (isObj(e)) {
    const m = e.message ?? e.msg ?? e.detail ?? e.error ?? e.reason ?? e.description;
    const where = e.field ?? (Array.isArray(e.path) ? e.path.join('.') : e.path);
    if (typeof m === 'string') return where ? `${where}: ${m}` : m;
    if (isObj(m)) return errorText(m);
  }
  return JSON.stringify(e);
}

/** Non-empty error collections: an array of entries, or an object of field → messages (Rails, Django). @param {unknown} v @returns {string | null} */
function errorsText(v) {
  if (Array.isArray(v)) return v.length ? short(v.map(errorText).join('; ')) : null;
  if (isObj(v)) {
    const entries = Object.entries(v).filter(([, x]) => x !== null && x !== undefined && !(Array.isArray(x) && !x.length) && x !== '');
    return entries.length ? short(entries.map(([k, x]) => `${k}: ${Array.isArray(x) ? x.map(errorText).join(', ') : errorText(x)}`).join('; ')) : null;
  }
  return typeof v === 'string' && v.trim() ? short(v) : null;
}

/**
 * A body that says the whole write failed, or null.
 * @param {unknown} j @returns {string | null}
 */
export function refusalIn(j) {
  if (!isObj(j)) return null;
  const errors = errorsText(j.errors) ?? errorsText(j.validationErrors) ?? errorsText(j.validation_errors) ?? errorsText(j.fieldErrors) ?? errorsText(j.field_errors) ?? errorsText(j.violations);
  if (errors) return errors;
  const said = () => short(String((isObj(j.error) ? j.error.message : typeof j.error === 'string' ? j.error : null) ?? j.message ?? j.reason ?? j.detail ?? 'the server said it failed'));
  if (j.ok === false || j.success === false || j.succeeded === false || j.accepted === false || j.saved === false || j.valid === false) return said();
  for (const k of ['status', 'result', 'state', 'outcome']) if (typeof j[k] === 'string' && ERROR_WORDS.test(j[k])) return said();
  if (j.error === true || (typeof j.error === 'string' && j.error.trim()) || (isObj(j.error) && Object.keys(j.error).length)) return said();
  for (const k of ['errorMessage', 'error_message', 'errorCode', 'error_code']) if (typeof j[k] === 'string' && j[k].trim()) return short(j[k]);
  if (isObj(j.data)) return userErrorsIn(j.data);
  return null;
}

/** GraphQL mutations that answer with their own error list (userErrors, errors) inside data. @param {Record<string, any>} data @returns {string | null} */
function userErrorsIn(data) {
  for (const v of Object.values(data)) {
    if (!isObj(v)) continue;
    const e = errorsText(v.userErrors) ?? errorsText(v.errors);
    if (e) return e;
    if (v.success === false || v.ok === false) return short(String(v.message ?? 'the server said it failed'));
  }
  return null;
}

/**
 * The write was taken for later (a job queued, a state of "pending"): its words, or null.
 * @param {unknown} j @returns {string | null}
 */
export function pendingIn(j) {
  if (!isObj(j)) return null;
  for (const o of [j, j.job, j.task, j.data]) {
    if (!isObj(o)) continue;
    for (const k of ['status', 'state']) if (typeof o[k] === 'string' && PENDING_WORDS.test(o[k])) return `${k}: ${o[k]}`;
    if (o.queued === true || o.pending === true) return o.queued === true ? 'queued' : 'pending';
  }
  return null;
}

/** Did one item of a batch fail? @param {unknown} e @returns {string | null} its message */
function itemFailed(e) {
  if (!isObj(e)) return null;
  if (e.ok === false || e.success === false || (typeof e.status === 'string' && ERROR_WORDS.test(e.status)) || (typeof e.status === 'number' && e.status >= 400) || (typeof e.code === 'number' && e.code >= 400)) {
    return errorText(e.error ?? e.message ?? e.reason ?? e.status);
  }
  if (e.error || (Array.isArray(e.errors) && e.errors.length)) return errorText(e.error ?? e.errors[0]);
  return null;
}

/**
 * Part of the write refused: GraphQL errors beside data (graphql_partial), items of a batch refused,
 * a list of failures. Null when nothing was refused, or when everything was (refusalIn says so).
 * @param {unknown} j @returns {{ kind: 'graphql_partial' | 'items', said: string } | null}
 */
export function partialIn(j) {
  if (isObj(j) && Array.isArray(j.errors) && j.errors.length && isObj(j.data) && Object.values(j.data).some((v) => v !== null && v !== undefined)) {
    return { kind: 'graphql_partial', said: short(j.errors.map(errorText).join('; ')) };
  }
  const lists = Array.isArray(j) ? [j] : isObj(j) ? ITEM_LISTS.map((k) => j[k]).filter(Array.isArray) : [];
  for (const list of lists) {
    const refused = list.map(itemFailed).filter((x) => x !== null);
    if (refused.length) return { kind: 'items', said: short(`${refused.length} of ${list.length} refused: ${refused.join('; ')}`) };
  }
  if (isObj(j)) {
    for (const k of ['failed', 'failures', 'rejected', 'refused', 'skipped']) {
      const v = j[k];
      if (typeof v === 'number' && v > 0) return { kind: 'items', said: `${k}: ${v}` };
      if (Array.isArray(v) && v.length) return { kind: 'items', said: short(`${k}: ${v.map(errorText).join('; ')}`) };
    }
  }
  return null;
}

/**
 * The server says it did fewer than were sent (sent 3 items, "saved": 2; or echoed 2 of 3).
 * @param {{ body?: string }} sent @param {unknown} j @returns {string | null}
 */
export function countShortfall(sent, j) {
  const s = parseJson(sent.body);
  if (!isObj(j) || s === undefined) return null;
  /** @type {[string, unknown[]][]} */
  const arrays = Array.isArray(s) ? [['items', s]] : isObj(s) ? /** @type {[string, unknown[]][]} */ (Object.entries(s).filter(([, v]) => Array.isArray(v) && v.length)) : [];
  if (!arrays.length) return null;
  for (const [key, list] of arrays) {
    if (Array.isArray(j[key]) && j[key].length < list.length) return `sent ${list.length} ${key}, the server returned ${j[key].length}`;
  }
  const sentCount = Math.max(...arrays.map(([, v]) => v.length));
  for (const k of COUNT_KEYS) {
    if (typeof j[k] === 'number' && j[k] < sentCount) return `sent ${sentCount}, the server says ${k}: ${j[k]}`;
  }
  return null;
}

/** @param {Record<string, any>} o @param {string} path dotted @returns {unknown} */
function at(o, path) {
  /** @type {any} */
  let v = o;
  for (const k of path.split('.')) {
    if (!isObj(v) || !(k in v)) return undefined;
    v = v[k];
  }
  return v;
}

/** @param {unknown} a what was sent (a string) @param {unknown} b what was echoed */
function sameValue(a, b) {
  const x = String(a).trim().replace(/\s+/g, ' ').toLowerCase();
  const y = (typeof b === 'string' ? b : JSON.stringify(b)).trim().replace(/\s+/g, ' ').toLowerCase();
  if (x === y) return true;
  if (x !== '' && y !== '' && !Number.isNaN(Number(x)) && Number(x) === Number(y)) return true;
  return (x === 'on' && y === 'true') || (x === '' && y === 'null');
}

/**
 * A field the request set that the echoed object does not carry, or carries with another value (a
 * PUT that silently dropped it). Only when the answer is the saved object: it echoes at least half
 * of the fields sent. @param {{ method: string, fields?: [string, string][] }} sent @param {unknown} j
 * @returns {string | null}
 */
export function droppedFields(sent, j) {
  if (!['PUT', 'PATCH', 'POST'].includes(sent.method) || !isObj(j)) return null;
  const fields = (sent.fields ?? []).filter(([k]) => !NOT_ECHOED.test(k) && !/(^|\.)\d+(\.|$)/.test(k));
  if (!fields.length) return null;
  const candidates = [j, ...Object.values(j).filter(isObj)];
  let best = /** @type {{ o: Record<string, any>, present: number } | null} */ (null);
  for (const o of candidates) {
    const present = fields.filter(([k]) => at(o, k) !== undefined).length;
    if (!best || present > best.present) best = { o, present };
  }
  // A POST's answer may echo only part of what was sent; a PUT or PATCH returns the object it saved.
  if (!best || best.present === 0 || best.present * 2 < fields.length || (sent.method === 'POST' && fields.length > 1 && best.present < 2)) return null;
  const o = best.o;
  const wrong = fields.filter(([k, v]) => at(o, k) !== undefined && !sameValue(v, at(o, k))).map(([k, v]) => `${k} is ${JSON.stringify(at(o, k))} (sent ${JSON.stringify(v)})`);
  const missing = fields.filter(([k]) => at(o, k) === undefined).map(([k]) => `${k} not saved`);
  const all = [...wrong, ...missing];
  return all.length ? short(`the server's copy differs: ${all.join('; ')}`) : null;
}

/**
 * Identifiers the server echoed (id, number, reference), at the top or in the saved object.
 * @param {unknown} j @returns {string[]}
 */
export function echoedIn(j) {
  if (!isObj(j)) return [];
  const idKey = /^(id|uuid|.*_id|.*Id|number|ref|reference|order|confirmation|confirmation_?number|slug)$/i;
  /** @type {string[]} */
  const out = [];
  for (const [prefix, o] of [['', j], ...Object.entries(j).filter(([, v]) => isObj(v)).map(([k, v]) => [`${k}.`, v])]) {
    for (const [k, v] of Object.entries(/** @type {Record<string, unknown>} */ (o))) {
      if (idKey.test(k) && (typeof v === 'string' || typeof v === 'number')) out.push(`${prefix}${k}: ${short(String(v))}`);
    }
  }
  return out.slice(0, 4);
}
