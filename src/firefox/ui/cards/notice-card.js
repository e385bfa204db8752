// A note from Tabwright about the run itself, shown between the tool cards. Warnings (a loop, a
// run that can only read) keep the red bar; information (the model's small context window) is a
// quiet line said once per conversation: the loop repeats it at every plan step and every run.
/** @import { TranscriptItem } from '../../types/messages' */
/** @import { CardContext } from './card-context.js' */
import { el } from './card-context.js';

/**
 * Notices said in the person's language, by code (the core's English message, with the model's name
 * and window, stays in the tooltip), and whether each is information rather than a warning.
 * @type {Record<string, { text: (ctx: CardContext) => string, info: boolean }>}
 */
const KNOWN = {
  TOOLS_COMPACT: { text: (ctx) => ctx.t('noticeToolsCompact'), info: true },
  TOOLS_READ_ONLY: { text: (ctx) => ctx.t('noticeToolsReadOnly'), info: false },
};

/** @param {Extract<TranscriptItem, { kind: 'notice' }>} item @param {CardContext} ctx */
export function noticeCard(item, ctx) {
  const known = KNOWN[item.code];
  const n = el(`marker notice${known?.info ? ' info' : ''}`, known ? known.text(ctx) : item.message, 'p');
  if (known) n.title = item.message;
  // Untranslated text (English) in a right-to-left panel keeps its full stop at its own end.
  n.dir = 'auto';
  n.dataset.code = item.code;
  return n;
}

/**
 * Hides each context-window notice after the first of its code in a conversation's container.
 * @param {ParentNode} container
 */
export function hideRepeatedNotices(container) {
  const seen = new Set();
  for (const n of container.querySelectorAll(':scope > .marker.notice')) {
    const code = /** @type {HTMLElement} */ (n).dataset.code ?? '';
    if (!(code in KNOWN)) continue;
    /** @type {HTMLElement} */ (n).hidden = seen.has(code);
    seen.add(code);
  }
}
