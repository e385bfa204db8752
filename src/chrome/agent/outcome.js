// The verdict on a finished run, with its evidence (types/core.d.ts Outcome): verified needs every
// write the task needed accepted (status and body); failed names the write and what the server said;
// not verified says why nothing can be vouched for. The panel, History, Traces, jobs and MCP results
// all show this one verdict. Browser-free.
/** @import { WriteEntry } from './safety/write-ledger.js' */
/** @import { Outcome, OutcomeReason, ReceiptEntry, Verdict } from '../types/core' */
import { ERROR_CODES } from './error-codes.js';
import { readAnswer } from './safety/answer-reading.js';

/**
 * @typedef {object} RunFacts
 * @property {readonly WriteEntry[]} writes every write the run caused, in order
 * @property {boolean} asksForChange the task asked for a change on a server
 * @property {number} createdJobs jobs the run created (schedule_task, schedule_resume)
 * @property {boolean} [challengeRepeated] done was challenged and the model only repeated it
 * @property {boolean} [stepsFailed] steps failed and were not made good
 */

/** @param {RunFacts} run @returns {Outcome} */
export function judgeRun(run) {
  const receipt = run.writes.filter((w) => w.sent).map(receiptOf);
  /** @type {OutcomeReason[]} */
  const reasons = [];
  const failed = receipt.filter((r) => r.verdict === 'failed');
  if (failed.length) return { verdict: 'failed', reasons: failed.map((r) => reason('WRITE_REFUSED', `${r.method} ${r.url}: ${r.said ?? r.status ?? ''}`)), receipt };
  for (const w of run.writes.filter((x) => x.sent)) {
    const a = readAnswer(w, w.outcome ?? {});
    if (a.verdict === 'not_verified' && a.code) reasons.push(reason(a.code, `${w.method} ${w.url}`));
  }
  if (run.stepsFailed) reasons.push(reason('STEPS_FAILED'));
  if (run.challengeRepeated) reasons.push(reason('CHALLENGE_REPEATED'));
  if (!receipt.length && run.createdJobs === 0) reasons.push(reason(run.asksForChange ? 'NO_WRITE_SEEN' : 'NOTHING_TO_CHECK'));
  /** @type {Verdict} */
  const verdict = reasons.length ? 'not_verified' : 'verified';
  return { verdict, reasons, receipt };
}

/** @param {WriteEntry} w @returns {ReceiptEntry} */
function receiptOf(w) {
  const a = readAnswer(w, w.outcome ?? {});
  return {
    method: w.method, url: w.url, status: w.outcome?.finalStatus ?? w.status, at: w.at ?? 0, verdict: a.verdict,
    ...(a.echoed?.length ? { echoed: a.echoed } : {}), ...(a.said ? { said: a.said } : {}),
    ...(w.outcome?.answeredBy ? { answeredBy: w.outcome.answeredBy } : {}),
  };
}

/** @param {import('./error-codes.js').ErrorCode} code @param {string} [detail] @returns {OutcomeReason} */
function reason(code, detail) {
  return { code, message: detail ? `${ERROR_CODES[code]} (${detail})` : ERROR_CODES[code] };
}
