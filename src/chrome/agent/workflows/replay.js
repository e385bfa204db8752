// Replay of a workflow: its steps run again with no model call when each binds: the tab
// must be on the step's page (origin and URL family) and show what the step saw, and its target's
// fingerprint must name one element of a fresh outline. A step that cannot bind fails closed with
// a message saying which and why, or, when the user allowed repair, the model is asked about that
// one step (repair.js) and the replay goes on. Every step runs through runToolCall with the run's
// own guard: the same policy verdicts, cards and request hold as an agent step. Browser-free.
/** @import { AgentEvent, Provider, RunOutcome, Tool, ToolCall, ToolContext, ToolResult } from '../../types/core' */
/** @import { Guard } from '../safety/guard.js' */
/** @import { SecretVault } from '../../types/safety' */
/** @import { Fence } from '../untrusted.js' */
/** @import { PendingRepair, ReplayReport, Workflow, WorkflowStep } from '../../types/workflows' */
import { runToolCall } from '../tool-call.js';
import { findTool } from '../tools/index.js';
import { navigate } from '../tools/navigation.js';
import { pageOutline } from '../tools/perception.js';
import { AbortedError } from '../abort.js';
import { MASK } from '../safety/secret-patterns.js';
import { createFence } from '../untrusted.js';
import { bindTarget, describeStep, describeTarget, fingerprintOf, headingsOf, normName } from './fingerprint.js';
import { describePage, fillDeep, onPage, pagePattern } from './params.js';
import { repairStep } from './repair.js';
import { judgeReplay, refusedBy, REPLAY_ANSWER_MS } from './replay-outcome.js';
import { errorOf, fail } from '../error-codes.js';

/** How long a step waits for its page, then for its target to appear, before it fails. */
export const REPLAY_WAITS = { pageMs: 8_000, bindMs: 4_000, pollMs: 200 };

/**
 * @typedef {object} ReplayOptions
 * @property {Workflow} workflow
 * @property {Record<string, string>} values every parameter's value (params.js resolveValues)
 * @property {ToolContext} ctx the tab and the browser
 * @property {Guard} guard the run's safety gate
 * @property {(e: AgentEvent) => void} [emit]
 * @property {AbortSignal} [signal]
 * @property {() => string} [newId]
 * @property {SecretVault} [secrets]
 * @property {Provider} [repairWith] the model that may repair a step that does not bind; absent: fail closed
 * @property {Fence} [fence]
 * @property {(id: string, info: { step: number, bound?: string, repaired?: boolean }) => void} [onStep] the trace's note on a replayed call
 * @property {Partial<typeof REPLAY_WAITS>} [waits]
 * @property {string} [runId]
 * @property {import('../safety/write-ledger.js').WriteLedger} [ledger] the guard's ledger, to wait (bounded) for answers still on their way at the end
 * @property {() => Promise<void>} [settle] the settle period before the verdict, when the replay owns its guard
 *   (guard.settleLastStep): a write the last step made the page send, seen by the hold after the step ended, is counted
 */

/**
 * @param {ReplayOptions} o
 * @returns {Promise<{ outcome: RunOutcome, report: ReplayReport }>}
 */
