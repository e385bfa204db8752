// A run from start to end: it takes the tab's session, is prepared (prepare.js), runs the agent
// loop (or a workflow replay) with the on-page indicator shown while it may act, and when it ends
// is recorded in the history before the panel hears that it ended.
/** @import { Mode, RunOutcome } from '../../types/core' */
/** @import { Session } from '../session.js' */
/** @import { RunsContext, RunExtra, StartedRun } from '../runs.js' */
import { runAgent } from '../../agent/loop.js';
import { textOf } from '../../agent/compaction.js';
import { prepareRun } from './prepare.js';
import { recordRun } from './record.js';
import { stopRun } from './stop.js';
import { errorOf } from '../../agent/error-codes.js';

/**
 * @typedef {object} Launched
 * @property {Promise<RunOutcome>} outcome
 * @property {boolean} shown the indicator was shown for it
 * @property {{ url?: string, title?: string } | null} tab the tab as the run started
 * @property {import('../traces.js').TraceHandle | null} trace
 */

/**
 * Starts a run in a tab whose run is settled. Every way out goes through the run's state
 * (service/run-state.js): a run that cannot start (an unknown provider kind, a settings read that
 * throws) ends failed, with its message in the transcript and the conversation kept; Stop while
 * it starts ends it stopped; the tab is never left busy.
 * @param {RunsContext} ctx @param {Session} s @param {Mode} mode
 * @param {number} firstItem the transcript index where this run starts (its history record holds what follows)
 * @param {readonly string[]} [onlyTools] a skill's tools
 * @param {RunExtra} [extra] a workflow replay's runner (instead of the agent loop)
 * @returns {Promise<StartedRun>}
 */
export async function startRun(ctx, s, mode, firstItem, onlyTools, extra = {}) {
  const { controller, current } = takeSession(s, mode, extra);
  // Write-ahead: the user's message is stored before anything else happens.
  await ctx.checkpoint(s).catch(() => {});
  const startedAt = Date.now();
  const usageBefore = { ...s.usage };
  const launched = await launch(ctx, s, { mode, controller, current, onlyTools, extra, startedAt });
  const ended = launched.outcome.then(async (o) => {
    if (current()) ctx.spend?.end(s.tabId);
    // A newer run in this tab owns the indicator now; after New chat nobody does.
    if (launched.shown && (s.run === controller || s.run === null)) ctx.showIndicator(s.tabId, false);
    if (!current()) return;
    // The run is in the history before the panel hears it ended, so "idle" means "recorded".
    await Promise.all([recordRun(ctx, s, { firstItem, startedAt, usageBefore, mode, tab: launched.tab, status: o.status, outcome: o.outcome }), launched.trace?.finish(o)]);
    if (!current()) return;
    s.run = null;
    s.state.transition(o.status === 'aborted' ? 'stop' : o.status === 'error' ? 'fail' : 'finish');
  });
  s.settled = ended;
  return { ok: true, outcome: ended.then(() => launched.outcome), stop: () => stopRun(s) };
}

/**
 * The run takes the session: its state, origin, task and mode, and a controller that stops it.
 * current() says whether this run may still write to the session: not after New chat, nor once a
 * newer run took the tab (after Stop, while this one still unwinds).
 * @param {Session} s @param {Mode} mode @param {RunExtra} extra
 */
export function takeSession(s, mode, extra) {
  s.state.transition('start');
  s.origin = extra.origin ?? { kind: 'panel' };
  s.task = s.origin.task ?? lastUserText(s);
  s.startedAt = Date.now();
  const generation = s.generation;
  const controller = new AbortController();
  s.run = controller;
  s.mode = mode;
  const current = () => s.generation === generation && s.run === controller;
  return { controller, current };
}

/** The text of the conversation's latest user message. @param {Session} s */
export function lastUserText(s) {
  return textOf([...s.messages].reverse().find((m) => m.role === 'user')?.content ?? '');
}

/**
 * Prepares the run and sets it going; a run that cannot start has its reason in the transcript and
 * an outcome that says so.
 * @param {RunsContext} ctx @param {Session} s
 * @param {{ mode: Mode, controller: AbortController, current: () => boolean, onlyTools?: readonly string[], extra: RunExtra, startedAt: number }} run
 * @returns {Promise<Launched>}
 */
async function launch(ctx, s, { mode, controller, current, onlyTools, extra, startedAt }) {
  let shown = false;
  /** @type {Launched['tab']} */
  let tab = null;
  /** @type {Launched['trace']} */
  let trace = null;
  try {
    const setup = await prepareRun(ctx, s, mode, controller, current, onlyTools);
    tab = setup.tab;
    // The run's trace: its requests, tool calls and page data, under the history record's id.
    trace = await ctx.traces?.begin({ id: `${s.tabId}-${startedAt}`, tabId: s.tabId, kind: extra.runner ? 'replay' : 'agent', mode, task: lastUserText(s), tab, secrets: s.secrets, workflowId: extra.workflowId }).catch(() => null) ?? null;
    trace?.wrap(setup.options);
    if (controller.signal.aborted) return { outcome: Promise.resolve(/** @type {RunOutcome} */ ({ status: 'aborted', steps: 0 })), shown, tab, trace };
    // The on-page indicator shows that the agent may act; Ask mode only reads, so it stays hidden.
    if (mode !== 'ask') { ctx.showIndicator(s.tabId, true); shown = true; }
    s.state.transition('ready');
    const outcome = (extra.runner ?? runAgent)(setup.options).catch((err) => {
      const message = `The run failed unexpectedly: ${err instanceof Error ? err.message : err}`;
      if (current()) s.addError('INTERNAL_ERROR', message);
      return /** @type {RunOutcome} */ ({ status: 'error', error: errorOf('INTERNAL_ERROR', message), steps: 0 });
    });
    return { outcome, shown, tab, trace };
  } catch (err) {
    const message = `The run could not start: ${err instanceof Error ? err.message : String(err)}`;
    if (current()) s.addError('RUN_NOT_STARTED', message);
    return { outcome: Promise.resolve(/** @type {RunOutcome} */ ({ status: 'error', error: errorOf('RUN_NOT_STARTED', message), steps: 0 })), shown, tab, trace };
  }
}
