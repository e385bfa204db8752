// Plan mode (seed 000): the model first writes plain-English steps; the user approves, edits or
// rejects them in the panel; each approved step then runs as a short Act loop that sees the
// earlier steps' outputs, optionally on a cheaper executor model. A failing step may re-plan the
// rest once, and the new steps go back to the user for approval.
/** @import { ChatMessage, Outcome, OutcomeReason, RunOutcome, Tool } from '../types/core' */
/** @import { RunOptions } from './loop.js' */
import { raceAbort, AbortedError } from './abort.js';
import { systemPrompt, STEP_PROMPT, stepBrief, replanBrief } from './prompts.js';
import { textOf } from './compaction.js';
import { createFence } from './untrusted.js';
import { asksForChange } from './completion.js';
import { errorOf, fail } from './error-codes.js';
import { findTool } from './tools/index.js';
import { withTimeout } from './abort.js';

const MAX_STEPS_PER_PLAN_STEP = 25;
const MAX_REPLANS = 1;

/**
 * One plan run's shared state: its options, the loop that runs the planner and each step, the task,
 * and the steps left in its budget.
 * @typedef {{ opts: RunOptions, runLoop: (opts: RunOptions) => Promise<RunOutcome>, task: string, budget: number, newId: () => string }} PlanRun
 */
/** @typedef {{ planId: string, approved: boolean, steps: string[] }} Approved */
/**
 * What the executed steps left: their outputs (for later steps and the final answer), their
 * verdicts (the plan's is judged from them) and the re-plans used.
 * @typedef {{ outputs: { step: string, output: string }[], verdicts: Outcome[], replans: number }} Progress
 */

/**
 * @param {RunOptions} opts
 * @param {(opts: RunOptions) => Promise<RunOutcome>} runLoop
 * @returns {Promise<RunOutcome>}
 */
export async function runPlan(opts, runLoop) {
  /** @type {PlanRun} */
  const r = {
    opts, runLoop, budget: opts.maxSteps ?? 100,
    task: textOf([...opts.messages].reverse().find((m) => m.role === 'user')?.content ?? ''),
    newId: opts.newId ?? (() => `p${Math.random().toString(36).slice(2)}`),
  };
  try {
    await showPage(opts);
    const first = await planSteps(r, opts.messages);
    if (!first.steps) return first.outcome;
    const approved = await approveSteps(r, first.steps);
    if (!approved.approved) return rejectPlan(r);
    opts.messages.push({ role: 'user', content: `I approved this plan:\n${numbered(approved.steps)}` });
    return await executeSteps(r, approved);
  } catch (err) {
    if (opts.signal?.aborted || err instanceof AbortedError) {
      opts.emit({ type: 'error', ...errorOf('ABORTED') });
      return { status: 'aborted', steps: stepsUsed(r) };
    }
    throw err;
  }
}

/** @param {PlanRun} r */
function stepsUsed(r) {
  return (r.opts.maxSteps ?? 100) - r.budget;
}

/**
 * Runs the planner on `msgs`; returns the steps, or the run's outcome when it ends another way.
 * @param {PlanRun} r @param {ChatMessage[]} msgs
 * @param {Outcome[]} [before] the verdicts of steps already run (a re-plan): an answer instead of a new plan carries them
 */
async function planSteps(r, msgs, before = []) {
  const { opts } = r;
  /** @type {string[] | null} */
  let steps = null;
  const carried = () => (before.length ? planOutcome(before, r.task, false) : null);
  // The planner's own "final" is the proposal; the plan card shows it, not a final answer.
  /** @type {RunOptions['emit']} */
  const plannerEmit = (e) => {
    if (e.type === 'final' && steps) return;
    const c = e.type === 'final' ? carried() : null;
    opts.emit(e.type === 'final' && c ? { ...e, outcome: c } : e);
  };
  // The planner role's model plans (Settings → Model per role), the main model otherwise.
  const outcome = await r.runLoop({ ...opts, provider: opts.plannerProvider ?? opts.provider, emit: plannerEmit, mode: 'plan', messages: msgs, maxSteps: Math.min(r.budget, 10), verifyDone: false, extraTools: [proposePlanTool((s) => { steps = s; })] });
  r.budget -= outcome.steps;
  const c = carried();
  return { steps: /** @type {string[] | null} */ (steps), outcome: c && !steps ? { ...outcome, outcome: c } : outcome };
}

