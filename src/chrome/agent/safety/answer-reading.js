// What the server said about one write: not just its status code. A 2xx whose body says it failed
// ({ok: false}, an `error`, GraphQL `errors` with no data, items refused, fewer saved than sent, a
// field the echoed object does not carry), a 202 or a "queued" body that only accepted the work, an
// answer from the page's own service worker, a redirect that ended on an error page or on the form
// again, and a WebSocket frame whose reply is an error are not acceptances. Browser-free: the
// platform hands the body over (WriteOutcome.body, .reply).
/** @import { WriteOutcome } from '../../types/safety' */
/** @import { Verdict } from '../../types/core' */
/** @import { ErrorCode } from '../error-codes.js' */
import { parseJson, refusalIn, pendingIn, partialIn, countShortfall, droppedFields, echoedIn, short } from './answer-body.js';

/**
 * @typedef {object} AnswerReading
 * @property {Verdict} verdict verified: accepted and the body agrees; failed: refused; not_verified: cannot tell yet
 * @property {ErrorCode | null} code why, when not verified or failed (a catalogued code)
 * @property {string} [said] the server's own words when it refused (a message from the body), short
 * @property {string[]} [echoed] what the server echoed back as proof (an id, a number, the saved values), short
 */

/**
 * @typedef {object} SentWrite what left the browser
 * @property {string} method
 * @property {string} url
 * @property {[string, string][]} [fields] the body's fields as sent (JSON keys dotted)
 * @property {string} [body] the body as sent
 * @property {'request' | 'download' | 'channel'} [kind] channel: a WebSocket frame or another non-HTTP write
 * @property {string} [page] the page the write was sent from (a form POST's redirect back to it is "the form again")
 */

/** Content types whose body says whether the write was done (a 204, or no content type, has nothing to say). */
const TEXT_TYPES = /json|xml|html|^text\/|graphql|javascript/i;

/** @param {ErrorCode} code @param {string} [said] @returns {AnswerReading} */
const failed = (code, said) => ({ verdict: 'failed', code, ...(said ? { said: short(said) } : {}) });
/** @param {ErrorCode} code @param {string} [said] @returns {AnswerReading} */
const unsure = (code, said) => ({ verdict: 'not_verified', code, ...(said ? { said: short(said) } : {}) });

/**
 * @param {SentWrite} sent what left
 * @param {WriteOutcome} out how it ended
 * @returns {AnswerReading}
 */
export function readAnswer(sent, out) {
  if (out.error) return failed('WRITE_REFUSED', out.error);
  if (sent.kind === 'channel') return readReply(out.reply);
  if (out.status === undefined) return unsure('NO_ANSWER_YET');
  if (out.answeredBy === 'service_worker' || out.answeredBy === 'cache') return unsure('ANSWERED_BY_PAGE');
  const status = out.finalStatus ?? out.status;
  const json = parseJson(out.body);
  if (status >= 400) return failed('WRITE_REFUSED', (json !== undefined ? refusalIn(json) ?? messageIn(json) : htmlError(out.body)) ?? `HTTP ${status}`);
  if (out.status === 202) return unsure('ACCEPTED_NOT_CONFIRMED', json !== undefined ? pendingIn(json) ?? undefined : undefined);
  // The status alone is no proof: an answer that announced a readable body no one could read may say no.
  // (A redirect's own answer has no body by design: its end is judged by its address and status.)
  if (out.body === undefined && !out.finalUrl && status !== 204 && status !== 205 && TEXT_TYPES.test(out.contentType ?? '')) return unsure('ANSWER_UNREADABLE');
  if (json !== undefined) return readJson(sent, json);
  return readPage(sent, out);
}

/** A JSON body of a 2xx answer. @param {SentWrite} sent @param {unknown} json @returns {AnswerReading} */
function readJson(sent, json) {
  const partial = partialIn(json);
  // GraphQL: errors with no data refused it all; errors beside data did part of it.
  if (partial?.kind === 'graphql_partial') return unsure('PARTLY_REFUSED', partial.said);
  if (partial) return failed('PARTLY_REFUSED', partial.said);
  const refusal = refusalIn(json);
  if (refusal) return failed('WRITE_REFUSED', refusal);
  const pending = pendingIn(json);
  if (pending) return unsure('ACCEPTED_NOT_CONFIRMED', pending);
  const shortfall = countShortfall(sent, json);
  if (shortfall) return failed('PARTLY_REFUSED', shortfall);
  const dropped = droppedFields(sent, json);
  if (dropped) return failed('FIELD_DROPPED', dropped);
  return { verdict: 'verified', code: null, echoed: echoedIn(json) };
}

