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
    el('card-title', ctx.t('confirmTitle', categoryText(item.category, ctx)), 'strong'),
    el('confirm-what', ctx.t('confirmWhat', [item.action, item.site]), 'p'),
  );
  if (item.status !== 'pending') {
    card.append(el('card-status', statusText(item.status, ctx), 'p'));
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

/**
 * Literal keys, so the i18n test can check every one exists in every locale.
 * @param {import('../../types/core').ConfirmCategory} category @param {CardContext} ctx
 */
function categoryText(category, ctx) {
  switch (category) {
    case 'checkout': return ctx.t('confirmCat_checkout');
    case 'send': return ctx.t('confirmCat_send');
    case 'publish': return ctx.t('confirmCat_publish');
    case 'delete': return ctx.t('confirmCat_delete');
    case 'account': return ctx.t('confirmCat_account');
    case 'site': return ctx.t('confirmCat_site');
  }
}

/** @param {'yes' | 'always' | 'no' | 'expired'} status @param {CardContext} ctx */
function statusText(status, ctx) {
  switch (status) {
    case 'yes': return ctx.t('confirmStatus_yes');
    case 'always': return ctx.t('confirmStatus_always');
    case 'no': return ctx.t('confirmStatus_no');
    case 'expired': return ctx.t('confirmStatus_expired');
  }
}