export async function replayWorkflow(o) {
  const { workflow: wf, signal } = o;
  const emit = o.emit ?? (() => {});
  let seq = 0;
  const newId = o.newId ?? (() => `wf${Date.now().toString(36)}${(seq++).toString(36)}`);
  const waits = { ...REPLAY_WAITS, ...o.waits };
  /** @type {ReplayReport} */
  const report = { workflowId: wf.id, steps: 0, modelCalls: 0, repairs: [], outputs: [] };
  const secretNames = wf.params.filter((p) => p.secret).map((p) => p.name);
  // What is typed into a secret parameter is a secret of the run from the start: masked everywhere.
  for (const n of secretNames) if (o.values[n]) o.secrets?.add([o.values[n]], pagePattern(wf.start.url).origin);
  const shownValues = { ...o.values, ...Object.fromEntries(secretNames.map((n) => [n, MASK])) };
  /** @param {{ code: string, message: string }} error @param {import('../../types/core').Outcome} [judged] @returns {{ outcome: RunOutcome, report: ReplayReport }} */
  const failed = (error, judged) => { emit({ type: 'error', ...error }); return { outcome: { status: 'error', error, steps: report.steps, ...(judged ? { outcome: judged } : {}) }, report }; };
  const aborted = () => { emit({ type: 'error', ...errorOf('ABORTED', 'the workflow did not finish') }); return { outcome: /** @type {RunOutcome} */ ({ status: 'aborted', steps: report.steps }), report }; };
  const tools = /** @type {Tool[]} */ ([...new Set(wf.steps.map((s) => s.tool)), navigate.name].map(findTool).filter(Boolean));
  /** @type {StepEnv} */
  const env = { waits, newId, emit, report, shownValues, tools };
  // The writes this replay caused (a guard shared with an agent run holds that run's earlier ones too).
  const firstWrite = o.guard.writes().length;

  try {
    const start = await openStart(o, tools, newId, emit);
    if (start) return failed(start);
    for (let i = 0; i < wf.steps.length; i++) {
      if (signal?.aborted) return aborted();
      const step = wf.steps[i];
      const prepared = await callFor(o, env, i);
      if (!prepared.ok) return failed(prepared.error);
      const { call, outline, repair } = prepared;
      const writesBefore = o.guard.writes().length;
      const out = await play(o, env, i, call, outline, Boolean(repair));
      report.steps++;
      const result = out.result;
      // A write the server refused stops the replay there, in the server's words, whatever the page shows.
      const refused = refusedBy(o.guard.writes().slice(writesBefore));
      if (result.ok && refused) {
        const judged = judgeReplay(o.workflow, o.guard.writes().slice(firstWrite));
        return failed(errorOf('WRITE_REFUSED', `Step ${i + 1} (${describeStep(step)}): ${refused}; the workflow stopped there`), judged);
      }
      if (!result.ok) {
        const code = result.code === 'USER_DECLINED' || result.code === 'CONFIRMATION_REQUIRED' ? result.code : 'WORKFLOW_STEP_FAILED';
        return failed({ code, message: `Step ${i + 1} (${describeStep(step)}) did not succeed: ${result.message} The workflow stopped there.` });
      }
      // A step that reads for the person (Tool.replayOutput) hands its result back: a daily check reads something.
      if (findTool(step.tool)?.replayOutput) report.outputs.push(typeof result.data === 'string' ? result.data : JSON.stringify(result.data));
      if (repair) report.repairs.push(repairOf(step, i, call, out, repair.outline, o.runId ?? '', repair.reason));
    }
  } catch (err) {
    if (signal?.aborted || err instanceof AbortedError) return aborted();
    throw err;
  }
  // Writes the last step caused that reach the hold late (a loaded machine) are waited for, and
  // answers still on their way get a bounded wait; then the replay is judged as an agent run is.
  const mine = () => o.guard.writes().slice(firstWrite);
  await o.settle?.();
  await o.ledger?.settleWithin(mine().filter((w) => w.sent && !w.settled), REPLAY_ANSWER_MS, () => {});
  const judged = judgeReplay(wf, mine());
  const late = judged.verdict === 'failed' ? refusedBy(mine()) : null;
  if (late) return failed(errorOf('WRITE_REFUSED', `${late}; the workflow did not do what it was saved for`), judged);
  const text = finalText(wf, o.values, report);
  emit({ type: 'final', text, outcome: judged });
  return { outcome: { status: 'done', text, steps: report.steps, outcome: judged }, report };
}

/**
 * What a replay's steps share.
 * @typedef {{ waits: typeof REPLAY_WAITS, newId: () => string, emit: (e: AgentEvent) => void, report: ReplayReport, shownValues: Record<string, string>, tools: Tool[] }} StepEnv
 */

