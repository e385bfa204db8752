// Asking the person: one card at a time, their answer told to the policy ("Allow for this task"
// widens what it allows). Nobody to ask, or the run stopped: the answer is no.
/** @import { ConfirmAnswer, ConfirmRequest } from '../../../types/safety' */
/** @import { GuardRun } from './run-state.js' */

/** @param {GuardRun} g @param {ConfirmRequest} request @returns {Promise<ConfirmAnswer>} */
export function confirm(g, request) {
  const answer = g.cards.then(() => ask(g, request));
  g.cards = answer.catch(() => {});
  return answer;
}

/**
 * A card for a request, unless an answer given while it waited its turn ("Allow for this task" on
 * a card before it) already covers it: then no card, and the request goes as the policy now allows.
 * @param {GuardRun} g @param {ConfirmRequest} request @param {() => boolean} covered
 * @returns {Promise<ConfirmAnswer | 'covered'>}
 */
export function confirmUnlessCovered(g, request, covered) {
  /** @type {Promise<ConfirmAnswer | 'covered'>} */
  const answer = g.cards.then(() => (covered() ? 'covered' : ask(g, request)));
  g.cards = answer.catch(() => {});
  return answer;
}

/** The card itself, its turn come. @param {GuardRun} g @param {ConfirmRequest} request @returns {Promise<ConfirmAnswer>} */
async function ask(g, request) {
  if (!g.interact || g.signal?.aborted) return 'no';
  try {
    const a = await g.interact.confirm(request, g.signal);
    g.policy.answered(request, a);
    return a;
  } catch { return 'no'; }
}
