// The gate every agent step passes: the policy's verdict before a call runs (asking the user when
// it says so), and the hold on the requests and downloads the page sends, from the run's first
// acting step until the run ends and a settle period after done (a debounced autosave leaves during
// the model's turn or after its done: it is held and asked like any other, and recorded under the
// last step). One card at a time; a card the user allowed covers the same kind of write for the rest
// of that step, so an honest step asks once. A second identical write while the first has no answer
// waits for that answer, then is judged (a duplicate of an accepted write asks).
// The parts are in guard/: the run's state, cards, each request's decision, the hold per tab, a
// step, the person's turn, the end.
/** @import { BrowserOps, ToolResult } from '../../types/core' */
/** @import { PersonAttempt } from '../../types/handoff' */
/** @import { GuardDeps, StepInfo as Step } from './guard/run-state.js' */
import { createGuardRun } from './guard/run-state.js';
import { confirm } from './guard/cards.js';
import { armed } from './guard/hold.js';
import { runStep } from './guard/step.js';
import { personWatch } from './guard/person.js';
import { awaitAnswers, releaseHolds, settleAfterDone, settleLastStep } from './guard/ending.js';

export { HOLD_TIMES } from './guard/run-state.js';
/** @typedef {Step} StepInfo */

/** @param {GuardDeps} deps */
export function createGuard(deps) {
  const g = createGuardRun(deps);
  return {
    policy: g.policy,
    /** Ask the user (one card at a time). Resolves 'no' when nobody can answer or the run stops. @param {import('../../types/safety').ConfirmRequest} request */
    confirm: (request) => confirm(g, request),

    /**
     * Run one step that acts on a page with its requests held. A write the user declined turns the
     * step's result into USER_DECLINED (the page may show an error: the request never left).
     * @param {number} tabId @param {BrowserOps} browser @param {StepInfo} info @param {() => Promise<ToolResult>} run
     */
    runStep: (tabId, browser, info, run) => runStep(g, tabId, browser, info, run),

    /**
     * The person takes the tab until the returned function is called: their requests are let go
     * and told to onAttempt with their answers (the hold is armed for it if no step armed it yet).
     * @param {number} tabId @param {BrowserOps} browser @param {(a: PersonAttempt) => void} onAttempt
     * @returns {Promise<() => void>}
     */
    async personTurn(tabId, browser, onAttempt) {
      g.person = personWatch(onAttempt);
      await armed(g, tabId, browser);
      const mine = g.person;
      return () => { if (g.person === mine) g.person = null; };
    },

    /** Every write this run caused so far, in order. */
    writes: () => g.ledger.all(),

    /** Requests the policy decided after the step's result went back: told with the next result. */
    takeLate() { const out = g.late; g.late = []; return out; },

    /** Can this tab's requests be held? (false: Chrome's debugger is taken by DevTools) @param {number} tabId @param {BrowserOps} browser */
    async canHold(tabId, browser) { return (await armed(g, tabId, browser)) !== null; },

    /** Done was called: writes without an answer get a bounded wait, cards still open are answered first. */
    awaitAnswers: () => awaitAnswers(g),

    /** Done stands: the hold stays for a settle period past the last acting step, then the answers get their wait. */
    settleAfterDone: () => settleAfterDone(g),

    /** A replay's end: the same settle period past the last acting step, then the answers' wait. */
    settleLastStep: () => settleLastStep(g),

    /** Release every hold at the end of the run. */
    close: () => releaseHolds(g),
  };
}
/** @typedef {ReturnType<typeof createGuard>} Guard */
