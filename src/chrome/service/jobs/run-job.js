// A job's run: it waits for a free slot (Settings → Runs at once), takes its tab, starts the prompt
// (or the workflow) there through the router's beginRun, and waits for the run to end. The job in
// each tab is kept for the confirmation-gate hook and the notifications.
/** @import { RunOutcome } from '../../types/core' */
/** @import { Job, JobRunResult } from '../../types/jobs' */
/** @import { RunHooks } from '../../agent/scheduler/scheduler.js' */
/** @import { BeginRun } from '../jobs.js' */
import { resultFromOutcome } from '../../agent/scheduler/outcome.js';

/**
 * @param {object} deps
 * @param {BeginRun} deps.beginRun
 * @param {(tabId: number, job: Job) => ReturnType<BeginRun>} [deps.beginWorkflow]
 * @param {(tabId: number) => boolean} deps.isBusy
 * @param {import('../mcp/calls.js').RunPlaces} [deps.places]
 * @param {ReturnType<typeof import('./tabs.js').createJobTabs>} deps.tabs
 */
export function createJobRunner({ beginRun, beginWorkflow, isBusy, places, tabs }) {
  /** The job running in each tab, for the confirmation-gate hook. @type {Map<number, { id: string, hooks: RunHooks }>} */
  const runningInTab = new Map();

  /**
   * Runs a job's prompt in its tab and waits for the run to end.
   * @param {Job} job @param {RunHooks} hooks
   * @returns {Promise<JobRunResult>}
   */
  async function runJob(job, hooks) {
    // At the limit of runs at once, a due job waits here (the runs overview lists it as queued).
    const release = places ? await places.slots.acquire({ id: job.id, kind: 'job', title: job.title }, hooks.signal) : () => {};
    if (!release) return { status: 'cancelled' };
    /** @type {Awaited<ReturnType<BeginRun>>} */
    let run;
    /** @type {number} */
    let tabId;
    try {
      const tab = await tabs.targetTab(job);
      if (!tab.ok) return tab.result;
      tabId = tab.tabId;
      if (isBusy(tabId)) return { status: 'busy', tabId };
      const origin = { kind: /** @type {const} */ ('job'), label: job.title, jobId: job.id };
      run = job.kind === 'workflow' && beginWorkflow ? await beginWorkflow(tabId, job) : await beginRun(tabId, job.prompt, job.mode, { fresh: job.kind === 'task', origin });
    } finally { release(); }
    if (!run.ok) {
      if (run.code === 'BUSY') return { status: 'busy', tabId };
      return { status: 'failed', error: { code: run.code, message: run.message }, tabId };
    }
    return watchRun(job, hooks, tabId, run);
  }

  /**
   * The job's run, started: deleting the job stops it; its result carries the run's verdict.
   * @param {Job} job @param {RunHooks} hooks @param {number} tabId @param {{ outcome: Promise<RunOutcome>, stop: () => void }} run
   * @returns {Promise<JobRunResult>}
   */
  async function watchRun(job, hooks, tabId, run) {
    runningInTab.set(tabId, { id: job.id, hooks });
    const onAbort = () => run.stop();
    hooks.signal.addEventListener('abort', onAbort);
    /** @type {JobRunResult | undefined} */
    let result;
    try {
      result = { ...withVerdict(await run.outcome), tabId };
      return result;
    } finally {
      hooks.signal.removeEventListener('abort', onAbort);
      if (runningInTab.get(tabId)?.id === job.id) runningInTab.delete(tabId);
      await tabs.closeOpenedTab(job, tabId, result);
    }
  }

  return {
    runJob,
    /**
     * The confirmation-gate hook: call with true when the run in this tab stops to wait for
     * the user, and with false when it goes on. Runs not started by a job are ignored.
     * @param {number} tabId @param {boolean} waiting @param {import('../../types/jobs').JobWaitReason} [why]
     */
    setWaiting(tabId, waiting, why) { runningInTab.get(tabId)?.hooks.setWaiting(waiting, why); },
    /** The job whose run is in this tab, if any. @param {number} tabId */
    jobIn(tabId) { return runningInTab.get(tabId)?.id ?? null; },
    /** The tab a job's run is in, if any. @param {string} jobId */
    tabOf(jobId) { return [...runningInTab.entries()].find(([, r]) => r.id === jobId)?.[0]; },
  };
}

/**
 * A job run's result with the run's verdict stored beside it (the jobs page shows it): a run that
 * answered but whose write the server refused is a failed run, never a completed one.
 * @param {RunOutcome} o @returns {JobRunResult}
 */
export function withVerdict(o) {
  const base = resultFromOutcome(o);
  if (!o.outcome) return base;
  const refused = o.outcome.verdict === 'failed' && base.status === 'completed';
  const why = o.outcome.reasons[0];
  return { ...base, ...(refused ? { status: 'failed', error: { code: why?.code ?? 'WRITE_REFUSED', message: why?.message ?? 'The server refused a change the run sent.' } } : {}), outcome: o.outcome };
}

