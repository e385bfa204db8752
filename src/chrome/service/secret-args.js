// Text typed into a password field is a secret: the content script reports it as '(hidden)', and
// the panel and the history must not show or keep what the model typed there either.
/** @import { TranscriptItem } from '../types/messages' */

export const MASK = '••••••';

/** @param {TranscriptItem} item @returns {TranscriptItem} the item with a secret's typed text masked */
export function maskSecretArgs(item) {
  if (item.kind !== 'tool' || item.name !== 'type' || !item.result?.ok) return item;
  const data = /** @type {{ value?: unknown }} */ (item.result.data ?? {});
  if (data.value !== '(hidden)' || !item.args || typeof item.args !== 'object') return item;
  return { ...item, args: { ...item.args, text: MASK } };
}
