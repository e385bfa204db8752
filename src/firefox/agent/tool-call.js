// Runs one tool call for the loop: mode enforcement, argument checks, the confirmation gate for
// consequential actions, and abort. Every failure is a tool result the model can act on.
/** @import { ChatMessage, Interaction, Mode, Tool, ToolCall, ToolContext, ToolResult } from '../types/core' */
/** @import { createConfirmPolicy } from './confirm-policy.js' */
import { parseToolArgs } from './tool-args.js';
import { findTool } from './tools/index.js';
import { raceAbort } from './abort.js';
import { describeRef } from './confirm-policy.js';

/** Tools whose effect on the tab's URL the navigation detector checks. */
const NAVIGATING = new Set(['click', 'navigate']);

/**
 * @typedef {object} CallEnv
 * @property {Tool[]} offered the tools of the current mode
 * @property {Mode} mode
 * @property {ToolContext} ctx
 * @property {ChatMessage[]} messages the conversation, to name the element a ref points to
 * @property {ReturnType<typeof createConfirmPolicy>} [policy]
 * @property {Interaction} [interact]
 * @property {AbortSignal} [signal]
 */
/**
 * @typedef {object} CallOutcome
 * @property {ToolResult} result
 * @property {Tool} [tool]
 * @property {Record<string, any>} [args]
 * @property {string} [urlBefore]
 * @property {string} [urlAfter]
 */

/**
 * @param {ToolCall} call @param {CallEnv} env
 * @returns {Promise<CallOutcome>} rejects only with AbortedError
 */
export async function runToolCall(call, env) {
  const { offered, mode, ctx, signal } = env;
  const tool = offered.find((t) => t.name === call.name);
  if (!tool) {
    const known = findTool(call.name);
    if (known && mode !== 'act') {
      return { result: { ok: false, code: 'NOT_ALLOWED_IN_ASK_MODE', message: `${call.name} would change the page, and ${mode === 'plan' ? 'planning' : 'Ask mode'} is read-only. Answer from what you can read, or tell the user to switch to Act mode.` } };
    }
    return { result: { ok: false, code: 'UNKNOWN_TOOL', message: `There is no tool named "${call.name}". Available tools: ${offered.map((t) => t.name).join(', ')}.`, retryable: true } };
  }
  const parsed = parseToolArgs(call.arguments, tool.parameters);
  if (!parsed.ok) return { tool, result: parsed };
  const args = parsed.args;

  // A read-only tool may still change something with some arguments (fetch_url with POST).
  const writes = !tool.readOnly || Boolean(tool.writes?.(args));
  if (writes && mode !== 'act') {
    return { tool, args, result: { ok: false, code: 'NOT_ALLOWED_IN_ASK_MODE', message: `${call.name} with these arguments would change data, and ${mode === 'plan' ? 'planning' : 'Ask mode'} is read-only. Answer from what you can read, or tell the user to switch to Act mode.` } };
  }
  const tracksUrl = NAVIGATING.has(tool.name) || (writes && env.policy);
  const urlBefore = tracksUrl ? (await raceAbort(ctx.browser.getTab(ctx.tabId), signal))?.url : undefined;
  if (writes && env.policy) {
    const gate = await confirmGate(tool, args, urlBefore ?? '', env);
    if (gate) return { tool, args, result: gate };
  }
  /** @type {ToolResult} */
  let result;
  try {
    result = await raceAbort(tool.run(args, ctx), signal);
  } catch (err) {
    if (signal?.aborted) throw err;
    result = { ok: false, code: 'TOOL_FAILED', message: `${call.name} failed: ${err instanceof Error ? err.message : err}` };
  }
  const urlAfter = NAVIGATING.has(tool.name) ? (await raceAbort(ctx.browser.getTab(ctx.tabId), signal))?.url : undefined;
  return { tool, args, result, urlBefore, urlAfter };
}

/**
 * Asks the user before a consequential action. Returns a tool error when it must not happen.
 * @param {Tool} tool @param {Record<string, any>} args @param {string} url @param {CallEnv} env
 * @returns {Promise<ToolResult | null>}
 */
async function confirmGate(tool, args, url, env) {
  const policy = /** @type {NonNullable<CallEnv['policy']>} */ (env.policy);
  // A click by visible text names its target as surely as a ref does (x/y clicks name none).
  const target = typeof args.ref === 'string' ? describeRef(env.messages, args.ref)
    : tool.name === 'click' && typeof args.text === 'string' ? { role: 'element', name: args.text } : null;
  const decision = policy.decide({ tool: tool.name, args, target, url });
  if (decision.action === 'allow') return null;
  const { request } = decision;
  if (decision.action === 'block' || !env.interact) {
    return { ok: false, code: 'CONFIRMATION_REQUIRED', message: `${request.action} on ${request.site} is a consequential action (${request.category}) and nobody is here to confirm it. It was not done. Finish and tell the user it needs their confirmation.` };
  }
  const answer = await raceAbort(env.interact.confirm(request, env.signal), env.signal);
  if (answer === 'no') {
    return { ok: false, code: 'USER_DECLINED', message: `The user declined: ${request.action} on ${request.site}. Nothing was done. Do not try it again; finish, or ask the user what they want instead.` };
  }
  if (answer === 'always') policy.allow(request.site);
  return null;
}