/**
 * Shows the steps for approval; the user's edits come back.
 * @param {PlanRun} r @param {string[]} steps @returns {Promise<Approved>}
 */
async function approveSteps(r, steps) {
  const { emit, interact, signal } = r.opts;
  const planId = r.newId();
  emit({ type: 'plan', planId, steps, status: 'pending' });
  if (!interact) {
    emit({ type: 'plan', planId, steps, status: 'rejected' });
    return { planId, approved: false, steps };
  }
  const answer = await raceAbort(interact.approvePlan(planId, steps, signal), signal);
  const edited = answer.steps.map((s) => s.trim()).filter(Boolean);
  const approved = answer.approved && edited.length > 0;
  emit({ type: 'plan', planId, steps: edited, status: approved ? 'running' : 'rejected' });
  return { planId, approved, steps: edited };
}

/**
 * Runs the approved steps in order; a failing step may re-plan the rest once (approved again).
 * @param {PlanRun} r @param {Approved} approved @returns {Promise<RunOutcome>}
 */
async function executeSteps(r, approved) {
  const { emit, signal } = r.opts;
  /** @type {Progress} */
  const progress = { outputs: [], verdicts: [], replans: 0 };
  let current = approved;
  let index = 0;
  while (index < current.steps.length) {
    if (signal?.aborted) throw new AbortedError();
    if (r.budget <= 0) break;
    const outcome = await runStep(r, current, index, progress);
    if (outcome.status === 'aborted') {
      emit({ type: 'plan_step', planId: current.planId, index, status: 'failed' });
      emit({ type: 'plan', planId: current.planId, steps: current.steps, status: 'failed' });
      return outcome;
    }
    // A step whose write the server refused did not do what it says, whatever its done claims.
    if (outcome.status === 'done' && outcome.outcome?.verdict !== 'failed') {
      const output = outcome.text ?? '';
      progress.outputs.push({ step: current.steps[index], output });
      emit({ type: 'plan_step', planId: current.planId, index, status: 'ok', output });
      index++;
      continue;
    }
    const next = await afterFailedStep(r, current, index, outcome, progress);
    if ('end' in next) return next.end;
    // The new plan covers only the rest; earlier outputs stay in context for it.
    current = next.plan;
    index = 0;
  }
  emit({ type: 'plan', planId: current.planId, steps: current.steps, status: index >= current.steps.length ? 'done' : 'failed' });
  if (index < current.steps.length) return finishPlan(r, 'step_limit', `Stopped: the step cap was reached before step ${index + 1}.`, current.steps, progress);
  return finishPlan(r, 'done', '', current.steps, progress);
}

/**
 * One step as a short Act loop that sees the earlier steps' outputs, on the executor's model.
 * @param {PlanRun} r @param {Approved} current @param {number} index @param {Progress} progress
 */
async function runStep(r, current, index, progress) {
  const { opts } = r;
  opts.emit({ type: 'plan_step', planId: current.planId, index, status: 'running' });
  const stepSystem = `${(opts.systemFor ?? ((m) => systemPrompt({ mode: m, fence: opts.fence ?? createFence() })))('act')}\n${STEP_PROMPT}`;
  /** @type {ChatMessage[]} */
  const stepMessages = [{ role: 'system', content: stepSystem }, { role: 'user', content: stepBrief(r.task, current.steps, index, progress.outputs) }];
  // A step's done is its output, shown on the plan card; the plan's end is the final answer.
  const outcome = await r.runLoop({ ...opts, emit: (e) => { if (e.type !== 'final') opts.emit(e); }, provider: opts.executorProvider ?? opts.provider, mode: 'act', messages: stepMessages, maxSteps: Math.min(r.budget, MAX_STEPS_PER_PLAN_STEP), verifyDone: false, extraTools: [] });
  r.budget -= outcome.steps;
  if (outcome.outcome) progress.verdicts.push(outcome.outcome);
  return outcome;
}

