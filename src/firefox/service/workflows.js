// Workflows, the browser glue: a draft compiled from a run's trace (or its history record
// when no trace was kept), saving and import through one check, replays started as runs in a tab
// (service/runs.js with the workflow runner instead of the agent loop), the run_workflow tool's
// access, and the scheduler's "workflow" jobs.
/** @import { RouterReply } from '../types/messages' */
/** @import { ToolContext, ToolResult } from '../types/core' */
/** @import { Workflow, WorkflowsAccess } from '../types/workflows' */
/** @import { Job } from '../types/jobs' */
import { callsFromHistory, callsFromTrace, compileRun } from '../agent/workflows/compile.js';
import { checkWorkflow, workflowErrorMessage } from '../agent/workflows/workflow-format.js';
import { resolveValues } from '../agent/workflows/params.js';
import { workflowRunner } from '../agent/workflows/runner.js';
import { replayWorkflow } from '../agent/workflows/replay.js';
import { fail, errorOf } from '../agent/error-codes.js';

/** What an export file says it is. */
export const EXPORT_FORMAT = 'tabwright-workflows';

/**
 * @param {object} deps
 * @param {import('./workflow-store.js').WorkflowStore} deps.store
 * @param {import('./trace-store.js').TraceStore} deps.traces
 * @param {ReturnType<typeof import('./history-store.js').createHistoryStore>} deps.history
 * @param {() => ReturnType<typeof import('./runs.js').createRuns>} deps.runs
 * @param {() => number} [deps.now]
 */
