// What the guard-part tests build: a run's state over a real policy, a person who answers cards,
// and a tab whose hold hands its handlers to the test.
import { createGuardRun } from '../../../src/chrome/agent/safety/guard/run-state.js';
import { createPolicy } from '../../../src/chrome/agent/safety/policy.js';
import { createTaskScope } from '../../../src/chrome/agent/safety/scope.js';
import { fakeClock } from '../fake-clock.js';

/** @import { ConfirmAnswer, ConfirmRequest, HeldRequest, HoldHandlers } from '../../../src/chrome/types/safety' */

export const PAGE = 'https://shop.test/cart';
/** @type {HeldRequest} */
export const ORDER = { kind: 'request', method: 'POST', url: 'https://shop.test/api/order', type: 'fetch', topLevel: false, body: 'sku=A-1' };

/** A person who gives these answers in turn (then no), and the cards they saw. @param {ConfirmAnswer[]} answers */
export function person(...answers) {
  /** @type {ConfirmRequest[]} */
  const asked = [];
  return { asked, confirm: async (/** @type {ConfirmRequest} */ r) => { asked.push(r); return answers.shift() ?? 'no'; }, approvePlan: async () => ({ approved: true, steps: [] }), clarify: async () => '' };
}

/** @param {{ interact?: ReturnType<typeof person>, signal?: AbortSignal, times?: Record<string, number> }} [over] */
export function guardRun(over = {}) {
  const clock = fakeClock();
  const g = createGuardRun({ policy: createPolicy({ scope: createTaskScope(PAGE) }), now: clock.now, timers: clock, ...over });
  return { g, clock };
}

/** A tab: its hold (or none) and the handlers the guard gave it. @param {{ unheld?: HeldRequest[], none?: boolean }} [o] */
export function tab(o = {}) {
  const t = {
    /** @type {HoldHandlers | null} */ handlers: null,
    released: 0,
    browser: /** @type {any} */ ({
      holdEffects: async (/** @type {number} */ _tabId, /** @type {HoldHandlers} */ handlers) => {
        if (o.none) return null;
        t.handlers = handlers;
        return { unheld: o.unheld, async release() { t.released++; } };
      },
    }),
  };
  return t;
}

/** Lets promise callbacks run. */
export const flush = () => new Promise((r) => setTimeout(r, 0));
