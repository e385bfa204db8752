// "Your turn": the site needs the person (a sign-in, a code, a challenge, an age or consent page).
// It says what and where, brings the tab forward, and waits for evidence or the person's Done or
// Cancel. What they type stays in the page: nothing here reads it.
/** @import { TranscriptItem } from '../../types/messages' */
/** @import { CardContext } from './card-context.js' */
import { cardButton, el } from './card-context.js';
import { needText } from '../handoff-need.js';

/** @param {Extract<TranscriptItem, { kind: 'handoff' }>} item @param {CardContext} ctx */
export function handoffCard(item, ctx) {
  const waiting = item.status === 'waiting';
  const card = el(`card handoff ${waiting ? 'pending' : item.status}`);
  card.dataset.status = item.status;
  card.dataset.kind = item.moment.kind;
  card.setAttribute('role', 'group');
  card.setAttribute('aria-label', ctx.t('handoffTitle'));
  card.append(el('card-title', ctx.t('handoffTitle'), 'strong'), el('handoff-need', needText(item.moment, ctx.t), 'p'));
  if (item.failed) card.append(el('handoff-failed', ctx.t('handoffFailed', [item.failed]), 'p'));
  if (!waiting) {
    card.append(el('card-status handoff-status', statusText(item, ctx), 'p'));
    return card;
  }
  card.append(el('handoff-hint', ctx.t('handoffHint'), 'p'));
  const tab = () => ctx.tabId();
  const actions = el('card-actions');
  actions.append(
    cardButton(ctx.t('handoffGoToTab'), 'handoff-focus', async () => { const id = tab(); if (id !== null) await ctx.request({ type: 'handoff.focus', tabId: id }); }),
    cardButton(ctx.t('handoffDone'), 'handoff-done primary', async () => { const id = tab(); if (id !== null) await ctx.request({ type: 'handoff.answer', tabId: id, id: item.id, answer: 'done' }); }),
    cardButton(ctx.t('handoffCancel'), 'handoff-cancel ghost', async () => { const id = tab(); if (id !== null) await ctx.request({ type: 'handoff.answer', tabId: id, id: item.id, answer: 'cancel' }); }),
  );
  card.append(actions);
  return card;
}

/** @param {Extract<TranscriptItem, { kind: 'handoff' }>} item @param {CardContext} ctx */
function statusText(item, ctx) {
  switch (item.status) {
    case 'resumed': return ctx.t('handoffResumed', [item.evidence ?? '']);
    case 'done': return ctx.t('handoffDoneSaid');
    case 'cancelled': return ctx.t('handoffCancelled');
    default: return ctx.t('handoffExpired');
  }
}
