// One step that acts on a page, run with its requests held: asked first when nothing can be held
// (or a sender the hold cannot see is open), then run, its declined writes turning its result into
// USER_DECLINED (the page may show an error: the request never left), and its writes told with
// their answers.
/** @import { BrowserOps, ToolResult } from '../../../types/core' */
/** @import { EffectHold } from '../../../types/safety' */
/** @import { Decision, GuardRun, StepInfo } from './run-state.js' */
/** @import { WriteEntry } from '../write-ledger.js' */
import { fail } from '../../error-codes.js';
import { writeLine } from '../write-ledger.js';
import { confirm } from './cards.js';
import { armed } from './hold.js';
import { decisionsMade } from './waits.js';

/** How long a step's result waits for its writes' answers (the rest are told with the next result). */
const WRITE_ANSWER_MS = 1500;

/** @typedef {{ result: ToolResult, held: boolean, writes: WriteEntry[] }} StepOutcome */

/**
 * @param {GuardRun} g @param {number} tabId @param {BrowserOps} browser @param {StepInfo} info
 * @param {() => Promise<ToolResult>} run @returns {Promise<StepOutcome>}
 */
export async function runStep(g, tabId, browser, info, run) {
  const hold = await armed(g, tabId, browser);
  g.stepNo++;
  if (!hold) return unheldStep(g, info, run);
  const declined = await askUnheldSenders(g, hold, info);
  if (declined) return { result: declined, held: true, writes: [] };
  const ran = await runHeld(g, info, run);
  const result = declinedResult(g.decisions) ?? ran;
  // The step's writes and their answers (a moment's wait; later answers come with the next result).
  const writes = g.ledger.ofStep(g.stepNo);
  await g.ledger.settleWithin(writes, WRITE_ANSWER_MS, (w) => g.late.push(`After your last step: ${writeLine(w)}.`));
  return { result, held: true, writes };
}

/**
 * Nothing can be held here (Chrome's debugger is taken by DevTools or another extension): the step
 * itself is asked about first, since what it sends could not be stopped.
 * @param {GuardRun} g @param {StepInfo} info @param {() => Promise<ToolResult>} run @returns {Promise<StepOutcome>}
 */
async function unheldStep(g, info, run) {
  const answer = await confirm(g, g.policy.unheldStep(info));
  if (answer === 'no') return { result: fail('USER_DECLINED', `${info.cause}; do not try it again another way: finish, or ask the user what they want instead`), held: false, writes: [] };
  return { result: await run(), held: false, writes: [] };
}

/**
 * Senders the hold cannot see that were open before it began (a worker's socket, Firefox): the
 * step asks first, since what it makes them send would leave unseen. The refusal when one is declined.
 * @param {GuardRun} g @param {EffectHold} hold @param {StepInfo} info @returns {Promise<ToolResult | null>}
 */
async function askUnheldSenders(g, hold, info) {
  for (const req of hold.unheld ?? []) {
    const verdict = g.policy.unheldSender(req, info);
    if (verdict.action !== 'ask') continue;
    const answer = await confirm(g, verdict.request);
    if (answer === 'no') return fail('USER_DECLINED', `${info.cause}, while ${verdict.request.action.replace(/^Act on the page while /, '')}; do not try it again another way: finish, or ask the user what they want instead`);
  }
  return null;
}

/** The step itself, its requests judged as its own. @param {GuardRun} g @param {StepInfo} info @param {() => Promise<ToolResult>} run */
async function runHeld(g, info, run) {
  g.step = info;
  g.lastStep = info;
  g.decisions = [];
  g.allowedInStep = new Set();
  try {
    return await run();
  } finally {
    // Decisions already asked for belong to this step, even when the user answers later.
    await decisionsMade(g);
    g.step = null;
    g.stepEnded = g.now();
  }
}

/** The step's result when something it would send was declined or blocked, else null. @param {Decision[]} decisions @returns {ToolResult | null} */
function declinedResult(decisions) {
  const declined = decisions.filter((d) => !d.allowed);
  if (!declined.length) return null;
  const what = declined.map((d) => (d.request ? `${d.request.action} on ${d.request.site}` : 'a request')).join('; ');
  return declined.some((d) => d.request)
    ? fail('USER_DECLINED', `the step ran, but not what it would send: ${what}; it never left the browser and the page may now show an error; do not try it again another way`)
    : fail('CONFIRMATION_REQUIRED', `the step ran, but what it would send was blocked: ${what}; finish and tell the user`);
}
