// While a run waits for the user (plan approval, confirmation, clarify, a budget) its state says so, and a
// scheduled job's run shows as needs_user_input and the user is notified (service/jobs.js ignores
// other runs). An answered confirmation lets a tool act; a plan or an answer goes back to the model.
/** @import { Interaction } from '../../types/core' */
/** @import { Session } from '../session.js' */
/** @import { RunsContext } from '../runs.js' */
import { budgetSentence } from '../../agent/run/spend-check.js';
import { errorOf } from '../../agent/error-codes.js';

/**
 * @param {Pick<RunsContext, 'jobs' | 'personTurn'>} ctx @param {Session} s @param {Interaction} inner
 * @returns {Interaction}
 */
export function reportWaiting({ jobs, personTurn }, s, inner) {
  /** @template T @param {() => Promise<T>} ask @param {'act' | 'stream'} after @param {import('../../types/jobs').JobWaitReason} [why] @returns {Promise<T>} */
  const waiting = async (ask, after, why) => {
    s.state.transition('wait');
    jobs().setWaitingForUser(s.tabId, true, why);
    try { return await ask(); } finally {
      jobs().setWaitingForUser(s.tabId, false);
      s.state.transition(after);
    }
  };
  return {
    approvePlan: (id, steps, signal) => waiting(() => inner.approvePlan(id, steps, signal), 'stream'),
    confirm: (req, signal) => waiting(() => inner.confirm(req, signal), 'act'),
    clarify: (question, signal) => waiting(() => inner.clarify(question, signal), 'stream'),
    // A job paused at its budget says so on the jobs page.
    budget: (pause, signal) => waiting(() => (inner.budget ? inner.budget(pause, signal) : Promise.resolve(null)), 'stream', { ...errorOf('BUDGET_REACHED', budgetSentence(pause)), budget: pause }),
    handoff: (moment, signal) => personTurn(s, inner, moment, signal),
  };
}
