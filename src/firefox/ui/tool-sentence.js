// A tool card's one-line sentence in the user's language: what the agent did, on which element (its
// role and name as the page gives them) or where, from the call's arguments and result. The sentence
// is the tool's own (`says`, types/core.d.ts ToolSays); a name no tool has (an old transcript, a
// page's own tool) says "Used <name>". The WebMCP tools (page_tools, call_page_tool) are not in the
// registry (runs offer them only when the setting is on) but their calls are shown the same way.
// The raw arguments and result stay behind the card's disclosure.
/** @import { TranscriptItem } from '../types/messages' */
/** @import { SaidCall } from '../types/core' */
import { findTool } from '../agent/tools/index.js';
import { SAYS_USED } from '../agent/tools/says.js';
import { PAGE_TOOLS } from '../agent/tools/webmcp.js';

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
 * A call with two elements (a drag) names each by its arguments' prefix, end.
 * @param {ToolItem} item @param {Record<string, any>} a @param {boolean} byText @param {'from' | 'to'} [end]
 */
export function elementOf(item, a, byText, end) {
  const g = (/** @type {string} */ k) => a[end ? `${end}_${k}` : k];
  // The policy names the element a call acts on first (agent/tool-call/facts.js): a drag's is where it starts.
  if (end !== 'to' && item.target?.name) return quote(item.target.name);
  if (g('ref')) return `[${g('ref')}]`;
  if (g('text') && byText) return quote(g('text'));
  return g('selector') ? quote(g('selector')) : '';
}

/** The files a call gives, by name (a path's last part). @param {unknown} files */
function fileNames(files) {
  const list = Array.isArray(files) ? files : [];
  return list.map((f) => String(f?.name ?? String(f?.path ?? '').split(/[\\/]/).pop() ?? '')).filter(Boolean).join(', ');
}

/** The call as its sentence may name it. @param {ToolItem} item @returns {SaidCall} */
export function saidCall(item) {
  const a = /** @type {Record<string, any>} */ (item.args && typeof item.args === 'object' ? item.args : {});
  return {
    name: item.name,
    // "Scheduled" only when the job exists: a call that failed (or has no result yet) only tried.
    ok: Boolean(item.result?.ok),
    element: (byText = false, end = undefined) => elementOf(item, a, byText, end),
    url: () => hostOf(a.url),
    keys: () => (Array.isArray(a.keys) ? a.keys : [a.keys]).join(' '),
    option: () => quote(a.label ?? a.value ?? (a.labels ?? a.values ?? []).join(', ')),
    title: () => quote(a.title ?? ''),
    quoted: (key) => (a[key] === undefined || a[key] === '' ? '' : quote(a[key])),
    arg: (key) => a[key],
    files: () => quote(fileNames(a.files)),
  };
}

/**
 * @param {ToolItem} item (arguments already masked)
 * @param {(key: string, subs?: string | string[]) => string} t
 */
export function toolSentence(item, t) {
  const says = (findTool(item.name) ?? PAGE_TOOLS.find((tool) => tool.name === item.name))?.says ?? SAYS_USED;
  return says(t, saidCall(item));
}
