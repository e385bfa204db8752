// Under a final answer: the run's verdict with its evidence (types/core.d.ts Outcome). Verified
// shows only with a receipt (each write the server accepted, openable and exportable); Not verified
// says why; Failed names the write and what the server said. A read-only answer with nothing to
// check shows nothing. An answer from before verdicts (its observation only) never shows a green
// note: what it found missing or refused is all it can say.
/** @import { DoneCheck, Outcome } from '../../types/core' */
/** @import { CardContext } from './card-context.js' */
import { el } from './card-context.js';
import { receiptLine, reasonText, verdictName, shownVerdict, receiptJson } from './receipt.js';
import { saveJson } from '../save-file.js';

/**
 * @param {{ check?: DoneCheck, outcome?: Outcome }} item a final answer
 * @param {CardContext} ctx
 * @returns {HTMLElement | null}
 */
export function checkNote(item, ctx) {
  if (item.outcome) return verdictNote(item.outcome, ctx);
  const check = item.check;
  if (!check || check.verified === null) return null;
  if (check.refused?.length) return el('check unverified refused', ctx.t('checkRefused', check.refused.join('; ')));
  if (!check.verified && check.missing.length) return el('check unverified', ctx.t('checkMissing', check.missing.join('", "')));
  return null;
}

/** @param {Outcome} o @param {CardContext} ctx @returns {HTMLElement | null} */
export function verdictNote(o, ctx) {
  const verdict = shownVerdict(o);
  if (verdict === 'nothing') return null;
  const note = el(`check verdict ${verdict.replace('_', '-')}`);
  note.dataset.verdict = verdict;
  const head = el('verdict-head', undefined, 'p');
  head.append(el('verdict-name', verdictName(verdict, ctx.t), 'strong'), ' ', el('verdict-says', headline(o, verdict, ctx), 'span'));
  note.append(head);
  const details = verdict === 'failed'
    ? o.receipt.filter((r) => r.verdict === 'failed').map((r) => receiptLine(r, ctx.t))
    : verdict === 'not_verified' ? o.reasons.filter((r) => r.code !== 'NOTHING_TO_CHECK').map((r) => reasonText(r, ctx.t)) : [];
  if (details.length) {
    const ul = el('verdict-reasons', undefined, 'ul');
    ul.append(...details.map((d) => el('', d, 'li')));
    note.append(ul);
  }
  if (o.receipt.length) note.append(...receiptBox(o, ctx));
  return note;
}

/** @param {Outcome} o @param {Outcome['verdict']} verdict @param {CardContext} ctx */
function headline(o, verdict, ctx) {
  const n = String(o.receipt.length);
  if (verdict === 'verified') return ctx.t('verdictVerifiedSays', n);
  if (verdict === 'failed') return ctx.t('verdictFailedSays');
  return ctx.t('verdictNotVerifiedSays');
}

/** What the server did with one write, in the receipt's words. */
const ANSWER_OF = /** @type {const} */ ({ verified: 'accepted', failed: 'failed', not_verified: 'unconfirmed' });

/** The receipt: a disclosure listing each write, and beside it a button exporting it as JSON. @param {Outcome} o @param {CardContext} ctx @returns {HTMLElement[]} */
function receiptBox(o, ctx) {
  const box = el('receipt', undefined, 'details');
  const summary = el('receipt-open', ctx.t('receiptOpen', String(o.receipt.length)), 'summary');
  const list = el('receipt-list', undefined, 'ol');
  list.append(...o.receipt.map((r) => {
    // One write's answer, not the run's verdict: an accepted beacon beside a refused order is no "verified".
    const answer = ANSWER_OF[r.verdict];
    const li = el(`receipt-entry ${answer}`, receiptLine(r, ctx.t), 'li');
    li.dataset.answer = answer;
    return li;
  }));
  const exportBtn = /** @type {HTMLButtonElement} */ (el('ghost receipt-export', ctx.t('receiptExport'), 'button'));
  exportBtn.type = 'button';
  exportBtn.addEventListener('click', () => saveJson(`tabwright-receipt-${new Date(o.receipt[0]?.at || Date.now()).toISOString().replace(/[:.]/g, '-')}.json`, receiptJson(o)));
  box.append(summary, list);
  return [box, exportBtn];
}
