// Plan mode (seed 000): the model first writes plain-English steps; the user approves, edits or
// rejects them in the panel; each approved step then runs as a short Act loop that sees the
// earlier steps' outputs, optionally on a cheaper executor model. A failing step may re-plan the
// rest once, and the new steps go back to the user for approval.
/** @import { ChatMessage, RunOutcome, Tool } from '../types/core' */
/** @import { RunOptions } from './loop.js' */
import { raceAbort, AbortedError } from './abort.js';
import { systemPrompt, STEP_PROMPT, stepBrief, replanBrief } from './prompts.js';
import { textOf } from './compaction.js';
import { createFence } from './untrusted.js';

const MAX_STEPS_PER_PLAN_STEP = 25;
const MAX_REPLANS = 1;

/**
 * @param {RunOptions} opts
 * @param {(opts: RunOptions) => Promise<RunOutcome>} runLoop
 * @returns {Promise<RunOutcome>}
 */
export async function runPlan(opts, runLoop) {
  const { messages, emit, signal } = opts;
  const newId = opts.newId ?? (() => `p${Math.random().toString(36).slice(2)}`);
  const task = textOf([...messages].reverse().find((m) => m.role === 'user')?.content ?? '');
  let budget = opts.maxSteps ?? 100;

  /** Runs the planner on `msgs`; returns the steps, or the run's outcome when it ends another way. @param {ChatMessage[]} msgs */
  async function plan(msgs) {
    /** @type {string[] | null} */
    let steps = null;
    // The planner's own "final" is the proposal; the plan card shows it, not a final answer.
    /** @type {RunOptions['emit']} */
    const plannerEmit = (e) => { if (e.type !== 'final' || !steps) emit(e); };
    // The planner role's model plans (Settings → Model per role), the main model otherwise.
    const outcome = await runLoop({ ...opts, provider: opts.plannerProvider ?? opts.provider, emit: plannerEmit, mode: 'plan', messages: msgs, maxSteps: Math.min(budget, 10), verifyDone: false, extraTools: [proposePlanTool((s) => { steps = s; })] });
    budget -= outcome.steps;
    return { steps: /** @type {string[] | null} */ (steps), outcome };
  }

  /** Shows the steps for approval; the user's edits come back. @param {string[]} steps */
  async function approve(steps) {
    const planId = newId();
    emit({ type: 'plan', planId, steps, status: 'pending' });
    if (!opts.interact) {
      emit({ type: 'plan', planId, steps, status: 'rejected' });
      return { planId, approved: false, steps };
    }
    const answer = await raceAbort(opts.interact.approvePlan(planId, steps, signal), signal);
    const edited = answer.steps.map((s) => s.trim()).filter(Boolean);
    const approved = answer.approved && edited.length > 0;
    emit({ type: 'plan', planId, steps: edited, status: approved ? 'running' : 'rejected' });
    return { planId, approved, steps: edited };
  }

  try {
    const first = await plan(messages);
    if (!first.steps) return first.outcome;
    let current = await approve(first.steps);
    if (!current.approved) return rejected();
    messages.push({ role: 'user', content: `I approved this plan:\n${numbered(current.steps)}` });

    /** @type {{ step: string, output: string }[]} */
    const outputs = [];
    let replans = 0;
    let index = 0;
    const executor = opts.executorProvider ?? opts.provider;
    const stepSystem = `${(opts.systemFor ?? ((m) => systemPrompt({ mode: m, fence: opts.fence ?? createFence() })))('act')}\n${STEP_PROMPT}`;
    while (index < current.steps.length) {
      if (signal?.aborted) throw new AbortedError();
      if (budget <= 0) break;
      emit({ type: 'plan_step', planId: current.planId, index, status: 'running' });
      /** @type {ChatMessage[]} */
      const stepMessages = [{ role: 'system', content: stepSystem }, { role: 'user', content: stepBrief(task, current.steps, index, outputs) }];
      // A step's done is its output, shown on the plan card; the plan's end is the final answer.
      const outcome = await runLoop({ ...opts, emit: (e) => { if (e.type !== 'final') emit(e); }, provider: executor, mode: 'act', messages: stepMessages, maxSteps: Math.min(budget, MAX_STEPS_PER_PLAN_STEP), verifyDone: false, extraTools: [] });
      budget -= outcome.steps;
      if (outcome.status === 'aborted') {
        emit({ type: 'plan_step', planId: current.planId, index, status: 'failed' });
        emit({ type: 'plan', planId: current.planId, steps: current.steps, status: 'failed' });
        return outcome;
      }
      if (outcome.status === 'done') {
        const output = outcome.text ?? '';
        outputs.push({ step: current.steps[index], output });
        emit({ type: 'plan_step', planId: current.planId, index, status: 'ok', output });
        index++;
        continue;
      }
      const reason = outcome.error?.message ?? outcome.text ?? 'the step did not finish';
      emit({ type: 'plan_step', planId: current.planId, index, status: 'failed', output: reason });
      if (replans >= MAX_REPLANS || budget <= 0) {
        emit({ type: 'plan', planId: current.planId, steps: current.steps, status: 'failed' });
        return finish('error', `Step ${index + 1} failed: ${reason}`, outputs, current.steps);
      }
      replans++;
      emit({ type: 'plan', planId: current.planId, steps: current.steps, status: 'failed' });
      /** @type {ChatMessage[]} */
      const replanMessages = [messages[0], { role: 'user', content: replanBrief(task, current.steps, index, reason, outputs) }];
      const again = await plan(replanMessages);
      if (!again.steps) return again.outcome;
      current = await approve(again.steps);
      if (!current.approved) return rejected();
      index = 0;
      // The new plan covers only the rest; earlier outputs stay in context for it.
    }
    emit({ type: 'plan', planId: current.planId, steps: current.steps, status: index >= current.steps.length ? 'done' : 'failed' });
    if (index < current.steps.length) return finish('step_limit', `Stopped: the step cap was reached before step ${index + 1}.`, outputs, current.steps);
    return finish('done', '', outputs, current.steps);
  } catch (err) {
    if (signal?.aborted || err instanceof AbortedError) {
      emit({ type: 'error', code: 'ABORTED', message: 'Stopped. The conversation is kept; send a message to go on.' });
      return { status: 'aborted', steps: (opts.maxSteps ?? 100) - budget };
    }
    throw err;
  }

  function rejected() {
    const text = 'Plan rejected. Nothing was done. Tell me what to change, or send the task again.';
    messages.push({ role: 'assistant', content: text });
    emit({ type: 'final', text });
    return /** @type {RunOutcome} */ ({ status: 'rejected', text, steps: (opts.maxSteps ?? 100) - budget });
  }

  /**
   * @param {'done' | 'error' | 'step_limit'} status @param {string} problem
   * @param {{ step: string, output: string }[]} outputs @param {string[]} steps
   * @returns {RunOutcome}
   */
  function finish(status, problem, outputs, steps) {
    const lines = outputs.map((o, i) => `${i + 1}. ${o.step}: ${o.output}`);
    const text = status === 'done'
      ? `Plan completed (${steps.length} steps).\n${lines.join('\n')}`
      : `${problem}\n${lines.length ? `Done before that:\n${lines.join('\n')}` : ''}`.trim();
    messages.push({ role: 'assistant', content: text });
    if (status === 'done') emit({ type: 'final', text });
    else emit({ type: 'error', code: status === 'error' ? 'PLAN_STEP_FAILED' : 'STEP_LIMIT', message: text });
    return { status, text, steps: (opts.maxSteps ?? 100) - budget, ...(status === 'done' ? {} : { error: { code: status === 'error' ? 'PLAN_STEP_FAILED' : 'STEP_LIMIT', message: text } }) };
  }
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
      if (!steps.length) return { ok: false, code: 'EMPTY_PLAN', message: 'The plan has no steps. Give at least one.' };
      onPlan(steps);
      return { ok: true, data: `Plan proposed (${steps.length} steps); waiting for the user's approval.` };
    },
  };
}