/**
 * A step failed: the plan ends, or (once) the rest is planned again and approved again.
 * @param {PlanRun} r @param {Approved} current @param {number} index @param {RunOutcome} outcome @param {Progress} progress
 * @returns {Promise<{ end: RunOutcome } | { plan: Approved }>}
 */
async function afterFailedStep(r, current, index, outcome, progress) {
  const { emit, messages } = r.opts;
  const refused = outcome.status === 'done' ? outcome.outcome?.reasons.map((x) => x.message).join(' ') : '';
  const reason = refused || (outcome.error?.message ?? outcome.text ?? 'the step did not finish');
  emit({ type: 'plan_step', planId: current.planId, index, status: 'failed', output: reason });
  emit({ type: 'plan', planId: current.planId, steps: current.steps, status: 'failed' });
  if (progress.replans >= MAX_REPLANS || r.budget <= 0) return { end: finishPlan(r, 'error', `Step ${index + 1} failed: ${reason}`, current.steps, progress) };
  progress.replans++;
  /** @type {ChatMessage[]} */
  const replanMessages = [messages[0], { role: 'user', content: replanBrief(r.task, current.steps, index, reason, progress.outputs) }];
  const again = await planSteps(r, replanMessages, progress.verdicts);
  if (!again.steps) return { end: again.outcome };
  const plan = await approveSteps(r, again.steps);
  return plan.approved ? { plan } : { end: rejectPlan(r) };
}

/** @param {PlanRun} r @returns {RunOutcome} */
function rejectPlan(r) {
  const text = 'Plan rejected. Nothing was done. Tell me what to change, or send the task again.';
  r.opts.messages.push({ role: 'assistant', content: text });
  r.opts.emit({ type: 'final', text });
  return { status: 'rejected', text, steps: stepsUsed(r) };
}

/**
 * The plan's end: "completed" only when its verdict is verified; otherwise what is not verified
 * or what failed, and the steps done before.
 * @param {PlanRun} r @param {'done' | 'error' | 'step_limit'} status @param {string} problem
 * @param {string[]} steps @param {Progress} progress
 * @returns {RunOutcome}
 */
function finishPlan(r, status, problem, steps, { outputs, verdicts }) {
  const outcome = planOutcome(verdicts, r.task, status === 'done');
  const lines = outputs.map((o, i) => `${i + 1}. ${o.step}: ${o.output}`);
  const said = outcome.reasons.map((x) => x.message).join(' ');
  const neutral = outcome.verdict === 'verified' || outcome.reasons.every((x) => x.code === 'NOTHING_TO_CHECK');
  const head = status !== 'done' ? problem
    : neutral ? `Plan completed (${steps.length} steps).`
      : outcome.verdict === 'failed' ? `Plan finished (${steps.length} steps), but a change was refused: ${said}`
        : `Plan finished (${steps.length} steps), not verified: ${said}`;
  const text = status === 'done' ? `${head}\n${lines.join('\n')}` : `${head}\n${lines.length ? `Steps finished before that:\n${lines.join('\n')}` : ''}`.trim();
  r.opts.messages.push({ role: 'assistant', content: text });
  if (status === 'done') r.opts.emit({ type: 'final', text, outcome });
  else r.opts.emit({ type: 'error', code: status === 'error' ? 'PLAN_STEP_FAILED' : 'STEP_LIMIT', message: text });
  return { status, text, steps: stepsUsed(r), outcome, ...(status === 'done' ? {} : { error: { code: status === 'error' ? 'PLAN_STEP_FAILED' : 'STEP_LIMIT', message: text } }) };
}

/**
 * A plan's verdict from its steps': every write of every step counts (one refused fails the plan);
 * whether anything needed writing is the whole task's question, not a step's.
 * @param {Outcome[]} steps @param {string} task @param {boolean} finished every step ran
 * @returns {Outcome}
 */
