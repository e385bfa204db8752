// When the run may go on after the person had the tab: on evidence, never on "the URL changed".
// Browser-free and pure.
//
//   judgeResume(moment, now, attempts) → { resume: true, evidence } | { resume: false, moment, failed? }
//
// A sign-in, an expired session and a code need both: a request the person sent that the server
// accepted (its status and body; agent/safety/answer-reading.js judged it) and a page that no longer
// asks. A push approval is sent from another device, so there the page must no longer ask and have
// moved on. A challenge or a gate is passed when it is gone. A failed attempt keeps the pause and says so.
/** @import { HandoffMoment, PersonAttempt } from '../../types/handoff' */

/**
 * @param {HandoffMoment} moment what the run paused for
 * @param {HandoffMoment | null} now what the page asks now (detectMoment on its present state)
 * @param {PersonAttempt[]} attempts what the person's page sent since the pause, in order
 * @returns {{ resume: true, evidence: string } | { resume: false, moment: HandoffMoment, failed?: string }}
 */
export function judgeResume(moment, now, attempts) {
  const answered = attempts.filter((a) => a.settled);
  const lastFailed = [...answered].reverse().find((a) => a.failed);
  const lastOk = [...answered].reverse().find((a) => !a.failed);
  // The newest answer decides: a refusal after an accepted request is still a refusal.
  const latest = answered.at(-1);
  if (now) {
    const failed = latest?.failed ? failedLine(latest) : undefined;
    return { resume: false, moment: now, ...(failed ? { failed } : {}) };
  }
  switch (moment.kind) {
    case 'captcha': case 'age_gate': case 'consent':
      return { resume: true, evidence: lastOk ? `${passedLine(moment)}; ${attemptLine(lastOk)}` : passedLine(moment) };
    case 'second_factor':
      if (moment.factor === 'push' && !lastOk && !lastFailed) return { resume: true, evidence: 'the page no longer waits for the approval' };
    // falls through: a typed code is sent like a password
    default:
      if (latest && !latest.failed && lastOk) return { resume: true, evidence: `${attemptLine(lastOk)}, and the page no longer asks` };
      if (latest?.failed) return { resume: false, moment, failed: failedLine(latest) };
      return { resume: false, moment };
  }
}

/** @param {HandoffMoment} m */
function passedLine(m) {
  return m.kind === 'captcha' ? 'the challenge is gone' : 'the page no longer asks';
}

/** "POST 127.0.0.1:4000/login → 303 → /app" @param {PersonAttempt} a */
export function attemptLine(a) {
  const to = a.finalUrl && a.finalUrl !== a.url ? ` → ${pathOf(a.finalUrl)}` : '';
  return `${a.method} ${shortUrl(a.url)} → ${a.status ?? a.error ?? 'no answer'}${to}`;
}

/** @param {PersonAttempt} a */
function failedLine(a) {
  return a.status !== undefined ? `the site answered ${a.status} to ${a.method} ${shortUrl(a.url)}` : `${a.method} ${shortUrl(a.url)} failed (${a.error ?? 'no answer'})`;
}

/** host and path, no query (a query may carry what the person typed). @param {string} url */
function shortUrl(url) {
  try { const u = new URL(url); return `${u.host}${u.pathname}`; } catch { return ''; }
}

/** @param {string} url */
function pathOf(url) {
  try { return new URL(url).pathname; } catch { return ''; }
}
