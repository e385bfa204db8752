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
  const title = el('card-title', ctx.t('confirmTitle', categoryText(item.category, ctx)), 'strong');
  const what = el('confirm-what', ctx.t('confirmWhat', [item.action, item.site]), 'p');
  // A dialog is announced by its name and description: the title and what will happen.
  const key = item.id.replace(/\s/g, '_');
  title.id = `confirm-title-${key}`;
  what.id = `confirm-what-${key}`;
  card.setAttribute('aria-labelledby', title.id);
  card.setAttribute('aria-describedby', what.id);
  card.append(title, what);
  const details = item.details ?? [];
  if (details.length) card.append(detailList(details, ctx));
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
  if (item.scopeKey && item.scope) card.append(el('confirm-scope', scopeText(item.scope, ctx), 'p'));
  return card;
}

/**
 * Every field, none cut, in a list that scrolls (reachable by keyboard): the values the agent typed
 * come first (the policy orders them), marked, and those it took from the page say so; a lookalike
 * and an unreadable body are said in words.
 * @param {import('../../types/safety').ConfirmDetail[]} details @param {CardContext} ctx
 */
function detailList(details, ctx) {
  const box = el('confirm-fields');
  box.tabIndex = 0;
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', ctx.t('confirmFields'));
  const dl = el('confirm-details', undefined, 'dl');
  box.append(dl);
  for (const d of details) {
    const dt = el('confirm-label', d.label, 'dt');
    const dd = el('confirm-value', d.unreadable ? unreadableText(d.unreadable, ctx) : d.value, 'dd');
    if (d.unreadable) dd.classList.add('unreadable');
    if (d.typed) { dt.classList.add('typed'); dd.classList.add('typed'); dd.append(' ', el('confirm-tag typed-tag', ctx.t('confirmTyped'), 'span')); }
    if (d.fromPage) dd.append(' ', el('confirm-tag from-page', ctx.t('confirmFromPage'), 'span'));
    if (d.lookalike) dd.append(el('confirm-lookalike', ctx.t('confirmLookalike', d.lookalike), 'span'));
    dl.append(dt, dd);
  }
  return box;
}

/** @param {{ bytes: number, contentType?: string }} u @param {CardContext} ctx */
function unreadableText(u, ctx) {
  const bytes = u.bytes.toLocaleString();
  return u.contentType ? ctx.t('confirmUnreadable', [bytes, u.contentType]) : ctx.t('confirmUnreadableNoType', bytes);
}

/**
 * What "Allow for this task" will cover, in the user's language.
 * @param {import('../../types/safety').ConfirmScope} scope @param {CardContext} ctx
 */
function scopeText(scope, ctx) {
  if (scope.kind === 'site') return ctx.t('confirmScopeSite', scope.site);
  if (scope.kind === 'code') return ctx.t('confirmScopeCode', scope.site);
  if (scope.socket) return ctx.t('confirmScopeSocket', scope.socket);
  const where = `${scope.site}${scope.path ?? ''}`;
  const keys = scope.keys?.length ? scope.keys.join(', ') : ctx.t('confirmScopeNoFields');
  const method = scope.method ?? '';
  return scope.operation ? ctx.t('confirmScopeWriteOp', [method, where, scope.operation, keys]) : ctx.t('confirmScopeWrite', [method, where, keys]);
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
    case 'download': return ctx.t('confirmCat_download');
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
