// What the server said about one write: not just its status code. A 2xx whose body says it failed
// ({ok: false}, an `error`, GraphQL `errors` with no data, items refused), a 202 that only queued the
// work, an answer from the page's own service worker, or a redirect that ended on an error page are
// not acceptances. Browser-free: the platform hands the body over (WriteOutcome.body).
/** @import { WriteOutcome } from '../../types/safety' */
/** @import { Verdict } from '../../types/core' */

/**
 * @typedef {object} AnswerReading
 * @property {Verdict} verdict verified: accepted and the body agrees; failed: refused; not_verified: cannot tell yet
 * @property {import('../error-codes.js').ErrorCode | null} code why, when not verified (a catalogued code)
 * @property {string} [said] the server's own words when it refused (a message from the body), short
 * @property {string[]} [echoed] what the server echoed back as proof (an id, a number), short
 */

/**
 * @param {{ method: string, url: string, fields?: [string, string][], body?: string }} sent what left
 * @param {WriteOutcome} out how it ended
 * @returns {AnswerReading}
 */
export function readAnswer(sent, out) {
  if (out.error) return { verdict: 'failed', code: 'WRITE_REFUSED', said: out.error };
  if (out.status === undefined && out.reply === undefined) return { verdict: 'not_verified', code: 'NO_ANSWER_YET' };
  if (out.answeredBy === 'service_worker') return { verdict: 'not_verified', code: 'ANSWERED_BY_PAGE' };
  const status = out.finalStatus ?? out.status ?? 0;
  if (status >= 400) return { verdict: 'failed', code: 'WRITE_REFUSED', said: said(out.body) ?? `HTTP ${status}` };
  if (out.status === 202) return { verdict: 'not_verified', code: 'ACCEPTED_NOT_CONFIRMED' };
  const json = parseJson(out.body);
  const refusal = json === undefined ? null : refusalIn(json);
  if (refusal) return { verdict: 'failed', code: 'WRITE_REFUSED', said: refusal };
  return { verdict: 'verified', code: null, echoed: json === undefined ? [] : echoedIn(json) };
}

/** @param {string | undefined} body */
function parseJson(body) {
  if (!body) return undefined;
  try { return JSON.parse(body); } catch { return undefined; }
}

/** A body that says the write failed, in the shapes APIs use. @param {any} j @returns {string | null} */
function refusalIn(j) {
  if (!j || typeof j !== 'object') return null;
  if (Array.isArray(j.errors) && j.errors.length) return short(j.errors.map((/** @type {any} */ e) => (e && typeof e === 'object' ? e.message ?? JSON.stringify(e) : String(e))).join('; '));
  if (j.ok === false || j.success === false || j.status === 'error' || j.status === 'failed') return short(String(j.error?.message ?? j.error ?? j.message ?? 'the server said it failed'));
  if (j.error && typeof j.error !== 'boolean') return short(String(j.error.message ?? j.error));
  return null;
}

/** Identifiers the server echoed (id, number, reference). @param {any} j @returns {string[]} */
function echoedIn(j) {
  if (!j || typeof j !== 'object' || Array.isArray(j)) return [];
  return Object.entries(j).filter(([k, v]) => /^(id|.*_id|number|ref|reference|order|confirmation)$/i.test(k) && (typeof v === 'string' || typeof v === 'number')).slice(0, 4).map(([k, v]) => `${k}: ${short(String(v))}`);
}

/** @param {string | undefined} body */
function said(body) {
  const j = parseJson(body);
  return j === undefined ? null : refusalIn(j) ?? (typeof j?.message === 'string' ? short(j.message) : null);
}

/** @param {string} s */
function short(s) { return s.length > 200 ? `${s.slice(0, 197)}…` : s; }
