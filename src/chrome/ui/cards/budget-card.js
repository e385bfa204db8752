// A run paused before a model call that would pass its budget: what was used, the cap, what the
// call would add, and the person's choice of a raised cap to go on (Stop ends it as ever).
/** @import { TranscriptItem } from '../../types/messages' */
/** @import { CardContext } from './card-context.js' */
import { cardButton, el } from './card-context.js';
import { formatAmount, pauseText } from '../spend-format.js';

/** @param {Extract<TranscriptItem, { kind: 'budget' }>} item @param {CardContext} ctx */
export function budgetCard(item, ctx) {
  const p = item.pause;
  const card = el(`card budget ${item.status}`);
  card.dataset.status = item.status;
  card.dataset.scope = p.scope;
  card.dataset.unit = p.unit;
  card.dataset.used = String(p.used);
  card.dataset.cap = String(p.cap);
  card.dataset.next = String(p.next);
  card.setAttribute('role', 'group');
  const title = el('card-title', p.scope === 'run' ? ctx.t('budgetTitleRun') : ctx.t('budgetTitleDay'), 'strong');
  card.append(title, el('budget-why', pauseText(p, ctx.t), 'p'));
  if (item.status === 'raised') {
    card.append(el('card-status', ctx.t('budgetRaised', [formatAmount(item.raisedTo ?? p.cap, p.unit, ctx.t)]), 'p'));
    return card;
  }
  if (item.status === 'expired') {
    card.append(el('card-status', ctx.t('budgetExpired'), 'p'));
    return card;
  }
  const input = /** @type {HTMLInputElement} */ (el('budget-input', undefined, 'input'));
  input.type = 'number';
  input.min = String(p.used + p.next);
  input.step = p.unit === 'usd' ? '0.01' : '1000';
  input.value = String(item.suggested);
  const capLabel = p.unit === 'usd' ? ctx.t('budgetNewCapUsd') : ctx.t('budgetNewCapTokens');
  input.setAttribute('aria-label', capLabel);
  const problem = el('budget-problem', '', 'p');
  problem.setAttribute('role', 'alert');
  const go = cardButton(ctx.t('budgetContinue'), 'budget-continue', async () => {
    const tabId = ctx.tabId();
    if (tabId === null) return;
    // Less than what was used plus the next call would pause the run again at once.
    if (!(Number(input.value) >= p.used + p.next)) { problem.textContent = ctx.t('budgetTooLow', [formatAmount(p.used + p.next, p.unit, ctx.t)]); return; }
    const r = await ctx.request({ type: 'spend.raise', tabId, id: item.id, amount: Number(input.value) });
    problem.textContent = r.ok ? '' : r.message;
  });
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); go.click(); } });
  const label = el('budget-label', capLabel, 'span');
  label.setAttribute('aria-hidden', 'true');
  const actions = el('card-actions');
  actions.append(label, input, go);
  card.append(actions, problem);
  return card;
}
