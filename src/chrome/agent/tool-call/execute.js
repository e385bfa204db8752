// Running the tool: a step that acts on the page runs with the tab's requests held (so a write it
// causes waits for the person), and so does a navigation when the tab can be held (a redirect it
// meets is judged as its doing, and named so on the card); anything else just runs. A throw is a
// TOOL_FAILED result, unless the run was stopped.
/** @import { Tool, ToolCall, ToolResult } from '../../types/core' */
/** @import { CallFacts } from '../safety/policy.js' */
/** @import { CallEnv } from '../tool-call.js' */
import { raceAbort } from '../abort.js';
import { fail } from '../error-codes.js';
import { siteLabel } from '../safety/scope.js';
import { destOf } from '../safety/rules/rule.js';
import { withWrites } from '../completion.js';

/**
 * @param {ToolCall} call @param {Tool} tool @param {Record<string, any>} runArgs @param {CallFacts} facts
 * @param {string | undefined} approvedOrigin @param {CallEnv} env @returns {Promise<ToolResult>}
 */
export async function executeCall(call, tool, runArgs, facts, approvedOrigin, env) {
  const { ctx, signal, guard } = env;
  const run = () => raceAbort(tool.run(runArgs, ctx), signal);
  try {
    if (!(await runsHeld(facts, env))) return await run();
    const step = await raceAbort(guard.runStep(ctx.tabId, ctx.browser, { cause: causeOf(facts), pageUrl: facts.url, target: facts.target, approvedOrigin }, run), signal);
    // What the step sent and how the server answered, beside what the page showed.
    return withWrites(step.result, step.writes);
  } catch (err) {
    if (signal?.aborted) throw err;
    return fail('TOOL_FAILED', `${call.name} failed: ${err instanceof Error ? err.message : err}`);
  }
}

/** @param {CallFacts} facts @param {CallEnv} env */
async function runsHeld(facts, env) {
  if (facts.effects.includes('acts_on_page')) return true;
  return facts.effects.includes('navigates') && await raceAbort(env.guard.canHold(env.ctx.tabId, env.ctx.browser), env.signal);
}

/** What a card names as the step's doing: 'click button "Buy"', 'navigate shop.test'. @param {CallFacts} facts */
export function causeOf(facts) {
  const { target } = facts;
  const where = destOf(facts);
  return `${facts.tool.replace(/_/g, ' ')}${target ? ` ${target.role} "${target.name}"` : where ? ` ${siteLabel(where)}` : ''}`;
}
