// The verdict on a finished run, with its evidence (types/core.d.ts Outcome): verified needs every
// write the task needed accepted (status and body); failed names the write and what the server said;
// not verified says why nothing can be vouched for. Every write counts: a refused one is not masked
// by a later success elsewhere or a beacon, only by a later accepted retry of the same write (same
// method and path). The panel, History, Traces, jobs and MCP results all show this one verdict.
// Browser-free.
/** @import { WriteEntry } from './safety/write-ledger.js' */
/** @import { AnswerReading } from './safety/answer-reading.js' */
/** @import { Outcome, OutcomeReason, ReceiptEntry, Verdict } from '../types/core' */
import { errorOf } from './error-codes.js';
import { readAnswer } from './safety/answer-reading.js';
import { writeLine } from './safety/write-ledger.js';

/**
 * @typedef {object} RunFacts
 * @property {readonly WriteEntry[]} writes every write the run caused, in order
 * @property {boolean} asksForChange the task asked for a change on a server
 * @property {number} createdJobs jobs the run created (schedule_task, schedule_resume)
 * @property {boolean} [challengeRepeated] done was challenged and the model only repeated it
 * @property {boolean} [stepsFailed] steps failed and were not made good
 * @property {boolean} [readOnly] an answer in Ask mode: nothing could be written
 * @property {boolean} [userDeclined] the user declined a change a step would have made (its card)
 * @property {string[]} [rolledBack] values accepted writes sent that the page showed at done and no longer shows after settling
 */

/**
 * @typedef {object} ReadWrite
 * @property {WriteEntry} w
 * @property {AnswerReading} reading
 * @property {boolean} madeGood a later write of the same method and path was accepted (a retry that worked)
 */

/**
 * The task's writes (sent, to the task's sites; a third party's telemetry does not judge the task),
 * each with what its server said.
 * @param {readonly WriteEntry[]} writes @returns {ReadWrite[]}
 */
export function readWrites(writes) {
  const sent = writes.filter((w) => w.sent && w.inTask !== false);
  const read = sent.map((w) => ({ w, reading: readAnswer(w, w.outcome ?? (w.status !== undefined || w.error ? { status: w.status, error: w.error } : {})), madeGood: false }));
  read.forEach((r, i) => {
    if (r.reading.verdict === 'verified') return;
    r.madeGood = read.slice(i + 1).some((later) => later.reading.verdict === 'verified' && later.w.method === r.w.method && pathOf(later.w.url) === pathOf(r.w.url));
  });
  return read;
}

/** @param {RunFacts} run @returns {Outcome} */
export function judgeRun(run) {
  const read = readWrites(run.writes);
  const receipt = read.map(receiptOf);
  const standing = read.filter((r) => !r.madeGood);
  const failed = standing.filter((r) => r.reading.verdict === 'failed');
  if (failed.length) return { verdict: 'failed', reasons: failed.map((r) => errorOf(r.reading.code ?? 'WRITE_REFUSED', `${lineOf(r)}${r.reading.said ? `: ${r.reading.said}` : ''}`)), receipt };
  /** @type {OutcomeReason[]} */
  const reasons = [];
  for (const r of standing.filter((x) => x.reading.verdict === 'not_verified')) {
    reasons.push(errorOf(r.reading.code ?? 'ANSWER_UNREADABLE', `${lineOf(r)}${r.reading.said ? `: ${r.reading.said}` : ''}`));
  }
  if (run.rolledBack?.length) reasons.push(errorOf('ROLLED_BACK', run.rolledBack.map((v) => `"${v}"`).join(', ')));
  if (run.userDeclined && !declinedOnlyRepeats(run.writes, read)) reasons.push(errorOf('USER_DECLINED_CHANGE'));
  if (run.stepsFailed) reasons.push(errorOf('STEPS_FAILED'));
  if (run.challengeRepeated) reasons.push(errorOf('CHALLENGE_REPEATED'));
  // Nothing sent because the user said no is said above, not as a change that never happened.
  if (!read.length && run.createdJobs === 0 && !run.userDeclined) reasons.push(errorOf(run.asksForChange && !run.readOnly ? 'NO_WRITE_SEEN' : 'NOTHING_TO_CHECK'));
  /** @type {Verdict} */
  const verdict = reasons.length ? 'not_verified' : 'verified';
  return { verdict, reasons, receipt };
}

/**
 * A run that ended without a verdict of its own (an error, the step cap, a loop): never verified,
 * and a write it had refused still says failed.
 * @param {readonly WriteEntry[]} writes @param {{ code: string, message: string }} [error] @returns {Outcome}
 */
export function unfinishedOutcome(writes, error) {
  const judged = judgeRun({ writes, asksForChange: false, createdJobs: 0 });
  if (judged.verdict === 'failed') return judged;
  const why = errorOf('NO_VERDICT', error?.message);
  return { verdict: 'not_verified', reasons: [why, ...judged.reasons.filter((r) => r.code !== 'NOTHING_TO_CHECK')], receipt: judged.receipt };
}

/**
 * Every write the user declined repeats one the server accepted (same method and path: a second
 * order, a double submit): declining it took nothing away from the task.
 * @param {readonly WriteEntry[]} writes @param {ReadWrite[]} read
 */
function declinedOnlyRepeats(writes, read) {
  const declined = writes.filter((w) => !w.sent);
  return declined.length > 0 && declined.every((d) => read.some((r) => r.reading.verdict === 'verified' && r.w.method === d.method && pathOf(r.w.url) === pathOf(d.url)));
}

/** @param {ReadWrite} r @returns {ReceiptEntry} */
function receiptOf({ w, reading }) {
  return {
    method: w.method, url: w.url, status: w.outcome?.finalStatus ?? w.status, at: w.at ?? 0, verdict: reading.verdict,
    ...(reading.echoed?.length ? { echoed: reading.echoed } : {}), ...(reading.said ? { said: reading.said } : {}),
    ...(w.outcome?.answeredBy ? { answeredBy: w.outcome.answeredBy } : {}),
    ...(w.afterDone ? { afterDone: true } : {}),
  };
}

/** The write in words, marked when the page sent it after done. @param {ReadWrite} r */
function lineOf({ w }) {
  return `${writeLine(w)}${w.afterDone ? ', sent by the page after done' : ''}`;
}

/** @param {string} url */
function pathOf(url) {
  try { const u = new URL(url); return `${u.origin}${u.pathname}`; } catch { return url; }
}
