// Runs one tool call for the loop: argument checks, the safety gate (agent/safety/: the policy's
// verdict from the effects the tool declares, the user's answer when it asks, the hold on the
// requests an acting step causes), and abort. Every failure is a tool result the model can act on.
/** @import { ChatMessage, Mode, Tool, ToolCall, ToolContext, ToolResult } from '../types/core' */
/** @import { Guard } from './safety/guard.js' */
/** @import { CallFacts } from './safety/policy.js' */
import { parseToolArgs } from './tool-args.js';
import { findTool } from './tools/index.js';
import { raceAbort, withTimeout } from './abort.js';
import { textOf } from './compaction.js';
import { carriesPageContent, effectsOf } from './safety/effects.js';
import { resolveSecretTyping } from './handoff/person-secrets.js';
import { fail } from './error-codes.js';
import { targetOf } from './tools/act.js';
import { originOf, siteLabel } from './safety/scope.js';
import { withWrites } from './completion.js';

/**
 * @typedef {object} CallEnv
 * @property {Tool[]} offered the tools of the current mode
 * @property {Mode} mode
 * @property {ToolContext} ctx
 * @property {ChatMessage[]} messages the conversation, to name the element a ref points to
 * @property {Guard} guard the safety gate of this run
 * @property {import('../types/safety').SecretVault} [secrets] the tab's known secrets: what is typed into a secret field joins them
 * @property {AbortSignal} [signal]
 * @property {import('../types/handoff').PersonSecret[]} [personSecrets] the agent loop's: what the person gave (set, even empty, the agent types into a secret field only what the person gave; the tool runner, driven by a person, sets none)
 */
/**
 * @typedef {object} CallOutcome
 * @property {ToolResult} result
 * @property {Tool} [tool]
 * @property {Record<string, any>} [args]
 * @property {string} [urlBefore]
 * @property {string} [urlAfter]
 * @property {{ role: string, name: string }} [target] the element the call acted on, as the page named it
 * @property {string[]} [notes] Tabwright's own notes for the model (what the gate decided after the last step)
 * @property {boolean} [fromPage] the result came from running a tool that reads a page or another site: fenced as untrusted
 */

/**
 * @param {ToolCall} call @param {CallEnv} env
 * @returns {Promise<CallOutcome>} rejects only with AbortedError
 */
