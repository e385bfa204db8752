// A run cut short when the browser stopped the background (Chrome's service worker): nothing is
// lost, and Continue picks it up from the saved conversation.
/** @import { TranscriptItem } from '../../types/messages' */
/** @import { CardContext } from './card-context.js' */
import { cardButton, el } from './card-context.js';

/** @param {Extract<TranscriptItem, { kind: 'interrupted' }>} item @param {CardContext} ctx */
export function interruptedCard(item, ctx) {
  const card = el(`card interrupted ${item.status}`);
  card.dataset.status = item.status;
  card.append(el('interrupted-text', item.status === 'pending' ? ctx.t('interrupted') : ctx.t('interruptedContinued'), 'p'));
  if (item.status === 'pending') {
    const actions = el('card-actions');
    actions.append(cardButton(ctx.t('continueRun'), 'continue-run', async () => {
      const tabId = ctx.tabId();
      if (tabId !== null) await ctx.request({ type: 'chat.continue', tabId });
    }));
    card.append(actions);
  }
  return card;
}
