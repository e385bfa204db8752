// What a worker does with one run from the queue, decided from the ledger first:
// - done or parked already: its stored result, nothing run again (a retry of a run whose worker
//   died after finishing, or the same key enqueued twice);
// - started by an attempt that was cut off (the worker killed, the browser gone): whether its write
//   landed is unknown, so the run's lookup (a GET whose answer shows the key once the write
//   landed) is asked first: found, the run is done without running again; not found, it is run;
//   a run without a lookup is parked for a person, never run twice on a guess;
// - otherwise it is run. A run that needs a person is parked with the reason; one that never began
//   is forgotten and thrown back to the queue, whose backoff retries it; one given up at its
//   deadline is thrown back "started", so its retry looks it up first (failed on the last attempt).
/** @import { Ledger } from './ledger.js' */
/** @import { RunResult } from '../result.js' */
import { neverBegan } from '../result.js';
import { DeadlineError } from '../deadline.js';
import { errorOf } from '../../chrome/agent/error-codes.js';

/**
 * @typedef {object} QueuedRun what a job carries
 * @property {string} key the idempotency key: one write per key, whatever the retries
 * @property {any} [workflow] one workflow as exported
 * @property {Record<string, string>} [values]
 * @property {string} [task]
 * @property {string} [url]
 * @property {{ url: string, text: string }} [lookup] a GET whose answer shows text once the run's write landed
 */

/**
 * @param {QueuedRun} run @param {number} attempt
 * @param {{ ledger: Ledger, execute: (run: QueuedRun) => Promise<RunResult>, lookup: (url: string) => Promise<string>, worker: string, pid: number, lastAttempt?: boolean }} deps
 * @returns {Promise<RunResult & { recovered?: string }>}
 */
export async function processRun(run, attempt, deps) {
  const { ledger } = deps;
  const prior = await ledger.get(run.key);
  if (prior && (prior.state === 'done' || prior.state === 'parked')) {
    const stored = await ledger.result(run.key);
    if (stored) return stored;
  }
  if (prior?.state === 'started') {
    const settled = await settleCutOff(run, prior, deps);
    if (settled) return settled;
  }
  await ledger.start(run.key, { worker: deps.worker, pid: deps.pid, attempt });
  const result = await deps.execute(run).catch((err) => gaveUp(run, err, deps.lastAttempt));
  if (result.verdict === 'needs_person') { await ledger.park(run.key, result); return result; }
  if (neverBegan(result)) {
    await ledger.forget(run.key);
    throw new Error(`${result.error?.code}: ${result.error?.message}`);
  }
  await ledger.finish(run.key, result);
  return result;
}

/**
 * A run given up at its deadline (deadline.js) may have written or not. While the queue has attempts
 * left the error goes back to it: the ledger still says "started", so the retry asks the run's lookup
 * before running it again (or parks it without one), exactly as for a killed worker. On the last
 * attempt the run is failed with the reason, so no key stays "started" for ever.
 * @param {QueuedRun} run @param {unknown} err @param {boolean | undefined} lastAttempt
 * @returns {RunResult}
 */
function gaveUp(run, err, lastAttempt) {
  if (!(err instanceof DeadlineError) || !lastAttempt) throw err;
  return { ...cutOffResult(run, 'failed', [errorOf('RUN_DEADLINE', err.message)]), error: errorOf('RUN_DEADLINE', err.message) };
}

/**
 * A run an earlier attempt began and never finished. Settled by its lookup, or parked; null when
 * the lookup shows its write did not land (then it is run).
 * @param {QueuedRun} run @param {import('./ledger.js').LedgerEntry} prior
 * @param {{ ledger: Ledger, lookup: (url: string) => Promise<string> }} deps
 * @returns {Promise<(RunResult & { recovered?: string }) | null>}
 */
async function settleCutOff(run, prior, deps) {
  const who = `worker ${prior.worker} (attempt ${prior.attempt})`;
  if (!run.lookup) {
    const parked = cutOffResult(run, 'needs_person', [errorOf('RUN_CUT_OFF')], `${who} was cut off mid-run; the run has no lookup, so nothing shows whether its write landed. A person must check before it runs again.`);
    await deps.ledger.park(run.key, parked);
    return parked;
  }
  const shown = await deps.lookup(run.lookup.url);
  if (!shown.includes(run.lookup.text)) return null;
  const done = { ...cutOffResult(run, 'verified', [errorOf('RUN_RECOVERED', `${who}; ${run.lookup.url} shows "${run.lookup.text}"`)]), recovered: 'lookup' };
  await deps.ledger.finish(run.key, done);
  return done;
}

/**
 * @param {QueuedRun} run @param {'verified' | 'needs_person' | 'failed'} verdict @param {{ code: string, message: string }[]} reasons @param {string} [needs]
 * @returns {RunResult}
 */
function cutOffResult(run, verdict, reasons, needs) {
  return {
    verdict, reasons, receipt: [], run: null, modelCalls: 0, trace: null,
    workflow: run.workflow ? { id: run.workflow.id, name: run.workflow.name } : null,
    ...(needs ? { needsPerson: { kind: 'cut_off', reason: needs } } : {}),
  };
}
