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
  if (item.moment.kind === 'second_factor' && item.moment.factor !== 'push') card.append(codeRow(item, ctx));
  const actions = el('card-actions');
  actions.append(
    cardButton(ctx.t('handoffGoToTab'), 'handoff-focus', async () => { const id = tab(); if (id !== null) await ctx.request({ type: 'handoff.focus', tabId: id }); }),
    cardButton(ctx.t('handoffDone'), 'handoff-done primary', async () => { const id = tab(); if (id !== null) await ctx.request({ type: 'handoff.answer', tabId: id, id: item.id, answer: 'done' }); }),
    cardButton(ctx.t('handoffCancel'), 'handoff-cancel ghost', async () => { const id = tab(); if (id !== null) await ctx.request({ type: 'handoff.answer', tabId: id, id: item.id, answer: 'cancel' }); }),
  );
  card.append(actions);
  return card;
}

/**
 * A code typed here goes only into the code field of the card's site (service/handlers/answers.js).
 * @param {Extract<TranscriptItem, { kind: 'handoff' }>} item @param {CardContext} ctx
 */
function codeRow(item, ctx) {
  const row = el('card-actions handoff-code-row');
  const input = /** @type {HTMLInputElement} */ (el('handoff-code', undefined, 'input'));
  input.inputMode = 'numeric';
  input.autocomplete = 'one-time-code';
  input.setAttribute('aria-label', ctx.t('handoffCodeLabel'));
  input.placeholder = ctx.t('handoffCodeLabel');
  const note = el('card-status handoff-fill-status', '', 'p');
  const fill = cardButton(ctx.t('handoffFill'), 'handoff-fill', async () => {
    const id = ctx.tabId();
    if (id === null || !input.value.trim()) return;
    const r = await ctx.request({ type: 'handoff.fill', tabId: id, id: item.id, code: input.value.trim() });
    input.value = '';
    note.textContent = r.ok ? '' : r.message;
  });
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); fill.click(); } });
  row.append(input, fill, note);
  return row;
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