/**
 * A page (HTML or text) answered the write, directly or at the end of a redirect: its validation
 * message, or the form shown again, is not a success.
 * @param {SentWrite} sent @param {WriteOutcome} out @returns {AnswerReading}
 */
function readPage(sent, out) {
  const error = htmlError(out.body);
  if (error) return failed('WRITE_REFUSED', error);
  if (out.finalUrl && /[?&](error|errors|err|failed|failure|invalid)=/i.test(out.finalUrl)) return failed('WRITE_REFUSED', `redirected to ${out.finalUrl}`);
  if (out.finalUrl && sent.page && samePage(out.finalUrl, sent.page) && /<form\b/i.test(out.body ?? '')) return unsure('FORM_SHOWN_AGAIN');
  return { verdict: 'verified', code: null, echoed: [] };
}

/** A WebSocket (or other channel) write: its reply, paired with the frame, is its answer. @param {string | undefined} reply @returns {AnswerReading} */
function readReply(reply) {
  if (reply === undefined) return unsure('NO_ANSWER_YET');
  const json = parseJson(reply);
  if (json === undefined) return /\b(error|denied|refused|rejected|forbidden|invalid|failed)\b/i.test(reply) ? failed('WRITE_REFUSED', reply) : unsure('ANSWER_UNREADABLE');
  const t = /** @type {any} */ (json);
  if (t && typeof t === 'object' && typeof t.type === 'string' && /^(error|nack|reject(ed)?|fail(ed|ure)?|denied)$/i.test(t.type)) return failed('WRITE_REFUSED', messageIn(t) ?? t.type);
  return readJson({ method: 'SEND', url: '' }, json);
}

/** @param {any} j @returns {string | null} */
function messageIn(j) {
  if (!j || typeof j !== 'object') return null;
  for (const k of ['message', 'error', 'reason', 'detail', 'description']) {
    const v = j[k];
    if (typeof v === 'string' && v.trim()) return short(v);
    if (v && typeof v === 'object' && typeof v.message === 'string') return short(v.message);
  }
  return null;
}

/**
 * A validation message an HTML answer shows: an element marked as an alert or an error, or a field
 * marked invalid. Hidden templates (hidden, display:none) do not count.
 * @param {string | undefined} body @returns {string | null}
 */
export function htmlError(body) {
  if (!body || !/<[a-z]/i.test(body)) return null;
  const marked = /<([a-z][a-z0-9]*)\b([^>]*\b(?:role\s*=\s*["']?alert|class\s*=\s*["'][^"']*\b(?:error|errors|invalid|alert-danger|field-error|form-error|errorlist)\b)[^>]*)>([\s\S]{0,600}?)<\/\1>/gi;
  for (const m of body.matchAll(marked)) {
    if (/\bhidden\b|display\s*:\s*none/i.test(m[2])) continue;
    const text = m[3].replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
    if (text.length >= 3) return short(text);
  }
  if (/aria-invalid\s*=\s*["']?true/i.test(body)) return 'a field of the form was marked invalid';
  // An error page served with a 200: its title or first heading says so.
  const title = /<(title|h1)\b[^>]*>([\s\S]{0,200}?)<\/\1>/gi;
  for (const m of body.matchAll(title)) {
    const text = m[2].replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
    if (ERROR_TITLE.test(text)) return short(pageSays(body) ?? text);
  }
  return null;
}

/** Titles of error pages. */
const ERROR_TITLE = /^(error\b|an error occurred|something went wrong|oops\b|access denied|forbidden|not allowed|session (has )?expired|(request|submission|update|save) failed)/i;

/** An error page's first paragraph, its explanation. @param {string} body */
function pageSays(body) {
  const p = /<p\b[^>]*>([\s\S]{0,400}?)<\/p>/i.exec(body);
  const text = p ? p[1].replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim() : '';
  return text.length >= 3 ? text : null;
}

/** Same origin and path (the query may differ). @param {string} a @param {string} b */
function samePage(a, b) {
  try {
    const x = new URL(a); const y = new URL(b);
    return x.origin === y.origin && x.pathname.replace(/\/$/, '') === y.pathname.replace(/\/$/, '');
  } catch { return false; }
}