export function planOutcome(steps, task, finished) {
  const receipt = steps.flatMap((o) => o.receipt);
  const own = steps.flatMap((o) => o.reasons).filter((r) => r.code !== 'NOTHING_TO_CHECK' && r.code !== 'NO_WRITE_SEEN' && r.code !== 'NO_VERDICT');
  if (steps.some((o) => o.verdict === 'failed')) return { verdict: 'failed', reasons: steps.filter((o) => o.verdict === 'failed').flatMap((o) => o.reasons), receipt };
  /** @type {OutcomeReason[]} */
  const reasons = unique(own);
  if (!finished) reasons.unshift(errorOf('NO_VERDICT'));
  // A step verified with no write created a job: that is its evidence.
  const jobs = steps.some((o) => o.verdict === 'verified' && !o.receipt.length);
  if (!receipt.length && !jobs) reasons.push(asksForChange(task) ? errorOf('NO_WRITE_SEEN') : errorOf('NOTHING_TO_CHECK'));
  return { verdict: reasons.length ? 'not_verified' : 'verified', reasons, receipt };
}

/** @param {OutcomeReason[]} reasons */
function unique(reasons) {
  const seen = new Set();
  return reasons.filter((r) => (seen.has(r.message) ? false : (seen.add(r.message), true)));
}

/** @param {string[]} steps */
function numbered(steps) {
  return steps.map((s, i) => `${i + 1}. ${s}`).join('\n');
}

/**
 * The planner's terminal tool: the plan goes to the user, not to the page.
 * @param {(steps: string[]) => void} onPlan
 * @returns {Tool}
 */
export function proposePlanTool(onPlan) {
  return {
    name: 'propose_plan',
    description: 'Propose the plan: plain-English steps, one action each, that the user will approve or edit before they run.',
    parameters: {
      type: 'object',
      properties: {
        steps: { type: 'array', items: { type: 'string' }, description: '2 to 8 steps, e.g. "Type alice into the Username field".' },
        message: { type: 'string', description: 'One sentence for the user about the plan.' },
      },
      required: ['steps'],
      additionalProperties: false,
    },
    effects: ['controls_run'],
    terminal: true,
    async run(args) {
      const steps = /** @type {unknown[]} */ (args.steps).map((s) => String(s).trim()).filter(Boolean).slice(0, 20);
      if (!steps.length) return fail('EMPTY_PLAN');
      onPlan(steps);
      return { ok: true, data: `Plan proposed (${steps.length} steps); waiting for the user's approval.` };
    },
  };
}

/** How long the planner's first look at the page may take before it plans without it. */
const PAGE_VIEW_MS = 10_000;

/**
 * The planner sees the page once before it plans, when its model sees images (seed 000 asks for
 * the outline, which its tools read, and a picture): one screenshot joins the task's message.
 * Nothing joins when screenshots are off, the model is not known to see images, or the capture
 * fails (the plan is then made from the outline alone).
 * @param {RunOptions} opts
 */
async function showPage(opts) {
  const planner = opts.plannerProvider ?? opts.provider;
  if (opts.screenshots === 'never' || planner.capabilities?.()?.vision !== true) return;
  const tool = findTool('screenshot');
  if (!tool) return;
  const shot = await withTimeout(tool.run({}, /** @type {any} */ ({ ...opts.toolContext, signal: opts.signal })).catch(() => null), PAGE_VIEW_MS, null);
  if (!shot?.ok || !shot.image) return;
  const at = opts.messages.findLastIndex((m) => m.role === 'user');
  if (at < 0) return;
  const m = opts.messages[at];
  /** @type {import('../types/core').ContentPart[]} */
  const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : [...m.content];
  parts.push({ type: 'text', text: '[Tabwright, not the page] The page as it looks now, for planning:' }, { type: 'image', mediaType: shot.image.mediaType, data: shot.image.data });
  opts.messages[at] = { ...m, content: parts };
}