/**
 * The call a step makes: bound to its element in a fresh outline, or, when it cannot bind and
 * repair is allowed, the one the model proposes; otherwise the reason it fails closed.
 * @param {ReplayOptions} o @param {StepEnv} env @param {number} i
 * @returns {Promise<{ ok: true, call: ToolCall, outline: string, repair?: { outline: string, reason: string } } | { ok: false, error: { code: string, message: string } }>}
 */
async function callFor(o, env, i) {
  const step = o.workflow.steps[i];
  const args = fillDeep(step.args, o.values);
  const bound = await bindStep(step, o.ctx, env.waits, o.signal);
  if (bound.ok) return { ok: true, call: { id: env.newId(), name: step.tool, arguments: JSON.stringify(bound.ref ? { ...args, ref: bound.ref } : args) }, outline: bound.outline };
  const reason = `Step ${i + 1} (${describeStep(step)}): ${bound.message}`;
  if (!o.repairWith) return { ok: false, error: { code: bound.code, message: `${reason} The workflow stopped there, before acting, so nothing after it happened. Turn on repair to let the model fix this step, or edit the workflow.` } };
  env.report.modelCalls++;
  const fix = await repairStep({ provider: o.repairWith, workflow: o.workflow, index: i, args, shownArgs: fillDeep(step.args, env.shownValues), reason: bound.message, outline: bound.outline, fence: o.fence ?? createFence(), signal: o.signal });
  if (!fix.ok) return { ok: false, error: errorOf('WORKFLOW_REPAIR_FAILED', `${reason} Repair: ${fix.message}`) };
  env.emit({ type: 'notice', code: 'WORKFLOW_REPAIRED', message: `Step ${i + 1} no longer matched the page (${bound.message}); the model chose another element for it.` });
  return { ok: true, call: { ...fix.call, id: env.newId() }, outline: bound.outline, repair: { outline: bound.outline, reason: bound.message } };
}

/**
 * Runs a step's call through the run's gate, as the panel and the trace see an agent's step.
 * @param {ReplayOptions} o @param {StepEnv} env @param {number} i @param {ToolCall} call @param {string} outline @param {boolean} repaired
 */
async function play(o, env, i, call, outline, repaired) {
  const step = o.workflow.steps[i];
  // The panel shows the values with secrets masked (a repaired call's target is the model's).
  const shownArgs = { ...JSON.parse(call.arguments), ...fillDeep(pickValues(step.args), env.shownValues) };
  env.emit({ type: 'tool_call', id: call.id, name: call.name, args: shownArgs });
  const started = Date.now();
  const out = await runToolCall(call, { offered: env.tools, mode: 'act', ctx: o.ctx, messages: outline ? [{ role: 'tool', content: outline }] : [], guard: o.guard, signal: o.signal, secrets: o.secrets });
  const result = o.secrets ? o.secrets.maskDeep(out.result) : out.result;
  env.emit({ type: 'tool_result', id: call.id, name: call.name, result, args: shownArgs, ms: Date.now() - started, ...(out.target ? { target: out.target } : {}) });
  o.onStep?.(call.id, { step: i, ...(step.target ? { bound: describeTarget(step.target) } : {}), ...(repaired ? { repaired: true } : {}) });
  return { ...out, result };
}

/**
 * The tab goes to the workflow's start when it is not on the first step's page (through the
 * navigate tool and the gate, as any step). @returns {Promise<{ code: string, message: string } | null>}
 * @param {ReplayOptions} o @param {Tool[]} tools @param {() => string} newId @param {(e: AgentEvent) => void} emit
 */
async function openStart(o, tools, newId, emit) {
  const first = o.workflow.steps[0];
  if (!first || first.tool === navigate.name) return null;
  const tab = await o.ctx.browser.getTab(o.ctx.tabId);
  if (tab && onPage(first.page, tab.url)) return null;
  const call = { id: newId(), name: navigate.name, arguments: JSON.stringify({ url: o.workflow.start.url }) };
  emit({ type: 'tool_call', id: call.id, name: navigate.name, args: { url: o.workflow.start.url } });
  const out = await runToolCall(call, { offered: tools, mode: 'act', ctx: o.ctx, messages: [], guard: o.guard, signal: o.signal, secrets: o.secrets });
  emit({ type: 'tool_result', id: call.id, name: navigate.name, result: out.result, args: { url: o.workflow.start.url } });
  return out.result.ok ? null : { code: out.result.code, message: `The workflow's start page ${o.workflow.start.url} did not open: ${out.result.message}` };
}

