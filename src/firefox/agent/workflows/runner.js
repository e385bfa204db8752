// A workflow replay as a run: service/runs.js starts it like an agent run (the panel's
// transcript, the indicator, the history, the trace) and calls this instead of the agent loop,
// with the same options: the run's policy and interaction make its guard, so every step meets the
// same gates and cards as an agent step. The provider is used only to repair a step, and only
// when the user allowed it.
/** @import { RunOptions } from '../loop.js' */
/** @import { RunOutcome } from '../../types/core' */
/** @import { ReplayReport, Workflow } from '../../types/workflows' */
import { createGuard } from '../safety/guard.js';
import { createPolicy } from '../safety/policy.js';
import { createTaskScope } from '../safety/scope.js';
import { createWriteLedger } from '../safety/write-ledger.js';
import { replayWorkflow } from './replay.js';

/**
 * @param {{ workflow: Workflow, values: Record<string, string>, repair: boolean, runId?: string, onReport?: (r: ReplayReport) => void }} w
 * @returns {(options: RunOptions & { onReplayStep?: (id: string, info: { step: number, bound?: string, repaired?: boolean }) => void }) => Promise<RunOutcome>}
 */
export function workflowRunner(w) {
  return async (options) => {
    // Without a policy from the run: the task's sites are the workflow's start page.
    const policy = options.policy ?? createPolicy({ scope: createTaskScope(w.workflow.start.url, ''), secrets: options.secrets });
    // The replay keeps the ledger to wait for late answers before it is judged.
    const ledger = createWriteLedger();
    const guard = createGuard({ policy, interact: options.interact, signal: options.signal, ledger, times: options.holdTimes });
    try {
      const { outcome, report } = await replayWorkflow({
        workflow: w.workflow, values: w.values, ctx: { ...options.toolContext, signal: options.signal }, guard, emit: options.emit, signal: options.signal,
        newId: options.newId, secrets: options.secrets, repairWith: w.repair ? options.provider : undefined, fence: options.fence, onStep: options.onReplayStep, runId: w.runId, ledger,
        // The replay owns its guard: it ends with the run's settle period, as an agent run's done does.
        settle: () => guard.settleLastStep(),
      });
      w.onReport?.(report);
      return outcome;
    } finally {
      await guard.close();
    }
  };
}
