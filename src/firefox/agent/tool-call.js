// Runs one tool call for the loop: argument checks, the safety gate (agent/safety/: the policy's
// verdict from the effects the tool declares, the user's answer when it asks, the hold on the
// requests an acting step causes), and abort. Every failure is a tool result the model can act on.
// The steps are in tool-call/: which tool, the facts the policy sees, the gate, what is typed, the run.
/** @import { ChatMessage, Mode, Tool, ToolCall, ToolContext, ToolResult } from '../types/core' */
/** @import { Guard } from './safety/guard.js' */
/** @import { CallFacts } from './safety/policy.js' */
import { parseToolArgs } from './tool-args.js';
import { raceAbort } from './abort.js';
import { carriesPageContent } from './safety/effects.js';
import { offeredTool } from './tool-call/offered.js';
import { callFacts, watchesTab } from './tool-call/facts.js';
import { gateCall } from './tool-call/gate.js';
import { typedArgs } from './tool-call/typing.js';
import { executeCall } from './tool-call/execute.js';

export { describeRef } from './tool-call/facts.js';

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
  const notes = env.guard.takeLate();
  const found = offeredTool(call, env);
  if (!found.tool) return { notes, result: found.result };
  const { tool } = found;
  const parsed = parseToolArgs(call.arguments, tool.parameters);
  if (!parsed.ok) return { notes, tool, result: parsed };
  const { args } = parsed;
  const facts = await callFacts(tool, args, env);
  const gate = await gateCall(facts, env);
  if (!gate.ok) return { notes, tool, args, result: gate.result };
  const typing = typedArgs(facts, env);
  if (!typing.ok) return { notes, tool, args, result: typing.result, urlBefore: facts.url, urlAfter: facts.url, target: named(facts.target) };
  const result = await executeCall(call, tool, typing.args, facts, gate.approvedOrigin, env);
  return finish(result, facts, env, { notes, tool, args });
}

/**
 * After the call: what the page showed the model is page data from now on (policy.notePage), and
 * the tab's URL after it. A declined or blocked write is the gate's own verdict, not the page's words.
 * @param {ToolResult} result @param {CallFacts} facts @param {CallEnv} env
 * @param {{ notes: string[], tool: Tool, args: Record<string, any> }} base @returns {Promise<CallOutcome>}
 */
async function finish(result, facts, env, base) {
  const fromPage = carriesPageContent(base.tool);
  if (fromPage && result.ok) env.guard.policy.notePage(result.data);
  const urlAfter = watchesTab(facts.effects) ? (await raceAbort(env.ctx.browser.getTab(env.ctx.tabId), env.signal))?.url : undefined;
  const gated = !result.ok && (result.code === 'USER_DECLINED' || result.code === 'CONFIRMATION_REQUIRED');
  return { ...base, result, urlBefore: facts.url, urlAfter, target: named(facts.target), fromPage: fromPage && !gated };
}

/** The element as the page named it (without whether it is a secret field). @param {CallFacts['target']} target */
function named(target) { return target ? { role: target.role, name: target.name } : undefined; }
