// What the gate holds for one run: its dependencies (the policy, the person, the clock, the write
// ledger), its waits, and what it tracks while the run goes (the step acting now, the decisions of
// that step, the notes told with the next result, the writes still waiting for their answer, the
// holds armed per tab, the person's turn). The guard's parts (this folder) read and change it.
/** @import { ConfirmAnswer, ConfirmRequest, EffectHold, HeldRequest } from '../../../types/safety' */
/** @import { Interaction } from '../../../types/core' */
/** @import { Policy } from '../policy.js' */
/** @import { PersonWatch } from './person.js' */
import { createWriteLedger } from '../write-ledger.js';

/**
 * The hold's waits. afterDoneMs: after done, the hold stays this long past the last acting step
 * (writes a page debounces: autosaves commonly wait 1 to 3.5 s after the last keystroke, and a
 * page's timer fires late on a busy machine, so 5 s); doneAnswerMs: at done, writes still without
 * an answer get this long, then count as not verified; duplicateWaitMs: a second identical write
 * waits at most this long for the first one's answer. Unit tests shorten the first (their fake
 * pages send nothing late).
 */
export const HOLD_TIMES = { afterDoneMs: 5000, doneAnswerMs: 5000, duplicateWaitMs: 10_000 };

/** @typedef {{ setTimeout: (fn: () => void, ms: number) => any, clearTimeout: (id: any) => void }} Timers */
/** @type {Timers} */
const REAL_TIMERS = { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id) };

/**
 * @typedef {object} StepInfo
 * @property {string} cause 'click button "Send" on mail.example'
 * @property {string} pageUrl the tab's URL when the step began
 * @property {{ role: string, name: string } | null} target
 * @property {string} [approvedOrigin] the user already allowed this step on this origin (a site_confirm card): its writes there need no second card
 */
/** A held request decided during a step, for its result. @typedef {{ request: ConfirmRequest | null, allowed: boolean, answer?: ConfirmAnswer }} Decision */

/**
 * @typedef {object} GuardDeps
 * @property {Policy} policy
 * @property {Interaction} [interact] the user; without one every card is a refusal
 * @property {AbortSignal} [signal]
 * @property {() => number} [now]
 * @property {import('../write-ledger.js').WriteLedger} [ledger] the run's writes (a new one by default)
 * @property {Timers} [timers] a fake clock in tests
 * @property {Partial<typeof HOLD_TIMES>} [times] the waits above, for this run
 */

/** @param {GuardDeps} deps */
export function createGuardRun({ policy, interact, signal, now = Date.now, timers = REAL_TIMERS, times = {}, ledger = createWriteLedger(timers) }) {
  return {
    policy, interact, signal, now, timers, ledger,
    afterDoneMs: times.afterDoneMs ?? HOLD_TIMES.afterDoneMs,
    doneAnswerMs: times.doneAnswerMs ?? HOLD_TIMES.doneAnswerMs,
    duplicateWaitMs: times.duplicateWaitMs ?? HOLD_TIMES.duplicateWaitMs,
    /** The run ended: nothing more is held. */
    released: false,
    /** The agent said done: what the page sends now is reported with the verdict. */
    afterDone: false,
    /** Writes let go that have no answer yet, by signature: an identical one waits for it. */
    inFlight: /** @type {Map<string, Promise<void>>} */ (new Map()),
    /** What to call when a write let go has its answer. */
    answered: /** @type {WeakMap<HeldRequest, () => void>} */ (new WeakMap()),
    /** The number of the current (or last) acting step, for the ledger. */
    stepNo: 0,
    holds: /** @type {Map<number, Promise<EffectHold | null>>} */ (new Map()),
    /** The step acting now, and the last one (what the page sends between steps is judged as its doing). */
    step: /** @type {StepInfo | null} */ (null),
    lastStep: /** @type {StepInfo | null} */ (null),
    stepEnded: -Infinity,
    /** Decisions of the current step (held requests), for its result. */
    decisions: /** @type {Decision[]} */ ([]),
    /** Decisions about requests that came after the step's result was returned: told with the next result. */
    late: /** @type {string[]} */ ([]),
    /** Writes the user allowed once during this step: their kind (method, URL path, body keys, operation: write-kind.js). */
    allowedInStep: /** @type {Set<string>} */ (new Set()),
    /** Decisions still being made (cards the user has not answered). */
    pending: /** @type {Set<Promise<unknown>>} */ (new Set()),
    /** One card at a time. */
    cards: /** @type {Promise<unknown>} */ (Promise.resolve()),
    /**
     * The person has the tab (a sign-in, a challenge): what their page sends is theirs, not the
     * run's. It goes at once, unjudged and off the ledger; only its method, URL and answer are told
     * (never its body: it holds what they typed).
     */
    person: /** @type {PersonWatch | null} */ (null),
  };
}
/** @typedef {ReturnType<typeof createGuardRun>} GuardRun */

/**
 * Is a request now the run's doing? From its first acting step until it ends: a page that sends
 * later (a debounce, a timer) sends because of what the agent did. @param {GuardRun} g
 */
export function caused(g) { return g.stepNo > 0 && !g.released; }
