// The state of a tab's run, owned here and nowhere else: every path a run can take is a
// transition of this table, so no path can leave a tab busy. service/runs.js drives it; the panel
// hears each change; storage keeps it so that a run the stopped background cut short comes back
// as interrupted.
//
//   idle ──start──▶ starting ──ready──▶ streaming ◀──stream/act──▶ acting
//                                           ▲   │ wait          wait │
//                                           └── waiting (for the user) ◀┘  (answered: stream or act)
//   any active state ──finish──▶ finished   ──fail──▶ failed   ──stop──▶ stopped
//   any active state, after the background stopped ──restore──▶ interrupted ──start──▶ starting
//
// A settled state (idle, finished, failed, stopped, interrupted) takes a new start; an active one
// refuses it (BUSY). Stop ends every active state, and a second Stop changes nothing.
/** @import { RunPhase, RunEvent } from '../types/messages' */

/** @type {readonly RunPhase[]} */
export const ACTIVE = Object.freeze(['starting', 'streaming', 'acting', 'waiting']);

/**
 * The table: for each event, the states it applies in and the state it leads to. An event in any
 * other state is refused (transition() returns false and nothing changes).
 * @type {Readonly<Record<RunEvent, { from: readonly RunPhase[], to: RunPhase }>>}
 */
export const TRANSITIONS = Object.freeze({
  start: { from: ['idle', 'finished', 'failed', 'stopped', 'interrupted'], to: 'starting' },
  ready: { from: ['starting'], to: 'streaming' },
  stream: { from: ['streaming', 'acting', 'waiting'], to: 'streaming' },
  act: { from: ['streaming', 'acting', 'waiting'], to: 'acting' },
  wait: { from: ['streaming', 'acting'], to: 'waiting' },
  finish: { from: ACTIVE, to: 'finished' },
  fail: { from: ACTIVE, to: 'failed' },
  stop: { from: ACTIVE, to: 'stopped' },
  restore: { from: ACTIVE, to: 'interrupted' },
  clear: { from: ['idle', 'finished', 'failed', 'stopped', 'interrupted'], to: 'idle' },
});

export class RunState {
  /** @param {RunPhase} [phase] @param {(phase: RunPhase, previous: RunPhase) => void} [onChange] */
  constructor(phase = 'idle', onChange) {
    /** @type {RunPhase} */
    this.phase = phase;
    this.onChange = onChange;
  }

  /** Whether a run holds the tab (a new one is refused with BUSY). */
  get busy() { return ACTIVE.includes(this.phase); }

  /** @param {RunEvent} event */
  can(event) { return TRANSITIONS[event].from.includes(this.phase); }

  /**
   * Applies an event; false (and no change) when the table has no such transition from here.
   * @param {RunEvent} event @returns {boolean}
   */
  transition(event) {
    if (!this.can(event)) return false;
    const previous = this.phase;
    this.phase = TRANSITIONS[event].to;
    if (this.phase !== previous) this.onChange?.(this.phase, previous);
    return true;
  }

  /**
   * The state a stored session comes back in after the background stopped: an active run is
   * interrupted (Continue resumes it), anything else is as it was.
   * @param {RunPhase | undefined} stored
   * @returns {RunPhase}
   */
  static restored(stored) {
    if (!stored) return 'idle';
    return ACTIVE.includes(stored) ? 'interrupted' : stored;
  }
}
