// A held request's decision: the policy's verdict, the person's answer when it asks, and what a
// write leaves behind (the ledger, the policy's memory of what was sent). A second identical write
// while the first has no answer waits for that answer, then is judged (a duplicate of an accepted
// write asks). A card the person allowed covers the same kind of write for the rest of the step, so
// an honest step asks once.
/** @import { HeldRequest } from '../../../types/safety' */
/** @import { Decision, GuardRun, StepInfo } from './run-state.js' */
import { writeKind } from '../write-kind.js';
import { writeSignature } from '../request-facts.js';
import { confirmUnlessCovered } from './cards.js';
import { within } from './waits.js';
import { isWrite, originOfUrl, webUrl } from './requests.js';

/** @param {GuardRun} g @param {HeldRequest} req @returns {Promise<boolean>} */
export async function decide(g, req) {
  if (g.person) { g.person.sent(req); return true; }
  const info = g.step ?? g.lastStep;
  if (!info) return true;
  if (!isWrite(req)) return judge(g, req, info);
  const sig = writeSignature(req);
  const first = g.inFlight.get(sig);
  // A hasty duplicate: sent before the first had its answer, so not a retry of a refusal the page
  // saw. It waits for that answer, then is asked about as a duplicate whatever the answer was.
  if (first) {
    await within(g, first, g.duplicateWaitMs);
    g.policy.noteSent(req);
  }
  /** @type {() => void} */
  let done = () => {};
  const mine = new Promise((resolve) => { done = () => { if (g.inFlight.get(sig) === mine) g.inFlight.delete(sig); resolve(undefined); }; });
  g.inFlight.set(sig, /** @type {Promise<void>} */ (mine));
  const allowed = await judge(g, req, info).catch(() => false);
  // Every write the run caused is in the ledger, sent or not; what was sent can no longer be sent twice unasked.
  g.ledger.add(req, allowed, g.stepNo, { page: info.pageUrl, inTask: g.policy.scope.has(webUrl(req.url)), afterDone: g.afterDone });
  if (allowed) { g.policy.noteSent(req); g.answered.set(req, done); } else done();
  return allowed;
}

/** The policy's verdict on a request, asked of the person when it says so. @param {GuardRun} g @param {HeldRequest} req @param {StepInfo} info @returns {Promise<boolean>} */
export async function judge(g, req, info) {
  const verdict = g.policy.judgeRequest(req, info);
  const during = g.step !== null;
  if (verdict.action === 'allow') return true;
  if (verdict.action === 'refuse') return record(g, during, { request: null, allowed: false });
  const onceKey = writeKind(req);
  if (verdict.request.rule === 'server_write' && (g.allowedInStep.has(onceKey) || info.approvedOrigin === originOfUrl(req.url))) return true;
  const answer = await confirmUnlessCovered(g, verdict.request, () => g.policy.judgeRequest(req, info).action === 'allow');
  if (answer === 'covered') return true;
  if (answer !== 'no') g.allowedInStep.add(onceKey);
  return record(g, during, { request: verdict.request, allowed: answer !== 'no', answer });
}

/**
 * A decision made during a step goes with its result; one about a request sent after the step's
 * result went back is told with the next result. @param {GuardRun} g @param {boolean} during @param {Decision} d
 */
function record(g, during, d) {
  if (during) g.decisions.push(d);
  else if (d.request) g.late.push(`After your last step the page tried: ${d.request.action} on ${d.request.site}. ${d.allowed ? 'The user allowed it.' : 'It was blocked (the user declined).'}`);
  return d.allowed;
}
