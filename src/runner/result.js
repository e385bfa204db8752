// A run's result as the runner prints it and the queue stores it: the verdict of "Done means done"
// (agent/outcome.js) with its reasons and receipt, or "needs a person" with why, and the trace.
// The runner's own codes are in the one catalog (agent/error-codes.js).
import { errorOf as catalogErrorOf } from '../chrome/agent/error-codes.js';

/** @typedef {'verified' | 'failed' | 'not_verified' | 'needs_person'} RunnerVerdict */

/** Exit codes of `tabwright run`, one per verdict; a run that could not be made at all is 4, a bad command line 64. */
export const EXIT = Object.freeze({ verified: 0, failed: 1, not_verified: 2, needs_person: 3, error: 4, usage: 64 });

/**
 * @typedef {object} RunResult
 * @property {RunnerVerdict} verdict
 * @property {string} [status] how the run ended (done, error, aborted…)
 * @property {{ code: string, message: string }[]} reasons why the verdict is what it is
 * @property {any[]} receipt the writes and what the servers answered
 * @property {string} [text] the final answer
 * @property {{ code: string, message: string }} [error]
 * @property {{ kind: string, reason: string }} [needsPerson]
 * @property {{ id: string, tabId: number, url: string, title: string, startedAt: number, endedAt: number } | null} run
 * @property {{ id: string, name: string } | null} workflow
 * @property {number | null} modelCalls from the trace
 * @property {any} trace the stored trace (types/traces.d.ts), or null when Settings do not record
 */

/**
 * @typedef {{ record?: any, trace?: any, needs?: { kind: string, reason: string, id?: string } | null, timedOut?: boolean, workflow?: any, task?: string, error?: { code: string, message: string } }} Got
 */

/** @param {Got} got @returns {RunResult} */
export function resultOf(got) {
  const r = got.record;
  const error = errorOf(got);
  /** @type {RunnerVerdict} */
  const verdict = got.needs ? 'needs_person' : r?.outcome?.verdict ?? (error || !r ? 'failed' : 'not_verified');
  const text = r?.items?.filter((/** @type {any} */ i) => i.kind === 'assistant' && i.final).at(-1)?.text;
  return {
    verdict,
    ...(r?.status ? { status: r.status } : {}),
    reasons: r?.outcome?.reasons ?? (error ? [error] : []),
    receipt: r?.outcome?.receipt ?? [],
    ...(text ? { text } : {}),
    ...(error && verdict !== 'verified' ? { error } : {}),
    ...(got.needs ? { needsPerson: { kind: got.needs.kind, reason: got.needs.reason } } : {}),
    run: r ? { id: r.id, tabId: r.tabId, url: r.url, title: r.title, startedAt: r.startedAt, endedAt: r.endedAt } : null,
    workflow: got.workflow ? { id: got.workflow.id, name: got.workflow.name } : null,
    modelCalls: got.trace?.totals?.modelCalls ?? null,
    trace: got.trace ?? null,
  };
}

/** What went wrong: given, the runner's time-out, or the run's last error. @param {Got} got @returns {{ code: string, message: string } | undefined} */
function errorOf(got) {
  if (got.error) return got.error;
  if (got.timedOut) return catalogErrorOf('RUNNER_TIMEOUT');
  const item = got.record?.items?.filter((/** @type {any} */ i) => i.kind === 'error').at(-1);
  return item ? { code: item.code, message: item.message } : undefined;
}

/** Codes of a run that never began, so nothing was sent: a retry repeats nothing. */
const NEVER_BEGAN = new Set(['RUN_NOT_STARTED', 'BUSY']);

/** @param {RunResult} result */
export function neverBegan(result) {
  return !!result.error && NEVER_BEGAN.has(result.error.code) && result.receipt.length === 0;
}
