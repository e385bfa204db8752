// The two-phase confirmation (seed 001): what will happen, on which site, and the user's choice.
/** @import { TranscriptItem } from '../../types/messages' */
/** @import { CardContext } from './card-context.js' */
import { cardButton, el } from './card-context.js';

/** @param {Extract<TranscriptItem, { kind: 'confirm' }>} item @param {CardContext} ctx */
export function confirmCard(item, ctx) {
  const card = el(`card confirm ${item.status}`);
  card.dataset.status = item.status;
  card.setAttribute('role', item.status === 'pending' ? 'alertdialog' : 'group');
  card.append(
    el('card-title', ctx.t('confirmTitle', ctx.t(`confirmCat_${item.category}`)), 'strong'),
    el('confirm-what', ctx.t('confirmWhat', [item.action, item.site]), 'p'),
  );
  if (item.status !== 'pending') {
    card.append(el('card-status', ctx.t(`confirmStatus_${item.status}`), 'p'));
    return card;
  }
  /** @param {'yes' | 'always' | 'no'} answer */
  const reply = (answer) => async () => {
    const tabId = ctx.tabId();
    if (tabId !== null) await ctx.request({ type: 'confirm.answer', tabId, id: item.id, answer });
  };
  const actions = el('card-actions');
  actions.append(
    cardButton(ctx.t('confirmNo'), 'ghost confirm-no', reply('no')),
    cardButton(ctx.t('confirmAlways'), 'ghost confirm-always', reply('always')),
    cardButton(ctx.t('confirmYes'), 'danger confirm-yes', reply('yes')),
  );
  card.append(actions);
  return card;
}
