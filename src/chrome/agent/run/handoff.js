// After a step that touched the page: does the page now need the person (a sign-in the run walked
// into, an expired session, a second factor, a challenge, an age or consent gate)? Then the run
// pauses with a "Your turn" card until evidence says the person is through (agent/handoff/), the
// person says Done, or Cancel ends the run. The model is told what happened, never what was typed.
/** @import { HandoffMoment, HandoffSignals } from '../../types/handoff' */
/** @import { RunOutcome, Tool } from '../../types/core' */
/** @import { Run } from './prepare.js' */
import { withTimeout } from '../abort.js';
import { textOf } from '../compaction.js';
import { detectMoment, hostOf, personCredentials } from '../handoff/detect.js';
import { watchHandoff } from '../handoff/watch.js';
import { handoffCancelled } from './endings.js';

/** Effects of the tools after which the page is looked at (control tools and the like touch no page). */
const PAGE_EFFECTS = new Set(['reads_page', 'acts_on_page', 'navigates']);

/**
 * @param {Run} run @param {Tool | undefined} tool @param {{ urlBefore?: string }} out @param {number} step
 * @param {import('../../types/core').ToolResult} [result] the step's result: a password the agent may not type hands the step to the person
 * @returns {Promise<'aborted' | (() => RunOutcome) | null>} Stop pressed, the run's end (Cancel), or go on
 */
export async function handoffAfterStep(run, tool, out, step, result) {
  const interact = run.opts.interact;
  if (!interact?.handoff || !tool || tool.terminal || !tool.effects.some((e) => PAGE_EFFECTS.has(e))) return null;
  const signals = await look(run);
  const refused = result && !result.ok && result.code === 'SECRET_NOT_GIVEN';
  const moment = refused ? detectMoment(signals, { asking: true }) ?? askedToType(signals, out.urlBefore ?? '') : detectMoment(signals, {
    urlBefore: out.urlBefore,
    writeStatuses: freshWriteStatuses(run),
    given: given(run),
    dismissed: run.handoffDismissed,
  });
  if (!moment) return null;
  const card = interact.handoff(moment, run.signal);
  const end = await watchHandoff({
    moment, card, signal: run.signal,
    look: () => look(run),
    detect: (s) => detectMoment(s, { asking: true }),
    personTurn: (onAttempt) => run.guard.personTurn(run.ctx.tabId, run.ctx.browser, onAttempt),
  });
  if (end.end === 'stopped') return 'aborted';
  if (end.end === 'cancelled') return () => handoffCancelled(run, end.moment, step);
  // Done on a page that still asks: it is not asked about again on this page.
  if (end.end === 'done') run.handoffDismissed.push(`${end.moment.kind} ${end.url}`, `${end.moment.kind} ${end.moment.url}`);
  tellModel(run, end.moment, end.end === 'done' ? 'the person said they are done' : end.evidence ?? '');
  await run.opts.checkpoint?.();
  return null;
}

/**
 * The agent wanted to type a password nobody gave it, on a page that does not look like a sign-in:
 * still the person's to do. @param {HandoffSignals | null} s @param {string} url @returns {HandoffMoment}
 */
function askedToType(s, url) {
  const at = s?.url ?? url;
  return { kind: 'sign_in', site: hostOf(at), url: at, evidence: ['a password or code only the person may type'] };
}

/** The page's signals (Tabwright's own look; nothing of it reaches the model). @param {Run} run @returns {Promise<HandoffSignals | null>} */
async function look(run) {
  const r = await withTimeout(run.ctx.browser.sendToContent(run.ctx.tabId, { type: 'content.handoff' }), 1500, null).catch(() => null);
  return r?.ok ? /** @type {HandoffSignals} */ (r.data) : null;
}

/** Statuses of the writes answered since the last look (a save answered 401: signed out). @param {Run} run */
function freshWriteStatuses(run) {
  const all = run.guard.writes();
  const fresh = all.slice(run.handoffWritesSeen);
  run.handoffWritesSeen = all.length;
  return fresh.flatMap((w) => (w.status !== undefined ? [w.status] : []));
}

/** What the person gave the run in their messages (a password, a code). @param {Run} run */
function given(run) {
  const said = run.messages.filter((m) => m.role === 'user').map((m) => textOf(m.content)).join('\n');
  return personCredentials(said);
}

/**
 * The last tool message learns what happened while the person had the tab: Tabwright's note, outside
 * the page's fence, with no value typed.
 * @param {Run} run @param {HandoffMoment} m @param {string} evidence
 */
function tellModel(run, m, evidence) {
  const what = { sign_in: 'signed in', session_expired: 'signed in again', second_factor: 'completed the second factor', captcha: 'passed the challenge', age_gate: 'answered the age check', consent: 'answered the consent page' }[m.kind];
  const note = `[Tabwright, not the page] The page needed the person (${m.kind.replace('_', ' ')} on ${m.site}); they ${what} themselves (${evidence}). The page has changed since your last look: look at it again before you act, and do not type passwords or codes yourself.`;
  const last = run.messages.at(-1);
  if (last?.role === 'tool' && typeof last.content === 'string') last.content = `${last.content}\n\n${note}`;
  else run.messages.push({ role: 'user', content: note });
}
