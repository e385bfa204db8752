// Agent runs in a tab: the panel's Send and Continue, and scheduled jobs (service/jobs.js) start them
// here. A run gets its provider(s), confirmation policy and panel interaction from settings, shows the
// on-page indicator while it may act, and is recorded in the history when it ends. The parts, in
// runs/: how a run begins (begin.js), runs and ends (start.js), is prepared (prepare.js), waits for
// the person (waiting.js), is recorded (record.js) and stopped (stop.js).
/** @import { Mode, RunOutcome } from '../types/core' */
/** @import { RouterReply } from '../types/messages' */
/** @import { Platform } from '../types/platform' */
/** @import { Session } from './session.js' */
import { createProvider } from '../providers/index.js';
import { createPersonTurn } from './person-turn.js';
import { beginRun, continueChat, retryChat } from './runs/begin.js';
import { showIndicator } from './runs/indicator.js';
import { newChat, stopRun } from './runs/stop.js';

/**
 * @param {object} deps
 * @param {Platform} deps.platform
 * @param {ReturnType<typeof import('./settings.js').createSettingsStore>} deps.settings
 * @param {ReturnType<typeof import('./browser-ops.js').createBrowserOps>} deps.ops
 * @param {ReturnType<typeof import('./history-store.js').createHistoryStore>} deps.history
 * @param {(tabId: number) => Promise<Session>} deps.session
 * @param {() => ReturnType<typeof import('./jobs.js').startJobs>} deps.jobs the scheduler, which itself starts runs here
 * @param {typeof createProvider} [deps.providerFor] makes a provider from its settings (tests give a scripted one)
 * @param {(s: Session) => Promise<void>} [deps.checkpoint] writes the session down now (service/session-store.js), not after a debounce
 * @param {ReturnType<typeof import('./knowledge.js').createKnowledge>} [deps.knowledge] site adapters and skills (absent: the run is told nothing about sites)
 * @param {import('./traces.js').Traces} [deps.traces] records each run's trace (absent: no traces)
 * @param {() => import('./workflows.js').Workflows} [deps.workflows] the saved workflows, for the run_workflow tool
 * @param {import('./spend.js').Spend} [deps.spend] each run's tokens and cost, today's, and the budgets (absent: nothing counted or capped)
 */
export function createRuns({ platform, settings, ops, history, session, jobs, knowledge, traces, workflows, spend, providerFor = createProvider, checkpoint = async () => {} }) {
  /** @param {number} tabId @param {boolean} show */
  const indicator = (tabId, show) => showIndicator(ops, tabId, show);
  /** @type {RunsContext} */
  const ctx = {
    platform, settings, ops, history, session, jobs, knowledge, traces, workflows, spend, providerFor, checkpoint,
    showIndicator: indicator,
    personTurn: createPersonTurn({ ops, jobs, showIndicator: indicator }),
  };
  return {
    /** @param {number} tabId @param {string} text @param {Mode} mode @returns {Promise<RouterReply>} */
    async startChat(tabId, text, mode) {
      const run = await beginRun(ctx, tabId, text, mode);
      return run.ok ? { ok: true, data: { started: true } } : run;
    },
    /** @param {number} tabId @param {string} text @param {Mode} mode @param {Parameters<typeof beginRun>[4]} [opts] */
    beginRun: (tabId, text, mode, opts) => beginRun(ctx, tabId, text, mode, opts),
    /** @param {number} tabId */
    continueChat: (tabId) => continueChat(ctx, tabId),
    /** @param {number} tabId */
    retryChat: (tabId) => retryChat(ctx, tabId),
    stopRun,
    /** @param {Session} s */
    newChat: (s) => newChat(ctx, s),
  };
}

/**
 * What the runs' parts share: createRuns' dependencies, with their defaults, the indicator and the
 * person's turn.
 * @typedef {object} RunsContext
 * @property {Platform} platform
 * @property {ReturnType<typeof import('./settings.js').createSettingsStore>} settings
 * @property {ReturnType<typeof import('./browser-ops.js').createBrowserOps>} ops
 * @property {ReturnType<typeof import('./history-store.js').createHistoryStore>} history
 * @property {(tabId: number) => Promise<Session>} session
 * @property {() => ReturnType<typeof import('./jobs.js').startJobs>} jobs
 * @property {typeof createProvider} providerFor
 * @property {(s: Session) => Promise<void>} checkpoint
 * @property {ReturnType<typeof import('./knowledge.js').createKnowledge>} [knowledge]
 * @property {import('./traces.js').Traces} [traces]
 * @property {() => import('./workflows.js').Workflows} [workflows]
 * @property {import('./spend.js').Spend} [spend]
 * @property {(tabId: number, show: boolean) => void} showIndicator
 * @property {ReturnType<typeof createPersonTurn>} personTurn
 */

/** @typedef {{ ok: true, outcome: Promise<RunOutcome>, stop: () => void } | { ok: false, code: string, message: string }} StartedRun */

/**
 * @typedef {object} RunExtra
 * @property {(options: import('../agent/loop.js').RunOptions) => Promise<RunOutcome>} [runner] runs instead of the agent loop, with the same options (a workflow replay)
 * @property {string} [workflowId] the workflow a replay runs, for its trace
 * @property {import('../types/messages').RunOrigin} [origin] who started the run (the panel when absent)
 */
