// "Using guidance for github.com": what Tabwright told the model about the site (its adapter's
// guidance and the site's skills), the text behind a disclosure.
/** @import { TranscriptItem } from '../../types/messages' */
/** @import { CardContext } from './card-context.js' */
import { el } from './card-context.js';

/** @param {Extract<TranscriptItem, { kind: 'guidance' }>} item @param {CardContext} ctx */
export function guidanceCard(item, ctx) {
  const d = document.createElement('details');
  d.className = 'marker guidance';
  if (item.adapterId) d.dataset.adapter = item.adapterId;
  const summary = document.createElement('summary');
  summary.textContent = item.adapterId ? ctx.t('guidanceUsing', [item.site]) : ctx.t('guidanceSkills', [item.site]);
  const body = el('guidance-text', item.text, 'pre');
  d.append(summary, body);
  return d;
}
