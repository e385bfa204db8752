// One run in one tab of a launched browser: a saved workflow replayed (no model call unless a step
// needs repair) or a task given to the agent, started through the same router requests as the
// panel's Run and Send. The runner watches the tab's transcript until the run ends, reports each
// step, and stops the run when it waits for a person (a confirmation, a question, a plan to approve):
// nothing unattended answers for a person. The verdict and the trace come from the run's history
// record and its stored trace, exactly as the panel, History and Traces show them.
/** @import { Browser } from './browser.js' */
import { resultOf } from './result.js';
import { personNeeded, stepLine } from './transcript.js';
import { waitUntil } from './browser.js';

/**
 * @typedef {object} RunSpec
 * @property {any} [workflow] one workflow as the extension exports it
 * @property {Record<string, string>} [values] the workflow's parameters
 * @property {string} [task] a task for the agent instead (needs a provider)
 * @property {string} [url] where the task starts (a workflow starts at its own start page)
 * @property {'act' | 'ask'} [mode] the task's mode (default act)
 */

/**
 * @param {Browser} b @param {RunSpec} spec
 * @param {{ onProgress?: (line: string) => void, onState?: (state: string) => void, timeoutMs?: number }} [opts]
 * @returns {Promise<import('./result.js').RunResult>}
 */
export async function runOnce(b, spec, opts = {}) {
  const say = opts.onProgress ?? (() => {});
  const start = spec.workflow ? spec.url ?? spec.workflow.start?.url : spec.url;
  if (!start) throw new Error('A task needs an address to start on (--url).');
  const since = Date.now();
  const tabId = await b.openTab(start);
  try {
    const begun = spec.workflow ? await beginReplay(b, tabId, spec) : await b.ask({ type: 'chat.send', tabId, text: spec.task, mode: spec.mode ?? 'act' });
    if (!begun?.ok) return resultOf({ error: { code: begun?.code ?? 'RUN_NOT_STARTED', message: begun?.message ?? 'The run did not start.' } });
    say(spec.workflow ? `replaying "${spec.workflow.name}" in tab ${tabId}` : `running the task in tab ${tabId}`);
    const waited = await watch(b, tabId, say, opts.timeoutMs ?? 300_000, opts.onState);
    const record = await recordOf(b, tabId, since);
    const trace = record ? (await b.ask({ type: 'traces.get', id: record.id }))?.data ?? null : null;
    return resultOf({ record, trace, needs: waited.needs, timedOut: waited.timedOut, workflow: spec.workflow, task: spec.task });
  } finally {
    await b.closeTab(tabId);
  }
}

/** Imports the workflow (its id kept, so a rerun replaces it) and starts it. @param {Browser} b @param {number} tabId @param {RunSpec} spec */
async function beginReplay(b, tabId, spec) {
  const imported = await b.ask({ type: 'workflows.import', data: spec.workflow });
  if (!imported?.ok) return imported;
  return b.ask({ type: 'workflows.run', tabId, id: spec.workflow.id, values: spec.values ?? {} });
}

/**
 * Follows the tab's transcript until the run is over. A card waiting for a person stops it.
 * @param {Browser} b @param {number} tabId @param {(line: string) => void} say @param {number} timeoutMs
 * @param {(state: string) => void} [onState] hears the run's state at each look (for a worker's report on a slow run)
 * @returns {Promise<{ needs?: { kind: string, reason: string, id: string }, timedOut?: boolean }>}
 */
async function watch(b, tabId, say, timeoutMs, onState) {
  const deadline = Date.now() + timeoutMs;
  /** @type {Map<string, string>} */
  const told = new Map();
  for (;;) {
    const state = (await b.ask({ type: 'chat.state', tabId }))?.data ?? { items: [], running: false };
    onState?.(`${state.running ? 'running' : 'ended'}, phase ${state.phase ?? '?'}, ${state.items.length} items`);
    for (const item of state.items) {
      const line = stepLine(item);
      if (line && told.get(item.id) !== line) { told.set(item.id, line); say(line); }
    }
    const needs = personNeeded(state.items);
    if (needs && state.running) { await refuse(b, tabId, needs); return { needs }; }
    if (!state.running) return {};
    if (Date.now() > deadline) { await stop(b, tabId); return { timedOut: true }; }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Nobody is there to answer: a write waiting for its confirmation is declined, exactly as a person's
 * Decline (the held request is refused, never let go), then the run is stopped; a question or a plan
 * is left unanswered by stopping the run.
 * @param {Browser} b @param {number} tabId @param {{ kind: string, id: string }} needs
 */
async function refuse(b, tabId, needs) {
  if (needs.kind === 'confirmation') await b.ask({ type: 'confirm.answer', tabId, id: needs.id, answer: 'no' });
  await stop(b, tabId);
}

/** @param {Browser} b @param {number} tabId */
async function stop(b, tabId) {
  await b.ask({ type: 'chat.stop', tabId });
  await waitUntil(async () => !(await b.ask({ type: 'chat.state', tabId }))?.data?.running, 30_000, 'the run to stop');
}

/**
 * The run's history record: the tab's newest, begun since the run was started (tab ids are never
 * reused within a browser).
 * @param {Browser} b @param {number} tabId @param {number} since
 */
async function recordOf(b, tabId, since) {
  const list = (await b.ask({ type: 'history.list' }))?.data ?? [];
  const mine = list.filter((/** @type {any} */ r) => r.tabId === tabId && r.startedAt >= since).sort((/** @type {any} */ x, /** @type {any} */ y) => y.startedAt - x.startedAt)[0];
  if (!mine) return null;
  return (await b.ask({ type: 'history.get', id: mine.id }))?.data ?? null;
}
