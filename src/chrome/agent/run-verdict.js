// One run's road to its verdict, kept out of the loop: what its steps did (failed acting steps not
// made good, jobs created), whether done is believed (challenged once for its writes, once for a
// claim the page does not show), and at the end the verdict with the page check that agrees with it.
// Browser-free: the writes come from the guard, the page from the done check it is given.
/** @import { DoneCheck, Outcome, Tool, ToolOk, ToolResult } from '../types/core' */
/** @import { Guard } from './safety/guard.js' */
/** @import { WriteEntry } from './safety/write-ledger.js' */
import { asksForChange, challengeDone, evidenceOf, refusedWrites } from './completion.js';
import { judgeRun } from './outcome.js';
import { sentValues, shownOf } from './rollback-check.js';
import { fail } from './error-codes.js';

/** Effects of a tool that does something (a failed call of one is a step not done). */
const ACTING = new Set(['acts_on_page', 'navigates', 'writes_server', 'creates_jobs', 'calls_page_tool', 'runs_code']);

/**
 * @param {object} deps
 * @param {Guard} deps.guard the run's gate: its writes, and the waits for their answers
 * @param {string} deps.task what the user asked for in this run
 * @param {boolean} deps.readOnly Ask or Plan mode: nothing could be written
 * @param {(summary: string) => Promise<DoneCheck>} deps.observe the final look at the page after done
 */
export function createRunVerdict({ guard, task, readOnly, observe }) {
  /** Done was challenged for its writes (one refused, none for a change): once per run. */
  let writesChallenged = false;
  /** Done was challenged for a claim the page did not show: once per run. */
  let claimChallenged = false;
  /** Acting steps since the writes challenge (null: none yet): none means the model only repeated done. @type {number | null} */
  let actsSinceChallenge = null;
  /** Jobs this run created (schedule_task, schedule_resume): evidence of a finished task. */
  let createdJobs = 0;
  /** Acting tools whose last call failed (by name): steps not made good. @type {Set<string>} */
  const unmadeGood = new Set();
  /** Acting tools whose last call the user declined (a held write): the change was not made, by choice. @type {Set<string>} */
  const declined = new Set();
  /** What the accepted writes sent that the page showed when done stood: it must still show it after settling. @type {string[]} */
  let shownAtDone = [];
  /** What the accepted writes sent that a later step's result showed on the same page, and that page no longer shows at done: undone already. @type {string[]} */
  let goneBeforeDone = [];
  /** What each acting step's result showed, with how many writes there were by then and the page it was on. @type {StepSight[]} */
  const sights = [];

  return {
    /**
     * A step's result: an acting tool that failed stays "not made good" until a later call of the
     * same tool succeeds; a created job is evidence.
     * @param {Tool | undefined} tool @param {string} name @param {ToolResult} result
     * @param {string} [urlAfter] the tab's address after the step
     */
    noteStep(tool, name, result, urlAfter) {
      if (result.ok && tool?.effects.includes('creates_jobs')) createdJobs++;
      if (!tool || !tool.effects.some((e) => ACTING.has(e))) return;
      const writes = guard.writes().length;
      if (result.ok && writes && urlAfter) sights.push({ text: JSON.stringify(result.data ?? '').slice(0, SIGHT_CHARS), writes, url: urlAfter });
      if (actsSinceChallenge !== null) actsSinceChallenge++;
      // A step the user declined is the user's decision, not a failure of the agent's.
      if (result.ok) { unmadeGood.delete(name); declined.delete(name); }
      else if (result.code === 'USER_DECLINED') declined.add(name);
      else unmadeGood.add(name);
    },

    /**
     * Done was called: challenged once when the writes do not bear it out (one refused, one with no
     * answer, none for a change), and once when the page does not show what it quotes; otherwise it
     * stands with its page check.
     * @param {ToolOk} result the done call's result
     * @returns {Promise<{ challenge: ToolResult, check?: undefined } | { challenge?: undefined, check: DoneCheck }>}
     */
    async weighDone(result) {
      // Writes still without an answer get a bounded wait: a refusal that comes seconds later counts.
      await guard.awaitAnswers();
      const challenge = writesChallenged ? null : challengeDone({ writes: guard.writes(), task, createdJobs });
      if (challenge) {
        writesChallenged = true;
        actsSinceChallenge = 0;
        return { challenge: { ok: false, code: challenge.code, message: challenge.message } };
      }
      const check = await observe(String(result.data));
      const vouched = evidenceOf(guard.writes(), createdJobs).length > 0 || refusedWrites(guard.writes()).length > 0;
      if (check.verified === false && !vouched && !claimChallenged) {
        // One challenge only: the model gets to look again, and its second done stands (flagged).
        claimChallenged = true;
        return { challenge: fail('CLAIM_NOT_SEEN', `${check.url} does not show ${check.missing.map((m) => `"${m}"`).join(', ')}`) };
      }
      const sent = sentValues(guard.writes());
      const shown = await shownOf(sent, observe);
      shownAtDone = shown ?? [];
      goneBeforeDone = shown ? sent.filter((v) => !shown.includes(v) && seenAfterItsWrite(v, guard.writes(), sights, check.url)) : [];
      return { check };
    },

    /**
     * The run ends with an answer (done or text): what the page sends in the settle period after it
     * is held and counted, then the verdict is judged, with the page check made to agree with it.
     * @param {'done' | 'answered'} status @param {DoneCheck} [check]
     * @returns {Promise<{ outcome: Outcome, check?: DoneCheck }>}
     */
    async finish(status, check) {
      await guard.settleAfterDone();
      const writes = guard.writes();
      // Repeated: done again with nothing done since a challenge for its writes, or a claim the page still does not show.
      const repeated = status === 'done' && (actsSinceChallenge === 0 || (claimChallenged && check?.verified === false));
      // Shown when done stood, gone after the settle period: undone. A page that cannot be read proves nothing.
      const now = shownAtDone.length ? await shownOf(shownAtDone, observe) : null;
      const gone = [...goneBeforeDone, ...(now ? shownAtDone.filter((v) => !now.includes(v)) : [])];
      const outcome = judgeRun({ writes, asksForChange: asksForChange(task), createdJobs, readOnly, challengeRepeated: repeated, stepsFailed: unmadeGood.size > 0, userDeclined: declined.size > 0, rolledBack: gone });
      return { outcome, ...(check ? { check: checkAgreeing(check, outcome, writes, createdJobs) } : {}) };
    },
  };
}
/** @typedef {ReturnType<typeof createRunVerdict>} RunVerdict */

