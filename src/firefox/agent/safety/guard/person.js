// The person's turn (a sign-in, a challenge): what their page sends goes at once, unjudged and off
// the ledger; each request is told with its method, URL and answer, never its body.
/** @import { HeldRequest, WriteOutcome } from '../../../types/safety' */
/** @import { PersonAttempt } from '../../../types/handoff' */
import { readAnswer } from '../answer-reading.js';

/**
 * @typedef {object} PersonWatch
 * @property {(req: HeldRequest) => void} sent
 * @property {(req: HeldRequest, outcome: WriteOutcome) => boolean} answered false: not the person's request
 */

/** @param {(a: PersonAttempt) => void} tell @returns {PersonWatch} */
export function personWatch(tell) {
  /** @type {WeakMap<HeldRequest, PersonAttempt>} */
  const mine = new WeakMap();
  return {
    sent(req) {
      const a = { method: req.method, url: req.url, failed: false, settled: false };
      mine.set(req, a);
      tell(a);
    },
    answered(req, outcome) {
      const a = mine.get(req);
      if (!a) return false;
      a.settled = true;
      if (outcome.status !== undefined) a.status = outcome.status;
      if (outcome.error) a.error = outcome.error.slice(0, 200);
      if (outcome.finalUrl) a.finalUrl = outcome.finalUrl;
      a.failed = readAnswer(req, outcome).verdict === 'failed';
      tell(a);
      return true;
    },
  };
}