/**
 * Waits for the step's page, then for what it must see and its target in a fresh outline.
 * @param {WorkflowStep} step @param {ToolContext} ctx @param {typeof REPLAY_WAITS} waits @param {AbortSignal} [signal]
 * @returns {Promise<{ ok: true, ref?: string, outline: string } | { ok: false, code: import('../error-codes.js').ErrorCode, message: string, outline: string }>}
 */
async function bindStep(step, ctx, waits, signal) {
  if (step.tool === navigate.name) return { ok: true, outline: '' };
  const pageBy = Date.now() + waits.pageMs;
  let url = '';
  while (true) {
    url = (await ctx.browser.getTab(ctx.tabId))?.url ?? '';
    if (onPage(step.page, url)) break;
    if (Date.now() > pageBy || signal?.aborted) return { ...fail('WORKFLOW_PAGE_CHANGED', `it runs on ${describePage(step.page)}, the tab is on ${url || 'no page'}`), outline: '' };
    await sleep(waits.pollMs);
  }
  if (!step.target && !step.sees) return { ok: true, outline: '' };
  const bindBy = Date.now() + waits.bindMs;
  while (true) {
    const snap = await pageOutline(ctx, { maxChars: 60_000 });
    const outline = snap.ok ? snap.data.text : '';
    const seen = !step.sees || headingsOf(outline).some((h) => normName(h) === normName(/** @type {string} */ (step.sees)));
    const b = step.target && seen ? bindTarget(outline, step.target) : null;
    if (seen && (!b || b.ok)) return { ok: true, ref: b && b.ok ? b.ref : undefined, outline };
    if (Date.now() > bindBy || signal?.aborted) {
      if (!seen) return { ...fail('WORKFLOW_PAGE_CHANGED', `the page no longer shows the heading "${step.sees}" it showed when the workflow was saved`), outline };
      const t = describeTarget(/** @type {NonNullable<WorkflowStep['target']>} */ (step.target));
      return b && !b.ok && b.reason === 'ambiguous'
        ? { ...fail('WORKFLOW_TARGET_AMBIGUOUS', `${b.count} elements match ${t}`), outline }
        : { ...fail('WORKFLOW_TARGET_MISSING', `there is no ${t} on the page any more`), outline };
    }
    await sleep(waits.pollMs);
  }
}

/** Only the value arguments of a step (what the panel shows for a repaired call besides its target). @param {Record<string, unknown>} args */
function pickValues(args) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const k of ['text', 'value', 'label']) if (args[k] !== undefined) out[k] = args[k];
  return out;
}

/**
 * The repaired step as it would be saved back: the element the model chose, as a fingerprint.
 * @param {WorkflowStep} step @param {number} index @param {ToolCall} call
 * @param {{ target?: { role: string, name: string } }} out @param {string} outline @param {string} runId @param {string} reason
 * @returns {PendingRepair}
 */
function repairOf(step, index, call, out, outline, runId, reason) {
  const args = JSON.parse(call.arguments);
  const fromOutline = typeof args.ref === 'string' ? fingerprintOf(outline, args.ref) : null;
  const target = fromOutline ?? (out.target ? { ...out.target, landmark: '' } : step.target);
  return { step: index, runId, at: Date.now(), reason, replacement: { ...step, ...(target ? { target } : {}) } };
}

/** @param {Workflow} wf @param {Record<string, string>} values @param {ReplayReport} report */
function finalText(wf, values, report) {
  const head = wf.summary ? fillDeep(wf.summary, values) : `Workflow "${wf.name}" done: ${report.steps} steps.`;
  const outputs = report.outputs.map((x) => x.slice(0, 4_000)).join('\n\n');
  return outputs ? `${head}\n\n${outputs}` : head;
}

/** @param {number} ms */
function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }
