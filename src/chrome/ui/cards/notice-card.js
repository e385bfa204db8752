// A note from Tabwright about the run itself, shown between the tool cards. Warnings (a loop, a
// run that can only read) keep the red bar; information (the model's small context window) is a
// quiet line said once per conversation: the loop repeats it at every plan step and every run.
/** @import { TranscriptItem } from '../../types/messages' */
/** @import { CardContext } from './card-context.js' */
import { el } from './card-context.js';

/**
 * Notices said in the person's language, by code (the core's English message, with the model's name
 * and window, stays in the tooltip), and whether each is information rather than a warning.
 * @type {Record<string, { text: (ctx: CardContext, message: string, args?: string[]) => string | null, info: boolean, once?: boolean }>}
 */
const KNOWN = {
  TOOLS_COMPACT: { text: (ctx, m) => withWindow(m, (w) => ctx.t('noticeToolsCompact', w)), info: true, once: true },
  TOOLS_READ_ONLY: { text: (ctx, m) => withWindow(m, (w) => ctx.t('noticeToolsReadOnly', w)), info: false, once: true },
  STORAGE_TRIMMED: { text: (ctx) => ctx.t('noticeStorageTrimmed'), info: true, once: true },
  WORKFLOW_REPAIRED: { text: (ctx) => ctx.t('noticeWorkflowRepaired'), info: false },
  LOOP_REPEAT: { text: (ctx) => ctx.t('noticeLoopRepeat'), info: false },
  LOOP_CLICK: { text: (ctx) => ctx.t('noticeLoopClick'), info: false },
  LOOP_NAVIGATION: { text: (ctx) => ctx.t('noticeLoopNavigation'), info: false },
  RECORDING_SAVED: { text: recordingSaved, info: true },
  PASSWORD_IN_MESSAGE: { text: (ctx) => ctx.t('noticePasswordInMessage'), info: true },
};

/** Why a recording stopped without the person, by the recorder's reason; null when the person stopped it. @param {CardContext} ctx @param {string} [reason] */
function stoppedBy(ctx, reason) {
  if (reason === 'max_duration') return ctx.t('noticeRecordingStoppedLength');
  if (reason === 'max_size') return ctx.t('noticeRecordingStoppedSize');
  if (reason === 'tab_closed') return ctx.t('noticeRecordingStoppedTab');
  return null;
}

/**
 * Where a recording went, its size in the person's units and how long it is.
 * @param {CardContext} ctx @param {string} _message @param {string[]} [args] file, bytes, seconds, reason
 */
function recordingSaved(ctx, _message, args) {
  if (!args || args.length < 3) return null;
  const [file, bytes, seconds, reason] = args;
  const mb = Number(bytes) / 1_048_576;
  const unit = mb < 1 ? { unit: 'kilobyte', value: Math.max(1, Math.round(Number(bytes) / 1024)) } : { unit: 'megabyte', value: mb };
  const size = new Intl.NumberFormat(browser.i18n.getUILanguage(), { style: 'unit', unit: unit.unit, maximumFractionDigits: 1 }).format(unit.value);
  const saved = ctx.t('noticeRecordingSaved', [file, size, seconds]);
  const why = stoppedBy(ctx, reason);
  return why ? `${saved} ${why}` : saved;
}

/**
 * The window size the core's message names ("an 8,192-token context window"), written in the
 * panel's language; null when the message names none (then the message is shown as it is).
 * @param {string} message @param {(window: string) => string} say
 */
function withWindow(message, say) {
  const m = /(\d[\d,]*)-token/.exec(message);
  if (!m) return null;
  return say(Number(m[1].replace(/,/g, '')).toLocaleString(browser.i18n.getUILanguage()));
}

/** @param {Extract<TranscriptItem, { kind: 'notice' }>} item @param {CardContext} ctx */
export function noticeCard(item, ctx) {
  const known = KNOWN[item.code];
  const said = known?.text(ctx, item.message, item.args) ?? null;
  const n = el(`marker notice${known?.info ? ' info' : ''}`, said ?? item.message, 'p');
  if (said) n.title = item.message;
  // Untranslated text (English) in a right-to-left panel keeps its full stop at its own end.
  n.dir = 'auto';
  n.dataset.code = item.code;
  return n;
}

/**
 * Hides each once-per-conversation notice (the context window's) after the first of its code in a
 * conversation's container.
 * @param {ParentNode} container
 */
export function hideRepeatedNotices(container) {
  const seen = new Set();
  for (const n of container.querySelectorAll(':scope > .marker.notice')) {
    const code = /** @type {HTMLElement} */ (n).dataset.code ?? '';
    if (!KNOWN[code]?.once) continue;
    /** @type {HTMLElement} */ (n).hidden = seen.has(code);
    seen.add(code);
  }
}
