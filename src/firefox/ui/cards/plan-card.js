// Plan mode's card (seed 000): the proposed steps, editable while they wait for approval, then
// each step's progress and output.
/** @import { TranscriptItem } from '../../types/messages' */
/** @import { CardContext } from './card-context.js' */
import { cardButton, el } from './card-context.js';

/** @param {Extract<TranscriptItem, { kind: 'plan' }>} item @param {CardContext} ctx */
export function planCard(item, ctx) {
  const card = el(`card plan ${item.status}`);
  card.dataset.status = item.status;
  card.append(el('card-title', ctx.t('planTitle'), 'strong'));
  if (item.status === 'pending') {
    card.append(el('card-hint', ctx.t('planReview'), 'p'));
    const list = el('plan-steps', undefined, 'ol');
    for (const step of item.steps) {
      const li = document.createElement('li');
      const input = document.createElement('textarea');
      input.className = 'plan-step';
      input.rows = 1;
      input.value = step;
      input.setAttribute('aria-label', ctx.t('planStepLabel', String(list.children.length + 1)));
      li.append(input);
      list.append(li);
    }
    const actions = el('card-actions');
    const id = item.id;
    actions.append(
      cardButton(ctx.t('planReject'), 'ghost plan-reject', async () => {
        const tabId = ctx.tabId();
        if (tabId !== null) await ctx.request({ type: 'plan.reject', tabId, id });
      }),
      cardButton(ctx.t('planApprove'), 'plan-approve', async () => {
        const tabId = ctx.tabId();
        const steps = [...list.querySelectorAll('textarea')].map((t) => /** @type {HTMLTextAreaElement} */ (t).value.trim()).filter(Boolean);
        if (tabId !== null) await ctx.request({ type: 'plan.approve', tabId, id, steps });
      }),
    );
    card.append(list, actions);
    return card;
  }
  const list = el('plan-steps', undefined, 'ol');
  item.steps.forEach((step, i) => {
    const li = el(`plan-step-done ${item.stepStatus[i] ?? 'pending'}`, undefined, 'li');
    li.dataset.status = item.stepStatus[i] ?? 'pending';
    li.append(el('step-text', step, 'span'));
    if (item.outputs[i]) li.append(el('step-output', item.outputs[i]));
    list.append(li);
  });
  card.append(list, el('card-status', planStatusText(item.status, ctx), 'p'));
  return card;
}

/**
 * Literal keys, so the i18n test can check every one exists in every locale.
 * @param {import('../../types/core').PlanStatus | 'expired'} status @param {CardContext} ctx
 */
function planStatusText(status, ctx) {
  switch (status) {
    case 'pending': return ctx.t('planStatus_pending');
    case 'approved': return ctx.t('planStatus_approved');
    case 'rejected': return ctx.t('planStatus_rejected');
    case 'running': return ctx.t('planStatus_running');
    case 'done': return ctx.t('planStatus_done');
    case 'failed': return ctx.t('planStatus_failed');
    case 'expired': return ctx.t('planStatus_expired');
  }
}
