// The agent's question to the user; the run waits for the answer typed here.
/** @import { TranscriptItem } from '../../types/messages' */
/** @import { CardContext } from './card-context.js' */
import { cardButton, el } from './card-context.js';

/** @param {Extract<TranscriptItem, { kind: 'clarify' }>} item @param {CardContext} ctx */
export function clarifyCard(item, ctx) {
  const card = el(`card clarify ${item.status}`);
  card.dataset.status = item.status;
  card.append(el('card-title', ctx.t('clarifyTitle'), 'strong'), el('clarify-question', item.question, 'p'));
  if (item.status === 'answered') {
    card.append(el('clarify-answer', item.answer ?? '', 'p'));
    return card;
  }
  if (item.status === 'expired') {
    card.append(el('card-status', ctx.t('clarifyExpired'), 'p'));
    return card;
  }
  const input = /** @type {HTMLInputElement} */ (el('clarify-input', undefined, 'input'));
  input.setAttribute('aria-label', ctx.t('clarifyPlaceholder'));
  input.placeholder = ctx.t('clarifyPlaceholder');
  const submit = cardButton(ctx.t('clarifySend'), 'clarify-send', async () => {
    const tabId = ctx.tabId();
    if (tabId === null || !input.value.trim()) return;
    await ctx.request({ type: 'clarify.answer', tabId, id: item.id, text: input.value });
  });
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); submit.click(); } });
  const actions = el('card-actions');
  actions.append(input, submit);
  card.append(actions);
  return card;
}
