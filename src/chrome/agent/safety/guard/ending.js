// The end of a run's hold: done waits for the answers of its writes (and, when done stands, for a
// settle period in which what the page sends is still held and recorded), then every hold is released.
/** @import { GuardRun } from './run-state.js' */
import { decisionsMade, sleep } from './waits.js';

/**
 * Done was called: writes still without an answer get a bounded wait (then they count as not
 * verified), and cards still open are answered first. @param {GuardRun} g
 */
export async function awaitAnswers(g) {
  await decisionsMade(g);
  await g.ledger.settleWithin(g.ledger.open(), g.doneAnswerMs, () => {});
}

/**
 * Done stands: the hold stays for a settle period past the last acting step, so what the page
 * sends after done is held, asked and recorded (marked afterDone) before the verdict; then
 * their answers get the same bounded wait. @param {GuardRun} g
 */
export async function settleAfterDone(g) {
  if (g.stepNo === 0 || g.released) return;
  g.afterDone = true;
  await settleLastStep(g);
}

/**
 * A replay's end (it has no done): the same settle period past the last acting step, so a write
 * that step made the page send reaches the hold, is decided and recorded as the step's before the
 * verdict; a release right after the step would let it go unseen (and unasked). @param {GuardRun} g
 */
export async function settleLastStep(g) {
  if (g.stepNo === 0 || g.released) return;
  await sleep(g, g.stepEnded + g.afterDoneMs - g.now());
  await decisionsMade(g);
  await g.ledger.settleWithin(g.ledger.open(), g.doneAnswerMs, () => {});
}

/** Release every hold at the end of the run. @param {GuardRun} g */
export async function releaseHolds(g) {
  g.released = true;
  const all = [...g.holds.values()];
  g.holds.clear();
  await Promise.all(all.map(async (h) => { try { await (await h)?.release(); } catch { /* the tab is gone */ } }));
}