export async function runToolCall(call, env) {
  const { offered, mode, ctx, signal, guard } = env;
  const notes = guard.takeLate();
  const tool = offered.find((t) => t.name === call.name);
  if (!tool) {
    const known = findTool(call.name);
    if (known && mode !== 'act') {
      return { notes, result: fail('NOT_ALLOWED_IN_ASK_MODE', `${call.name} would change the page, and ${mode === 'plan' ? 'planning' : 'Ask mode'} is read-only. Answer from what you can read, or tell the user to switch to Act mode.`) };
    }
    return { notes, result: fail('UNKNOWN_TOOL', `There is no tool named "${call.name}". Available tools: ${offered.map((t) => t.name).join(', ')}.`, { retryable: true }) };
  }
  const parsed = parseToolArgs(call.arguments, tool.parameters);
  if (!parsed.ok) return { notes, tool, result: parsed };
  const args = parsed.args;
  const effects = effectsOf(tool, args);
  const watches = effects.some((e) => e !== 'controls_run');
  const urlBefore = watches ? (await raceAbort(ctx.browser.getTab(ctx.tabId), signal))?.url ?? '' : '';

  const target = await raceAbort(targetFacts(tool, args, env, effects), signal);
  const dest = tool.destination ? await raceAbort(tool.destination(args, ctx).catch(() => null), signal) : null;
  /** @type {CallFacts} */
  const facts = { tool: tool.name, args, effects, url: urlBefore, target, mode, dest };
  const verdict = guard.policy.checkCall(facts);
  if (verdict.action === 'refuse') return { notes, tool, args, result: fail(verdict.code, verdict.message) };
  /** @type {string | undefined} */
  let approvedOrigin;
  if (verdict.action === 'ask') {
    const answer = await raceAbort(guard.confirm(verdict.request), signal);
    if (answer === 'no') {
      return { notes, tool, args, result: fail('USER_DECLINED', `The user declined: ${verdict.request.action} on ${verdict.request.site}. Nothing was done. Do not try it again another way; finish, or ask the user what they want instead.`) };
    }
    // One reply, one card: a step the user allowed on its own site need not ask again for what it sends there.
    if (verdict.request.rule === 'site_confirm' || verdict.request.rule === 'sensitive_site') approvedOrigin = originOf(urlBefore) ?? undefined;
  }
  const given = env.personSecrets ? secretTyping(args, effects, target, urlBefore, env) : { ok: /** @type {const} */ (true), args };
  if (!given.ok) {
    // What the agent wanted to type into a secret field is masked from now on, typed or not.
    if (target?.secretField) env.secrets?.add([String(args.text ?? args.value ?? '')], originOf(urlBefore) ?? '');
    return { notes, tool, args, result: given.result, urlBefore, urlAfter: urlBefore, target: target ? { role: target.role, name: target.name } : undefined };
  }
  const runArgs = given.args;
  const typed = effects.includes('touches_secrets') ? String(runArgs.text ?? runArgs.value ?? '') : '';
  // What goes into a secret field is a secret from now on (masked everywhere after this call);
  // anything else typed is remembered so it cannot leave for another site unasked.
  if (typed && target?.secretField) env.secrets?.add([typed], originOf(urlBefore) ?? '');
  else if (typed) guard.policy.remember(typed);

  /** @type {ToolResult} */
  let result;
  const fromPage = carriesPageContent(tool);
  try {
    // A navigation is held like an acting step, so a redirect it meets is judged as its doing (and named so on the card).
    const navigation = effects.includes('navigates') && !effects.includes('acts_on_page') && await raceAbort(guard.canHold(ctx.tabId, ctx.browser), signal);
    if (effects.includes('acts_on_page') || navigation) {
      const where = dest ?? (typeof args.url === 'string' ? args.url : '');
      const cause = `${tool.name.replace(/_/g, ' ')}${target ? ` ${target.role} "${target.name}"` : where ? ` ${siteLabel(where)}` : ''}`;
      const step = await raceAbort(guard.runStep(ctx.tabId, ctx.browser, { cause, pageUrl: urlBefore, target, approvedOrigin }, () => raceAbort(tool.run(runArgs, ctx), signal)), signal);
      // What the step sent and how the server answered, beside what the page showed.
      result = withWrites(step.result, step.writes);
    } else {
      result = await raceAbort(tool.run(runArgs, ctx), signal);
    }
  } catch (err) {
    if (signal?.aborted) throw err;
    result = fail('TOOL_FAILED', `${call.name} failed: ${err instanceof Error ? err.message : err}`);
  }
  // What the page showed the model: page data from now on (agent/safety/policy.js, notePage).
  if (fromPage && result.ok) guard.policy.notePage(result.data);
  const urlAfter = watches ? (await raceAbort(ctx.browser.getTab(ctx.tabId), signal))?.url : undefined;
  // A declined or blocked write is the gate's own verdict, not the page's words.
  const gated = !result.ok && (result.code === 'USER_DECLINED' || result.code === 'CONFIRMATION_REQUIRED');
  return { notes, tool, args, result, urlBefore, urlAfter, target: target ? { role: target.role, name: target.name } : undefined, fromPage: fromPage && !gated };
}

/**
 * What the agent may type: a person's secret by its name ("[secret 1]") only into a secret field of
 * its site, and into a secret field only what the person gave (agent/handoff/person-secrets.js).
 * @param {Record<string, any>} args @param {readonly import('../types/core').Effect[]} effects
 * @param {CallFacts['target']} target @param {string} url @param {CallEnv} env
 * @returns {{ ok: true, args: Record<string, any> } | { ok: false, result: ToolResult }}
 */
function secretTyping(args, effects, target, url, env) {
  const key = typeof args.text === 'string' ? 'text' : typeof args.value === 'string' ? 'value' : null;
  if (!effects.includes('touches_secrets') || !key) return { ok: true, args };
  const said = env.messages.filter((m) => m.role === 'user').map((m) => textOf(m.content)).join('\n');
  const r = resolveSecretTyping(args[key], { secretField: target?.secretField === true, origin: originOf(url) ?? '', given: env.personSecrets ?? [], said });
  return r.ok ? { ok: true, args: { ...args, [key]: r.text } } : { ok: false, result: fail(r.code, r.message) };
}

/**
 * The element a call acts on, as the policy sees it: a ref is named by the last snapshot that listed
 * it; text, selector and coordinates are resolved by the page (the element under the point).
 * @param {Tool} tool @param {Record<string, any>} args @param {CallEnv} env @param {readonly import('../types/safety').Effect[]} effects
 * @returns {Promise<CallFacts['target']>}
 */
async function targetFacts(tool, args, env, effects) {
  if (!effects.includes('acts_on_page') && !effects.includes('touches_secrets')) return null;
  const t = targetOf(tool.name === 'type' ? { ...args, text: undefined } : args) ?? targetOf(args, 'from');
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

