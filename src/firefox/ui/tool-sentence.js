// A tool card's one-line sentence in the user's language: what the agent did, on which element (its
// role and name as the page gives them) or where, from the call's arguments and result. The sentence
// is the tool's own (`says`, types/core.d.ts ToolSays); a name no tool has (an old transcript, a
// page's own tool) says "Used <name>". The raw arguments and result stay behind the card's disclosure.
/** @import { TranscriptItem } from '../types/messages' */
/** @import { SaidCall } from '../types/core' */
import { findTool } from '../agent/tools/index.js';
import { SAYS_USED } from '../agent/tools/says.js';

/** @typedef {Extract<TranscriptItem, { kind: 'tool' }>} ToolItem */

/** A value quoted for the sentence, cut to 48 characters. @param {unknown} s */
export const quote = (s) => `“${String(s).length > 48 ? `${String(s).slice(0, 47)}…` : String(s)}”`;

/** An address as host and path, up to 60 characters. @param {unknown} u */
export function hostOf(u) {
  try { const x = new URL(String(u)); return `${x.host}${x.pathname === '/' ? '' : x.pathname}`.slice(0, 60); } catch { return String(u ?? ''); }
}

/**
 * The element a call acted on: its accessible name when the result gave it, else the ref, the
 * visible text the call gave (when the tool reads text as the element, as click does), the selector.
 * @param {ToolItem} item @param {Record<string, any>} a @param {boolean} byText
 */
export function elementOf(item, a, byText) {
  if (item.target?.name) return quote(item.target.name);
  if (a.ref) return `[${a.ref}]`;
  if (a.text && byText) return quote(a.text);
  return a.selector ? quote(a.selector) : '';
}

/** The call as its sentence may name it. @param {ToolItem} item @returns {SaidCall} */
export function saidCall(item) {
  const a = /** @type {Record<string, any>} */ (item.args && typeof item.args === 'object' ? item.args : {});
  return {
    name: item.name,
    // "Scheduled" only when the job exists: a call that failed (or has no result yet) only tried.
    ok: Boolean(item.result?.ok),
    element: (byText = false) => elementOf(item, a, byText),
    url: () => hostOf(a.url),
    keys: () => (Array.isArray(a.keys) ? a.keys : [a.keys]).join(' '),
    option: () => quote(a.label ?? a.value ?? (a.labels ?? a.values ?? []).join(', ')),
    title: () => quote(a.title ?? ''),
  };
}

/**
 * @param {ToolItem} item (arguments already masked)
 * @param {(key: string, subs?: string | string[]) => string} t
 */
export function toolSentence(item, t) {
  const says = findTool(item.name)?.says ?? SAYS_USED;
  return says(t, saidCall(item));
}
