// A run's receipt as people read it: one line per write (method, address, status, what the server
// echoed or said, who answered, when). Shared by the panel's verdict note, the trace viewer and the
// jobs page, so a write reads the same everywhere.
/** @import { Outcome, OutcomeReason, ReceiptEntry } from '../../types/core' */

/** @typedef {(key: string, subs?: string | string[]) => string} Translate */

/** An address without its scheme, shortened in the middle when long. @param {string} url */
export function shortUrl(url) {
  let s = url;
  try { const u = new URL(url); s = `${u.host}${u.pathname}${u.search}`; } catch { /* not absolute: shown as given */ }
  return s.length > 80 ? `${s.slice(0, 50)}…${s.slice(-28)}` : s;
}

/** @param {number} at epoch ms */
function timeOf(at) {
  return at ? new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' }).format(at) : '';
}

/** @param {ReceiptEntry} r @param {Translate} t */
export function receiptLine(r, t) {
  const parts = [`${r.method} ${shortUrl(r.url)} → ${r.status === undefined ? t('receiptNoAnswer') : r.status}`];
  if (r.echoed?.length) parts.push(t('receiptEchoed', r.echoed.join(', ')));
  // "HTTP 400" says no more than the status already shown.
  if (r.said && r.said !== `HTTP ${r.status}`) parts.push(t('receiptSaid', r.said));
  if (r.answeredBy === 'service_worker') parts.push(t('receiptByPage'));
  if (r.at) parts.push(timeOf(r.at));
  return parts.join(' · ');
}

/**
 * A reason in the person's language (the catalog's English sentence when the code is not one of
 * the verdict's own). Literal keys, so the i18n test sees each.
 * @param {OutcomeReason} reason @param {Translate} t
 */
export function reasonText(reason, t) {
  const detail = /\(([^()]*)\)\s*$/.exec(reason.message)?.[1]?.replace(/https?:\/\/\S+/g, (u) => shortUrl(u));
  const own = (() => {
    switch (reason.code) {
      case 'WRITE_REFUSED': return t('reasonWriteRefused');
      case 'NO_ANSWER_YET': return t('reasonNoAnswerYet');
      case 'ANSWERED_BY_PAGE': return t('reasonAnsweredByPage');
      case 'ACCEPTED_NOT_CONFIRMED': return t('reasonAcceptedNotConfirmed');
      case 'ANSWER_UNREADABLE': return t('reasonAnswerUnreadable');
      case 'CHALLENGE_REPEATED': return t('reasonChallengeRepeated');
      case 'NOTHING_TO_CHECK': return t('reasonNothingToCheck');
      case 'STEPS_FAILED': return t('reasonStepsFailed');
      case 'ROLLED_BACK': return t('reasonRolledBack');
      case 'USER_DECLINED_CHANGE': return t('reasonUserDeclined');
      case 'PARTLY_REFUSED': return t('reasonPartlyRefused');
      case 'FIELD_DROPPED': return t('reasonFieldDropped');
      case 'FORM_SHOWN_AGAIN': return t('reasonFormShownAgain');
      case 'NO_VERDICT': return t('reasonNoVerdict');
      case 'NO_WRITE_SEEN': return t('reasonNoWriteSeen');
      case 'CLAIM_NOT_SEEN': return t('reasonClaimNotSeen');
      default: return null;
    }
  })();
  if (!own) return reason.message;
  return detail ? `${own} (${detail})` : own;
}

/** The verdict's name. @param {Outcome['verdict']} v @param {Translate} t */
export function verdictName(v, t) {
  switch (v) {
    case 'verified': return t('verdictVerified');
    case 'failed': return t('verdictFailed');
    default: return t('verdictNotVerified');
  }
}

/** Only a read-only answer: nothing on a server to check, so nothing to warn about. @param {Outcome} o */
export function nothingToCheck(o) {
  return o.verdict === 'not_verified' && o.reasons.length > 0 && o.reasons.every((r) => r.code === 'NOTHING_TO_CHECK');
}

/**
 * The verdict as shown: Verified needs at least one write on the receipt that the server accepted,
 * so a green note never stands on nothing; a read-only answer is 'nothing' (shown quietly or not at all).
 * @param {Outcome | undefined} o @returns {Outcome['verdict'] | 'nothing'}
 */
export function shownVerdict(o) {
  if (!o) return 'not_verified';
  if (nothingToCheck(o)) return 'nothing';
  if (o.verdict === 'verified' && !o.receipt.some((r) => r.verdict === 'verified')) return 'not_verified';
  return o.verdict;
}

/** A receipt as an exported file holds it. @param {Outcome} o @param {{ task?: string, url?: string }} [about] */
export function receiptJson(o, about = {}) {
  return { kind: 'tabwright-receipt', version: 1, ...about, verdict: o.verdict, reasons: o.reasons, writes: o.receipt };
}
