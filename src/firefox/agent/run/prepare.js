// A run's fixed parts, worked out once before its first step: the model's window and what follows
// from it (result budgets, the tools that fit, when to compact), the tools' context, the screenshot
// policy, the loop detector and the verdict's bookkeeping. Browser-free.
/** @import { ToolContext } from '../../types/core' */
/** @import { RunOptions } from '../loop.js' */
/** @import { Guard } from '../safety/guard.js' */
/** @import { CompactionConfig } from '../compaction.js' */
import { budgetsFor } from '../budget.js';
import { toolsForMode } from '../tools/index.js';
import { COMPACTION_DEFAULTS, textOf } from '../compaction.js';
import { createLoopDetector } from '../loop-detect.js';
import { observeAfterDone } from '../done-check.js';
import { createRunVerdict } from '../run-verdict.js';
import { createFence } from '../untrusted.js';
import { chooseTier, toolsOfTier } from '../tool-tiers.js';
import { createScreenshots } from '../screenshots.js';

/**
 * @typedef {Awaited<ReturnType<typeof prepareRun>>} Run
 * One run: its options, what was worked out from them, and the state its stages share
 * (`reportedTokens`, `guideKey`, `emptyRetried` change as it goes).
 */

/**
 * @param {RunOptions} opts @param {Guard} guard
 */
export async function prepareRun(opts, guard) {
  const { provider, mode, messages, signal } = opts;
  const fence = opts.fence ?? createFence();
  let counter = 0;
  // The model's real window decides which tools fit, when to compact and how much of a page one result may carry.
  const limits = await provider.limits?.().catch(() => null) ?? null;
  const caps = provider.capabilities?.();
  const contextWindow = limits?.contextWindow ?? caps?.contextWindow ?? COMPACTION_DEFAULTS.contextWindow;
  const budgets = budgetsFor(contextWindow);
  // A model without vision gets the screenshot described by the vision role's model, or its size alone.
  const seesImages = caps?.vision ?? true;
  const screens = createScreenshots({ policy: opts.screenshots, seesImages, vision: opts.visionProvider, fence, signal });
  const tools = offeredTools(opts, screens, contextWindow, limits?.maxOutput ?? caps?.maxOutput ?? 4_096, caps?.tools === false);
  const pinned = opts.pinned ?? { note: '' };
  const ctx = toolContext(opts, guard, budgets.result, pinned);
  return {
    opts, guard, provider, mode, messages, signal, fence, ctx, screens, seesImages, contextWindow, budgets,
    emit: opts.emit,
    secrets: opts.secrets,
    maxSteps: opts.maxSteps ?? 100,
    newId: opts.newId ?? (() => `m${Date.now().toString(36)}${(counter++).toString(36)}`),
    ...tools,
    /** @type {CompactionConfig} */
    cfg: { ...COMPACTION_DEFAULTS, contextWindow, toolResultCap: budgets.oldResult, ...opts.compaction },
    detector: createLoopDetector(opts.loopDetect),
    pinned,
    /** Whether done is believed, and the verdict at the end (agent/run-verdict.js). */
    completion: createRunVerdict({ guard, task: taskOf(opts), readOnly: mode !== 'act', observe: (summary) => observeAfterDone(summary, ctx) }),
    /** Tokens the provider reported for the last request (null: not known since the last compaction). @type {number | null} */
    reportedTokens: null,
    /** The site guide the conversation is on (its key), so a step that changes site adds the new one once. @type {string | null} */
    guideKey: null,
    /** An empty answer is asked for again once per run. */
    emptyRetried: false,
    /** Moments the person said Done to ("kind URL"): not asked about again on that page (agent/run/handoff.js). @type {string[]} */
    handoffDismissed: [],
    /** The run's writes already looked at for a signed-out answer. */
    handoffWritesSeen: 0,
  };
}

/** What the user asked for in this run (the last user message when it started). @param {RunOptions} opts */
function taskOf(opts) {
  return textOf([...opts.messages].reverse().find((m) => m.role === 'user')?.content ?? '');
}

/**
 * The tools offered: the mode's (a skill's only, when it names them), in the tier the model's
 * window fits, plus the caller's extras (Plan mode's propose_plan).
 * @param {RunOptions} opts @param {ReturnType<typeof createScreenshots>} screens
 * @param {number} contextWindow @param {number} maxOutput @param {boolean} promptProtocol
 */
function offeredTools(opts, screens, contextWindow, maxOutput, promptProtocol) {
  const { mode, messages } = opts;
  const all = toolsForMode(mode, { developer: opts.developerTools === true, recorder: Boolean(opts.toolContext.browser.recorder), workflows: opts.hasWorkflows === true });
  const modeTools = screens.offer(all).filter((t) => !opts.onlyTools?.length || opts.onlyTools.includes(t.name) || t.alwaysOffered === true);
  const tiering = chooseTier({
    tools: modeTools, contextWindow, maxOutput, override: opts.toolTier, promptProtocol,
    systemTokens: Math.ceil(textOf(messages[0]?.role === 'system' ? messages[0].content : '').length / 3.5),
  });
  const tier = toolsOfTier(modeTools, tiering.tier);
  const extra = opts.extraTools ?? [];
  return {
    tiering,
    tier,
    offered: [...tier.tools, ...extra],
    schemas: [...tier.schemas, ...extra.map(({ name, description, parameters }) => ({ name, description, parameters }))],
  };
}

/**
 * The context every tool call of the run gets: the tab, the gate, the result budget, and the
 * agent's own hands (clarify asks the user; the scratchpad note).
 * @param {RunOptions} opts @param {Guard} guard @param {number} resultChars
 * @param {{ note: string }} pinned the scratchpad note @returns {ToolContext}
 */
function toolContext(opts, guard, resultChars, pinned) {
  const { signal } = opts;
  return {
    ...opts.toolContext,
    signal,
    guard,
    resultChars,
    agent: {
      clarify: (q) => (opts.interact ? opts.interact.clarify(q, signal) : Promise.resolve(null)),
      setNote: (note) => { pinned.note = note; },
    },
  };
}
