// A separator saying older turns were summarized, so the user knows history was folded, not lost.
/** @import { TranscriptItem } from '../../types/messages' */
/** @import { CardContext } from './card-context.js' */
import { el } from './card-context.js';

/** @param {Extract<TranscriptItem, { kind: 'compacted' }>} item @param {CardContext} ctx */
export function compactedCard(item, ctx) {
  const sep = el('marker compacted', item.reason === 'overflow' ? ctx.t('compactedOverflow', [String(item.before), String(item.after)]) : ctx.t('compacted', [String(item.before), String(item.after)]));
  sep.setAttribute('role', 'separator');
  return sep;
}