/** How much of a step's result is kept to look for what a write sent. */
const SIGHT_CHARS = 50_000;

/** @typedef {{ text: string, writes: number, url: string }} StepSight */

/**
 * Did the page show this value after the write that sent it, on the page the run ended on? Then its
 * absence at done means the change was undone before done (a page that re-reads the server and
 * drops it), not that it was never shown there (a confirmation page elsewhere).
 * @param {string} value @param {readonly WriteEntry[]} writes @param {readonly StepSight[]} sights @param {string} url
 */
export function seenAfterItsWrite(value, writes, sights, url) {
  const first = writes.findIndex((w) => (w.fields ?? []).some(([, v]) => String(v).trim() === value));
  if (first < 0) return false;
  return sights.some((s) => s.writes > first && s.url === url && s.text.includes(value));
}

/**
 * The page check as shown, agreeing with the verdict: evidence only from accepted writes, refused
 * writes named, and never "verified" when the verdict is not (but a read-only task, where the page
 * is the only check there is).
 * @param {DoneCheck} check @param {Outcome} outcome @param {readonly WriteEntry[]} writes @param {number} createdJobs
 * @returns {DoneCheck}
 */
export function checkAgreeing(check, outcome, writes, createdJobs) {
  const { evidence: _e, refused: _r, ...base } = check;
  if (outcome.verdict === 'failed') return { ...base, verified: false, refused: refusedWrites(writes) };
  const readOnly = outcome.reasons.length === 1 && outcome.reasons[0].code === 'NOTHING_TO_CHECK';
  if (outcome.verdict !== 'verified' && !readOnly) return { ...base, verified: check.verified === true ? null : check.verified };
  const evidence = evidenceOf(writes, createdJobs);
  if (check.verified === false && evidence.length) return { ...base, verified: true, evidence };
  return base;
}
