// Putting runs on the queue. The idempotency key is the job's id: BullMQ ignores a job whose id is
// already queued, and the ledger (ledger.js) answers a key that already ran with its stored result.
// Retries back off exponentially; finished jobs are kept (their results stay in the ledger too).
/** @import { Queue } from 'bullmq' */
/** @import { QueuedRun } from './process-run.js' */

/** @typedef {{ attempts?: number, backoffMs?: number }} RetryPolicy */

/** @param {Queue} queue @param {QueuedRun[]} runs @param {RetryPolicy} [retry] */
export async function enqueueRuns(queue, runs, retry = {}) {
  const opts = { attempts: retry.attempts ?? 3, backoff: { type: 'exponential', delay: retry.backoffMs ?? 2_000 }, removeOnComplete: false, removeOnFail: false };
  for (const run of runs) {
    if (!run.key || /[:\s]/.test(run.key)) throw new Error(`"${run.key}" cannot be an idempotency key: give letters, digits, - or _.`);
  }
  await queue.addBulk(runs.map((run) => ({ name: 'run', data: run, opts: { ...opts, jobId: run.key } })));
}
