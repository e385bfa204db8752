// The agent loop: ask the model, run the tools it calls, feed the results back, until it answers,
// calls done, is stopped, loops, or reaches the step cap. This file reads top to bottom as the run's
// stages; each lives in run/: prepare.js (what the model's window allows, the tools' context),
// guides.js (site guides, the tier notice), model-turn.js (compaction and one streamed turn),
// tool-step.js (a batch of calls: run, mask, weigh done, record), endings.js (every way a run ends);
// spend-check.js guards each model call against the run's and the day's budgets.
// Plan mode (plan.js) runs this loop for planning and for each step. Browser-free: everything
// arrives as a parameter.
/** @import { AgentEvent, ChatMessage, Interaction, Mode, Provider, RunOutcome, Tool, ToolContext } from '../types/core' */
/** @import { CompactionConfig } from './compaction.js' */
/** @import { LoopDetectConfig } from './loop-detect.js' */
/** @import { Policy } from './safety/policy.js' */
/** @import { Guard } from './safety/guard.js' */
/** @import { Fence } from './untrusted.js' */
/** @import { SecretVault } from '../types/safety' */
/** @import { SiteGuide } from './adapters/site-guide.js' */
import { AbortedError } from './abort.js';
import { textOf } from './compaction.js';
import { unfinishedOutcome } from './outcome.js';
import { runPlan } from './plan.js';
import { createPolicy } from './safety/policy.js';
import { createTaskScope } from './safety/scope.js';
import { createGuard } from './safety/guard.js';
import { createFence } from './untrusted.js';
import { prepareRun } from './run/prepare.js';
import { announceTier, startGuide } from './run/guides.js';
import { askModel } from './run/model-turn.js';
import { runBatch } from './run/tool-step.js';
import { budgetReached, emptyAnswer, finishRun, providerFailed, stepLimit, stopped } from './run/endings.js';
import { BudgetReachedError } from './run/spend-check.js';

/**
 * @typedef {object} RunOptions
 * @property {Provider} provider
 * @property {Provider} [executorProvider] Plan mode: runs the approved steps (a cheaper model); defaults to provider
 * @property {Provider} [plannerProvider] Plan mode: writes the plan (the planner role's model); defaults to provider
 * @property {Provider} [visionProvider] describes screenshots for a provider that cannot see images (the vision role's model)
 * @property {'auto' | 'always' | 'never'} [screenshots] when a screenshot reaches the model: auto, when it asks (the screenshot tool); always, after every step that acts; never (the screenshot tool is not offered)
 * @property {Mode} mode
 * @property {ChatMessage[]} messages the conversation so far, system prompt and new user message included; the loop appends to it (and compacts it in place)
 * @property {ToolContext} toolContext
 * @property {(e: AgentEvent) => void} emit
 * @property {() => Promise<void>} [checkpoint] writes the conversation down now (write-ahead): awaited after a tool call is announced and before it runs, and after its result joins the conversation, so a background stopped at any moment loses no finished step
 * @property {AbortSignal} [signal]
 * @property {number} [maxSteps] model calls allowed in this run (default 100)
 * @property {() => string} [newId]
 * @property {Interaction} [interact] the user, for plan approval, confirmations and clarify; without it nothing consequential runs
 * @property {Policy} [policy] the safety policy (agent/safety/policy.js); default: the task scope of the tab's site and the sites the user named, no site lists
 * @property {Fence} [fence] the run's untrusted-content fence; the system prompt must explain the same one (default: a new one)
 * @property {SecretVault} [secrets] the tab's known secrets: masked in everything the model, the panel and the history see
 * @property {import('../types/handoff').PersonSecret[]} [personSecrets] passwords and codes the person wrote in their messages (the model sees their names); when set (runs the person started), the agent types into a secret field only these or the person's own words
 * @property {{ note: string }} [pinned] the scratchpad note, owned by the caller so it outlives the run
 * @property {Partial<CompactionConfig>} [compaction]
 * @property {Partial<LoopDetectConfig>} [loopDetect]
 * @property {boolean} [verifyDone] take the final observation after done (default true)
 * @property {(mode: Mode) => string} [systemFor] the system prompt for a mode (Plan mode's executor)
 * @property {Tool[]} [extraTools] offered on top of the mode's tools (Plan mode's propose_plan)
 * @property {(url: string) => Promise<SiteGuide | null>} [siteGuide] what Tabwright knows about a site (its adapter's guidance, its skills): added to the run's first user message, and to a step's result when the step takes the tab to a site with another guide
 * @property {readonly string[]} [onlyTools] a skill's tools: the only ones offered (besides those always offered: done, clarify)
 * @property {boolean} [hasWorkflows] the user has saved workflows: run_workflow is offered (Act mode)
 * @property {boolean} [developerTools] the user turned on Settings → Developer tools: execute_js, network_requests, inspect_styles, inject_css (Act mode)
 * @property {'auto' | 'full' | 'compact'} [toolTier] the user's choice of tools for this provider (agent/tool-tiers.js); auto: by the model's window
 * @property {import('../types/spend').SpendControl} [spend] the run's and the day's spending and budgets: a model call that would pass one waits for the person (run/spend-check.js)
 * @property {{ afterDoneMs?: number, doneAnswerMs?: number, duplicateWaitMs?: number }} [holdTimes] the hold's waits after done (agent/safety/guard.js; tests shorten them)
 */

