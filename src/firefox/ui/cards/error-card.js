// A run that ended badly, said for people: a sentence in the user's language on what happened and
// what to do, the specifics underneath, a button that does it (Retry, Open settings, Continue), and
// the code behind a disclosure. The user's own Stop is not an error: it is a quiet line with Continue.
/** @import { TranscriptItem } from '../../types/messages' */
/** @import { CardContext } from './card-context.js' */
import { cardButton, el } from './card-context.js';

/** What each code offers. Codes not listed get the generic sentence and no button. */
const ACTIONS = /** @type {Record<string, ('retry' | 'settings')[]>} */ ({
  AUTH_FAILED: ['settings'], NOT_FOUND: ['settings'], BAD_REQUEST: ['settings', 'retry'], RUN_NOT_STARTED: ['settings', 'retry'],
  NETWORK_ERROR: ['retry', 'settings'], TIMEOUT: ['retry', 'settings'], RATE_LIMITED: ['retry'], SERVER_ERROR: ['retry'],
  STREAM_CUT: ['retry'], BAD_RESPONSE: ['retry'], EMPTY_COMPLETION: ['retry', 'settings'], CONTEXT_OVERFLOW: ['retry'],
  INTERNAL_ERROR: ['retry'], STEP_LIMIT: ['retry'], LOOP_DETECTED: ['retry'], BUDGET_REACHED: ['settings'],
});

/**
 * The localized sentence for a code (keys are written out so the i18n test sees them).
 * @param {string} code @param {CardContext} ctx
 */
function headline(code, ctx) {
  switch (code) {
    case 'AUTH_FAILED': return ctx.t('errHead_AUTH_FAILED');
    case 'RATE_LIMITED': return ctx.t('errHead_RATE_LIMITED');
    case 'SERVER_ERROR': return ctx.t('errHead_SERVER_ERROR');
    case 'NETWORK_ERROR': return ctx.t('errHead_NETWORK_ERROR');
    case 'TIMEOUT': return ctx.t('errHead_TIMEOUT');
    case 'BAD_REQUEST': return ctx.t('errHead_BAD_REQUEST');
    case 'NOT_FOUND': return ctx.t('errHead_NOT_FOUND');
    case 'CONTEXT_OVERFLOW': return ctx.t('errHead_CONTEXT_OVERFLOW');
    case 'STREAM_CUT': return ctx.t('errHead_STREAM_CUT');
    case 'BAD_RESPONSE': return ctx.t('errHead_BAD_RESPONSE');
    case 'EMPTY_COMPLETION': return ctx.t('errHead_EMPTY_COMPLETION');
    case 'STEP_LIMIT': return ctx.t('errHead_STEP_LIMIT');
    case 'LOOP_DETECTED': return ctx.t('errHead_LOOP_DETECTED');
    case 'RUN_NOT_STARTED': return ctx.t('errHead_RUN_NOT_STARTED');
    case 'TAB_CLOSED': return ctx.t('errHead_TAB_CLOSED');
    case 'BUDGET_REACHED': return ctx.t('errHead_BUDGET_REACHED');
    default: return ctx.t('errHead_other');
  }
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
  const offers = ACTIONS[item.code] ?? [];
  if (offers.length) {
    const actions = el('err-actions');
    for (const a of offers) {
      if (a === 'retry') actions.append(cardButton(item.code === 'STEP_LIMIT' || item.code === 'LOOP_DETECTED' ? ctx.t('errContinue') : ctx.t('errRetry'), 'err-retry', retry));
      else actions.append(cardButton(ctx.t('errOpenSettings'), 'ghost err-settings', async () => { await browser.runtime.openOptionsPage(); }));
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