export function createWorkflows({ store, traces, history, runs, now = Date.now }) {
  /** A run compiled into a draft for the user to review. @param {string} runId @returns {Promise<RouterReply>} */
  async function draft(runId) {
    const trace = await traces.get(runId);
    const record = trace ? null : await history.get(runId);
    if (!trace && !record) return fail('NOT_FOUND', 'that run is no longer in the history');
    const run = trace ? callsFromTrace(trace) : callsFromHistory(/** @type {NonNullable<typeof record>} */ (record));
    const { workflow, notes } = compileRun({ ...run, now: now() });
    if (!workflow.steps.length) return fail('NOTHING_TO_SAVE');
    workflow.name = (trace?.task ?? record?.title ?? '').split('\n')[0].slice(0, 80);
    return { ok: true, data: { workflow, notes } };
  }

  /** @param {unknown} value @returns {Promise<RouterReply<Workflow>>} */
  async function save(value) {
    const checked = checkWorkflow(value);
    if (!checked.ok) return { ...fail('INVALID_WORKFLOW', workflowErrorMessage(checked.errors)), fields: checked.errors };
    const wf = { ...checked.workflow, id: checked.workflow.id || newId(), updatedAt: now(), createdAt: checked.workflow.createdAt || now() };
    await store.save(wf);
    return { ok: true, data: wf };
  }

  /**
   * Replays a workflow as a run in a tab: the panel's Run, and the scheduler's workflow jobs.
   * @param {number} tabId @param {string} nameOrId @param {Record<string, unknown>} given
   * @param {{ repair?: boolean, fresh?: boolean }} [opts] repair: let the model fix a step that does not bind (default: the workflow's own setting)
   */
  async function begin(tabId, nameOrId, given, opts = {}) {
    const wf = await store.find(nameOrId);
    if (!wf) return fail('WORKFLOW_NOT_FOUND', `"${nameOrId}"`);
    const resolved = resolveValues(wf.params, given ?? {});
    if (!resolved.ok) return fail('WORKFLOW_PARAMETERS', `"${wf.name}" needs ${resolved.missing.map((p) => p.label || p.name).join(', ')}`);
    const shown = wf.params.filter((p) => !p.secret).map((p) => `${p.label || p.name}: ${resolved.values[p.name]}`);
    const text = `Run workflow "${wf.name}"${shown.length ? ` (${shown.join('; ')})` : ''}`;
    const runner = workflowRunner({ workflow: wf, values: resolved.values, repair: opts.repair ?? wf.repair === true, onReport: (r) => { if (r.repairs.length) void keepRepairs(wf.id, r.repairs); } });
    return runs().beginRun(tabId, text, 'act', { runner, workflowId: wf.id, fresh: opts.fresh });
  }

  /** @param {string} id @param {import('../types/workflows').PendingRepair[]} repairs */
  async function keepRepairs(id, repairs) {
    const wf = await store.get(id);
    if (!wf) return;
    const others = (wf.pendingRepairs ?? []).filter((p) => !repairs.some((r) => r.step === p.step));
    await store.save({ ...wf, pendingRepairs: [...others, ...repairs] });
  }

  /**
   * A repaired step saved back into its workflow (accept), or forgotten.
   * @param {string} id @param {number} step @param {boolean} accept @returns {Promise<RouterReply>}
   */
  async function applyRepair(id, step, accept) {
    const wf = await store.get(id);
    const pending = wf?.pendingRepairs?.find((p) => p.step === step);
    if (!wf || !pending) return fail('NOT_FOUND', 'no repaired step is waiting for that workflow');
    const rest = (wf.pendingRepairs ?? []).filter((p) => p !== pending);
    const steps = accept ? wf.steps.map((s, i) => (i === step ? pending.replacement : s)) : wf.steps;
    return save({ ...wf, steps, pendingRepairs: rest });
  }

  /** @param {string} [id] @returns {Promise<RouterReply>} */
  async function exportAll(id) {
    const all = id ? [await store.get(id)].filter(Boolean) : await store.list();
    return { ok: true, data: { format: EXPORT_FORMAT, v: 1, exportedAt: now(), workflows: all.map((w) => ({ ...w, pendingRepairs: undefined })) } };
  }

  /** @param {unknown} data @returns {Promise<RouterReply>} */
  async function importAll(data) {
    const d = /** @type {Record<string, any>} */ (data ?? {});
    const list = d.format === EXPORT_FORMAT && Array.isArray(d.workflows) ? d.workflows : d.v === 1 && Array.isArray(d.steps) ? [d] : null;
    if (!list) return fail('INVALID_WORKFLOW', 'the file is not a Tabwright workflow export; nothing was imported');
    const checked = list.map(checkWorkflow);
    const badOne = checked.findIndex((c) => !c.ok);
    if (badOne >= 0) {
      const c = /** @type {{ ok: false, errors: { field: string, message: string }[] }} */ (checked[badOne]);
      return { ...fail('INVALID_WORKFLOW', `workflow ${badOne + 1} of the file: ${workflowErrorMessage(c.errors)} Nothing was imported`), fields: c.errors };
    }
    for (const c of checked) if (c.ok) await store.save({ ...c.workflow, id: c.workflow.id || newId(), updatedAt: now() });
    return { ok: true, data: { imported: checked.length } };
  }

  /** What the run_workflow tool may do. @type {WorkflowsAccess} */
  const access = {
    async list() {
      return (await store.list()).map((w) => ({ name: w.name, description: w.description, params: w.params, start: w.start.url }));
    },
    find: (nameOrId) => store.find(nameOrId),
    async replay(nameOrId, given, ctx) {
      return replayInRun(nameOrId, given, ctx);
    },
  };

  /**
   * A workflow run by the model inside its own run: the steps pass the run's guard (ctx.guard).
   * @param {string} nameOrId @param {Record<string, string>} given @param {ToolContext} ctx @returns {Promise<ToolResult>}
   */
  async function replayInRun(nameOrId, given, ctx) {
    const wf = await store.find(nameOrId);
    if (!wf) return fail('WORKFLOW_NOT_FOUND', `"${nameOrId}"`);
    if (!ctx.guard) return fail('UNAVAILABLE', 'workflows run only from an agent run');
    const resolved = resolveValues(wf.params, given ?? {});
    if (!resolved.ok) return fail('WORKFLOW_PARAMETERS', `"${wf.name}" needs ${resolved.missing.map((p) => `${p.name} (${p.label})`).join(', ')}${resolved.missing.some((p) => p.secret) ? '; a secret one only the user gives, from the panel' : ''}`);
    if (wf.params.some((p) => p.secret)) return fail('WORKFLOW_PARAMETERS', `"${wf.name}" types a secret, which only the user gives, from the panel`);
    const { outcome, report } = await replayWorkflow({ workflow: wf, values: resolved.values, ctx, guard: ctx.guard, signal: ctx.signal });
    if (outcome.status === 'done') return { ok: true, data: `${outcome.text ?? ''}\n(${report.steps} steps replayed without a model.)` };
    const e = outcome.error ?? errorOf('ABORTED');
    return fail(/** @type {import('../agent/error-codes.js').ErrorCode} */ (e.code in ERROR_SET ? e.code : 'WORKFLOW_STEP_FAILED'), e.message);
  }

  /**
   * The scheduler's "workflow" job: the workflow replayed in the job's tab, its result the job's.
   * @param {number} tabId @param {Job} job
   */
  function beginJob(tabId, job) {
    return begin(tabId, job.workflow?.id ?? job.prompt, job.workflow?.values ?? {}, { fresh: true });
  }

  return { draft, save, begin, applyRepair, exportAll, importAll, access, beginJob, store };
}
/** @typedef {ReturnType<typeof createWorkflows>} Workflows */

const ERROR_SET = Object.freeze({ USER_DECLINED: 1, CONFIRMATION_REQUIRED: 1, WORKFLOW_PAGE_CHANGED: 1, WORKFLOW_TARGET_MISSING: 1, WORKFLOW_TARGET_AMBIGUOUS: 1, WORKFLOW_STEP_FAILED: 1, WRITE_REFUSED: 1, ABORTED: 1 });

function newId() {
  return `wf-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