/**
 * @param {RunOptions} opts
 * @returns {Promise<RunOutcome>}
 */
export function runAgent(opts) {
  // One fence per run, shared by the planner and every step (the system prompt names it).
  const o = { ...opts, fence: opts.fence ?? createFence() };
  return o.mode === 'plan' ? runPlan(o, runLoop) : runLoop(o);
}

/**
 * The Ask / Act loop (Plan mode runs it for planning and for each step).
 * @param {RunOptions} opts
 * @returns {Promise<RunOutcome>}
 */
export async function runLoop(opts) {
  const policy = opts.policy ?? await defaultPolicy(opts);
  const guard = createGuard({ policy, interact: opts.interact, signal: opts.signal, times: opts.holdTimes });
  try {
    const out = await loop(opts, guard);
    // A run that ended another way (an error, the cap, Stop) is never verified; a write it had refused still says failed.
    if (!out.outcome && out.status !== 'rejected') out.outcome = unfinishedOutcome(guard.writes(), out.error);
    return out;
  } finally {
    await guard.close();
  }
}

/** The policy of a run started without one: the task scope is the tab's site and the sites the user named. @param {RunOptions} opts */
async function defaultPolicy(opts) {
  const tab = await opts.toolContext.browser.getTab(opts.toolContext.tabId).catch(() => null);
  const user = [...opts.messages].reverse().find((m) => m.role === 'user');
  return createPolicy({ scope: createTaskScope(tab?.url ?? '', user ? textOf(user.content) : ''), secrets: opts.secrets });
}

/**
 * The run as stages: prepare, then per step ask the model, record its answer, run its calls; it
 * ends with an answer, an error, Stop, a loop or the step cap (run/endings.js).
 * @param {RunOptions} opts @param {Guard} guard
 * @returns {Promise<RunOutcome>}
 */
async function loop(opts, guard) {
  const run = await prepareRun(opts, guard);
  await startGuide(run);
  announceTier(run);
  for (let step = 1; step <= run.maxSteps; step++) {
    if (run.signal?.aborted) return stopped(run, step - 1);
    const messageId = run.newId();
    /** @type {Awaited<ReturnType<typeof askModel>>} */
    let reply;
    try {
      reply = await askModel(run, messageId);
    } catch (err) {
      if (run.signal?.aborted || err instanceof AbortedError) return stopped(run, step - 1);
      if (err instanceof BudgetReachedError) return budgetReached(run, err.message, step - 1);
      return providerFailed(run, err, step);
    }
    const empty = !reply.calls.length && !reply.text.trim();
    if (!empty) run.messages.push({ role: 'assistant', content: reply.text, ...(reply.calls.length ? { toolCalls: reply.calls } : {}) });
    run.emit({ type: 'assistant_done', messageId, text: reply.text });
    if (empty) {
      const end = emptyAnswer(run, step);
      if (end) return end;
      step--;
      continue;
    }
    if (reply.calls.length === 0) return finishRun(run, 'answered', reply.text, step);
    const end = await runBatch(run, reply.calls, step);
    if (end) return end;
  }
  return stepLimit(run);
}
