// The pause while the person has the tab: their requests go unheld and are told here with their
// answers (the guard's person turn), the page is looked at again after each answer and at a slow
// pace (Tabwright's own check of its structure, agent/handoff/detect.js; nothing of it reaches the
// model), and the pause ends on evidence (agent/handoff/evidence.js), on the person's Done or
// Cancel, or on Stop. A failed attempt keeps the pause and the card says so.
/** @import { HandoffCard, HandoffMoment, HandoffSignals, PersonAttempt } from '../../types/handoff' */
import { judgeResume } from './evidence.js';

/** How often the page is looked at while nothing else happens (a challenge solved in the page sends nothing Tabwright must see). */
export const HANDOFF_POLL_MS = 1000;

/**
 * @typedef {object} WatchDeps
 * @property {HandoffMoment} moment what the run paused for
 * @property {HandoffCard} card
 * @property {() => Promise<HandoffSignals | null>} look the page's present signals (null: it does not answer yet)
 * @property {(s: HandoffSignals) => HandoffMoment | null} detect what the page asks now
 * @property {(onAttempt: (a: PersonAttempt) => void) => Promise<() => void>} personTurn the guard's: the person's requests go and are told
 * @property {AbortSignal} [signal]
 * @property {{ setTimeout: (fn: () => void, ms: number) => any, clearTimeout: (id: any) => void }} [timers]
 * @property {number} [pollMs]
 */

/**
 * @typedef {{ end: 'resumed' | 'done' | 'cancelled' | 'stopped', moment: HandoffMoment, url: string, evidence?: string }} WatchEnd
 */

/** @param {WatchDeps} d @returns {Promise<WatchEnd>} */
export async function watchHandoff(d) {
  const timers = d.timers ?? { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id) };
  /** @type {PersonAttempt[]} */
  const attempts = [];
  /** @type {(() => void) | null} */
  let wake = null;
  const kick = () => { const w = wake; wake = null; w?.(); };
  /** @type {'done' | 'cancel' | null} */
  let answer = null;
  d.card.answer.then((a) => { answer = a; kick(); }, () => {});
  d.signal?.addEventListener('abort', kick, { once: true });
  const release = await d.personTurn((a) => { if (!attempts.includes(a)) attempts.push(a); if (a.settled) kick(); });
  let moment = d.moment;
  let url = d.moment.url;
  /** @type {PersonAttempt | null} */
  let told = null;
  try {
    while (true) {
      if (d.signal?.aborted) { d.card.update({ moment, status: 'expired' }); return { end: 'stopped', moment, url }; }
      if (answer === 'cancel') { d.card.update({ moment, status: 'cancelled' }); return { end: 'cancelled', moment, url }; }
      if (answer === 'done') { d.card.update({ moment, status: 'done' }); return { end: 'done', moment, url }; }
      await new Promise((resolve) => {
        const id = timers.setTimeout(() => { wake = null; resolve(undefined); }, d.pollMs ?? HANDOFF_POLL_MS);
        wake = () => { timers.clearTimeout(id); resolve(undefined); };
      });
      if (answer || d.signal?.aborted) continue;
      const s = await d.look().catch(() => null);
      if (!s) continue;
      url = s.url;
      const j = judgeResume(moment, d.detect(s), attempts);
      if (j.resume) { d.card.update({ moment, status: 'resumed', evidence: j.evidence }); return { end: 'resumed', moment, url, evidence: j.evidence }; }
      const next = family(j.moment) !== family(moment);
      // A sign-in accepted that leads to a second factor: the new moment starts with no attempts.
      if (next) { moment = j.moment; attempts.length = 0; told = null; }
      const latest = attempts.filter((a) => a.settled).at(-1) ?? null;
      const fresh = j.failed && latest !== told;
      if (fresh) told = latest;
      if (next || fresh) d.card.update({ moment, status: 'waiting', ...(j.failed ? { failed: j.failed } : {}) });
    }
  } finally {
    release();
  }
}

/** A session that expired is asked for again as a sign-in: the same moment. @param {HandoffMoment} m */
function family(m) {
  return `${m.kind === 'session_expired' ? 'sign_in' : m.kind}/${m.factor ?? ''}`;
}
