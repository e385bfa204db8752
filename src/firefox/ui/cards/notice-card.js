// A warning from Tabwright about the run itself (loop detection), shown between the tool cards.
/** @import { TranscriptItem } from '../../types/messages' */
import { el } from './card-context.js';

/** @param {Extract<TranscriptItem, { kind: 'notice' }>} item */
export function noticeCard(item) {
  const n = el('marker notice', item.message);
  n.dataset.code = item.code;
  return n;
}
