// A run that ended badly, said for people: a sentence in the user's language on what happened and
// what to do, the specifics underneath, a button that does it (Retry, Open settings, Continue), and
// the code behind a disclosure. The user's own Stop is not an error: it is a quiet line with Continue.
/** @import { TranscriptItem } from '../../types/messages' */
/** @import { CardContext } from './card-context.js' */
import { cardButton, el } from './card-context.js';
import { RUN_END_CARDS } from '../../agent/error-codes.js';

/**
 * The localized headline for a code: the catalog (RUN_END_CARDS) names the codes with their own; the
 * i18n test checks each has its key in every locale.
 * @param {string} code @param {CardContext} ctx
 */
function headline(code, ctx) {
  return Object.hasOwn(RUN_END_CARDS, code) ? ctx.t(`errHead_${code}`) : ctx.t('errHead_other');
}

/** @param {Extract<TranscriptItem, { kind: 'error' }>} item @param {CardContext} ctx */
export function errorCard(item, ctx) {
  const retry = () => { const id = ctx.tabId(); return id === null ? Promise.resolve() : ctx.request({ type: 'chat.retry', tabId: id }); };
  if (item.code === 'ABORTED') {
    const line = el('marker stopped', ctx.t('runStopped'));
    line.dataset.code = item.code;
    const actions = el('err-actions', undefined, 'span');
    actions.append(cardButton(ctx.t('errContinue'), 'ghost small err-retry', retry));
    line.append(' ', actions);
    return line;
  }
  const card = el('msg error card');
  card.dataset.code = item.code;
  card.setAttribute('role', 'alert');
  card.append(el('err-head', headline(item.code, ctx), 'p'), el('err-detail', item.message, 'p'));
  const offers = Object.hasOwn(RUN_END_CARDS, item.code) ? RUN_END_CARDS[item.code] : [];
  if (offers.length) {
    const actions = el('err-actions');
    for (const a of offers) {
      if (a === 'settings') actions.append(cardButton(ctx.t('errOpenSettings'), 'ghost err-settings', async () => { await browser.runtime.openOptionsPage(); }));
      else actions.append(cardButton(a === 'continue' ? ctx.t('errContinue') : ctx.t('errRetry'), 'err-retry', retry));
    }
    card.append(actions);
  }
  const details = document.createElement('details');
  details.className = 'err-code';
  const summary = document.createElement('summary');
  summary.textContent = ctx.t('errDetails');
  details.append(summary, el('code', item.code, 'code'));
  card.append(details);
  return card;
}
