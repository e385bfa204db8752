// What the safety policy is told about a call before it runs: the effects its tool declares for
// these arguments, the tab's URL, the element it acts on (as the page names it), and where it goes.
/** @import { ChatMessage, Tool } from '../../types/core' */
/** @import { Effect } from '../../types/safety' */
/** @import { CallFacts } from '../safety/policy.js' */
/** @import { CallEnv } from '../tool-call.js' */
import { raceAbort, withTimeout } from '../abort.js';
import { textOf } from '../compaction.js';
import { effectsOf } from '../safety/effects.js';
import { targetOf } from '../tools/act.js';

/** A call that does more than steer the run looks at the tab before and after. @param {readonly Effect[]} effects */
export function watchesTab(effects) { return effects.some((e) => e !== 'controls_run'); }

/** @param {Tool} tool @param {Record<string, any>} args @param {CallEnv} env @returns {Promise<CallFacts>} */
export async function callFacts(tool, args, env) {
  const { ctx, signal } = env;
  const effects = effectsOf(tool, args);
  const url = watchesTab(effects) ? (await raceAbort(ctx.browser.getTab(ctx.tabId), signal))?.url ?? '' : '';
  const target = await raceAbort(targetFacts(tool, args, env, effects), signal);
  const dest = tool.destination ? await raceAbort(tool.destination(args, ctx).catch(() => null), signal) : null;
  return { tool: tool.name, args, effects, url, target, mode: env.mode, dest };
}

/**
 * The element a call acts on, as the policy sees it: a ref is named by the last snapshot that listed
 * it; text, selector and coordinates are resolved by the page (the element under the point).
 * @param {Tool} tool @param {Record<string, any>} args @param {CallEnv} env @param {readonly Effect[]} effects
 * @returns {Promise<CallFacts['target']>}
 */
async function targetFacts(tool, args, env, effects) {
  if (!effects.includes('acts_on_page') && !effects.includes('touches_secrets')) return null;
  // What the tool types (type's text) is never the element it acts on.
  const t = targetOf(tool.typedArg ? { ...args, [tool.typedArg]: undefined } : args) ?? targetOf(args, 'from');
  if (!t) return null;
  const info = await withTimeout(env.ctx.browser.sendToContent(env.ctx.tabId, { type: 'content.targetInfo', target: t }), 1500, null);
  const d = info?.ok ? /** @type {Partial<NonNullable<CallFacts['target']>> | null} */ (info.data) : null;
  if (d && typeof d.name === 'string' && typeof d.role === 'string') return { role: d.role, name: d.name, secretField: d.secretField === true };
  if (t.ref) return describeRef(env.messages, t.ref);
  if (t.text) return { role: 'element', name: t.text };
  return null;
}

/**
 * The element a ref names, from the latest snapshot in the conversation that lists it. Outline
 * lines look like `- button "Place order" [e5]` (a row's cells may follow it on its line:
 * `- row "…" [e4]: cell | link "Edit" [e5]`). Only an element written so counts: page text never
 * starts a line with "- " (the outline quotes it) and names are JSON strings, so text that spells
 * out "[e5]", in a paragraph or inside a name, cannot pose as the element.
 * @param {ChatMessage[]} messages @param {string} ref
 * @returns {{ role: string, name: string } | null}
 */
export function describeRef(messages, ref) {
  if (!/^(?:f\d+:)?e\d+$/.test(ref)) return null;
  const element = new RegExp(`(?:^\\s*- |: |\\| )([a-z]+)(?: (?:hint=)?("(?:[^"\\\\]|\\\\.)*"))?(?: value="(?:[^"\\\\]|\\\\.)*")?(?: \\[[^\\]\\n]*\\])*? \\[${ref}\\](?=$|[ :])`, 'm');
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'tool') continue;
    const found = element.exec(textOf(m.content));
    if (!found) continue;
    let name = '';
    try { name = found[2] ? JSON.parse(found[2]) : ''; } catch { name = found[2].slice(1, -1); }
    return { role: found[1], name };
  }
  return null;
}
