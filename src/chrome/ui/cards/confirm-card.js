// A consequential step waiting for the user (docs/SECURITY.md): what will happen, on which site,
// with which data, what caused it and why Tabwright asks; Allow once / Allow for this task / Decline.
/** @import { TranscriptItem } from '../../types/messages' */
/** @import { CardContext } from './card-context.js' */
import { cardButton, el } from './card-context.js';

/** @param {Extract<TranscriptItem, { kind: 'confirm' }>} item @param {CardContext} ctx */
export function confirmCard(item, ctx) {
  const card = el(`card confirm ${item.status} severity-${item.severity ?? 'normal'}`);
  card.dataset.status = item.status;
  card.dataset.rule = item.rule ?? '';
  card.dataset.severity = item.severity ?? 'normal';
  card.dataset.site = item.site;
  card.setAttribute('role', item.status === 'pending' ? 'alertdialog' : 'group');
  card.append(
    el('card-title', ctx.t('confirmTitle', categoryText(item.category, ctx)), 'strong'),
    el('confirm-what', ctx.t('confirmWhat', [item.action, item.site]), 'p'),
  );
  const details = item.details ?? [];
  if (details.length) {
    const dl = el('confirm-details', undefined, 'dl');
    for (const d of details) dl.append(el('confirm-label', d.label, 'dt'), el('confirm-value', d.value, 'dd'));
    card.append(dl);
  }
  if (item.cause) card.append(el('confirm-cause', ctx.t('confirmCause', item.cause), 'p'));
  if (item.reason) card.append(el('confirm-why', item.reason, 'p'));
  if (item.status !== 'pending') {
    card.append(el('card-status', statusText(item.status, ctx), 'p'));
    return card;
  }
  /** @param {'yes' | 'task' | 'no'} answer */
  const reply = (answer) => async () => {
    const tabId = ctx.tabId();
    if (tabId !== null) await ctx.request({ type: 'confirm.answer', tabId, id: item.id, answer });
  };
  const actions = el('card-actions');
  actions.append(cardButton(ctx.t('confirmNo'), 'ghost confirm-no', reply('no')));
  if (item.scopeKey) actions.append(cardButton(ctx.t('confirmTask'), 'ghost confirm-task', reply('task')));
  actions.append(cardButton(ctx.t('confirmYes'), `${item.severity === 'high' ? 'danger' : 'primary'} confirm-yes`, reply('yes')));
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
    case 'sharing': return ctx.t('confirmCat_sharing');
    case 'device': return ctx.t('confirmCat_device');
    case 'write': return ctx.t('confirmCat_write');
    case 'leave': return ctx.t('confirmCat_leave');
    case 'job': return ctx.t('confirmCat_job');
    case 'secret': return ctx.t('confirmCat_secret');
    case 'site': return ctx.t('confirmCat_site');
    case 'sensitive': return ctx.t('confirmCat_sensitive');
    case 'skill': return ctx.t('confirmCat_skill');
    case 'code': return ctx.t('confirmCat_code');
    default: return ctx.t('confirmCat_write');
  }
}

/** @param {'yes' | 'task' | 'no' | 'expired'} status @param {CardContext} ctx */
function statusText(status, ctx) {
  switch (status) {
    case 'yes': return ctx.t('confirmStatus_yes');
    case 'task': return ctx.t('confirmStatus_task');
    case 'no': return ctx.t('confirmStatus_no');
    case 'expired': return ctx.t('confirmStatus_expired');
  }
}
