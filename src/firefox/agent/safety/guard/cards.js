// Asking the person: one card at a time, their answer told to the policy ("Allow for this task"
// widens what it allows). Nobody to ask, or the run stopped: the answer is no.
/** @import { ConfirmAnswer, ConfirmRequest } from '../../../types/safety' */
/** @import { GuardRun } from './run-state.js' */

/** @param {GuardRun} g @param {ConfirmRequest} request @returns {Promise<ConfirmAnswer>} */
export function confirm(g, request) {
  const answer = g.cards.then(async () => {
    if (!g.interact || g.signal?.aborted) return /** @type {ConfirmAnswer} */ ('no');
    try {
      const a = await g.interact.confirm(request, g.signal);
      g.policy.answered(request, a);
      return a;
    } catch { return /** @type {ConfirmAnswer} */ ('no'); }
  });
  g.cards = answer.catch(() => {});
  return answer;
}
