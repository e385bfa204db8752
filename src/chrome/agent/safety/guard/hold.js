// The hold on a tab, armed once per tab from the run's first acting step (or the person's turn):
// what the platform asks the gate about each request the tab sends, and what it tells it (answers,
// writes a service worker answered, frames that went around the hook, shared workers refused).
/** @import { BrowserOps } from '../../../types/core' */
/** @import { HeldRequest, HoldHandlers, WriteOutcome } from '../../../types/safety' */
/** @import { GuardRun } from './run-state.js' */
import { readAnswer } from '../answer-reading.js';
import { SAFE_METHODS } from '../request-facts.js';
import { caused } from './run-state.js';
import { decide } from './decide.js';
import { isWrite, pathOnly, siteOf } from './requests.js';

/** The tab's hold, armed at the first call. @param {GuardRun} g @param {number} tabId @param {BrowserOps} browser */
export function armed(g, tabId, browser) {
  let h = g.holds.get(tabId);
  if (!h) {
    h = browser.holdEffects(tabId, holdHandlers(g)).catch(() => null);
    g.holds.set(tabId, h);
  }
  return h;
}

/** @param {GuardRun} g @returns {HoldHandlers} */
function holdHandlers(g) {
  return {
    wants: (req) => (g.person ? isWrite(req) : caused(g) && g.policy.wantsRequest(req)),
    decide: (req) => {
      const p = decide(g, req).catch(() => false);
      g.pending.add(p);
      p.finally(() => g.pending.delete(p));
      return p;
    },
    settled: (req, outcome) => settled(g, req, outcome),
    // A write the page's own service worker answered never reached the network (nothing to
    // hold): it is on the ledger as sent and answered by the page, so it is never taken for proof.
    observed: (req, outcome) => {
      if (!caused(g)) return;
      g.ledger.add(req, true, g.stepNo);
      g.ledger.settle(req, { ...outcome, answeredBy: outcome.answeredBy ?? 'service_worker' });
    },
    unseen: (req) => unseen(g, req),
    refused: (what) => refused(g, what),
  };
}

/** How a request the gate let go ended. @param {GuardRun} g @param {HeldRequest} req @param {WriteOutcome} outcome */
function settled(g, req, outcome) {
  if (g.person?.answered(req, outcome)) return;
  g.ledger.settle(req, outcome);
  g.answered.get(req)?.();
  // Refused (by status or by its body): sending it again is a retry, not a second submit.
  if (readAnswer(req, outcome).verdict === 'failed') g.policy.noteFailed(req);
}

/**
 * A worker's frame that went around the hook (a send kept from before it): it already left. The
 * model hears it with its next result, naming only the site and path (the page chose the URL).
 * @param {GuardRun} g @param {HeldRequest} req
 */
function unseen(g, req) {
  if (!caused(g)) return;
  g.late.push(`While the agent acted, a worker of the page sent a WebSocket frame to ${siteOf(req.url)}${pathOnly(req.url)} without waiting for Tabwright: it used a send it kept from before the task began, so it could not be held for the user's answer. It has left; tell the user.`);
  g.ledger.add(req, true, g.stepNo, { afterDone: g.afterDone }).unheld = true;
  g.ledger.settle(req, {});
}

/**
 * A shared worker refused (Chromium cannot hold it), or a request of one that ran before the hold:
 * the model hears it with its next result, naming only the script's site.
 * @param {GuardRun} g @param {{ url: string, method?: string, channel?: string }} what
 */
function refused(g, what) {
  if (!caused(g)) return;
  if (what.channel === 'shared_worker_request') { refusedRequest(g, what); return; }
  g.late.push(`During your last step the page tried to start a shared worker (${siteOf(what.url)}); Tabwright refused it, since what a shared worker sends could not be held for the user's answer. The page may show an error.`);
}

/**
 * A request of a shared worker that ran before the hold, refused (Chromium cannot hold it): the
 * model hears it, and a write is on the run's ledger as not sent, so the verdict and the receipt
 * show it. The URL is the page's choice: only its site and path are named.
 * @param {GuardRun} g @param {{ url: string, method?: string }} what
 */
function refusedRequest(g, what) {
  const method = (what.method ?? 'GET').toUpperCase();
  g.late.push(`While the agent acted, the page's shared worker (running before the task began) tried to send ${method} ${siteOf(what.url)}${pathOnly(what.url)}; Tabwright refused it, since a shared worker that was already running cannot be held for the user's answer. The page may show an error.`);
  if (SAFE_METHODS.has(method)) return;
  const w = g.ledger.add({ kind: 'request', method, url: what.url, type: 'fetch', topLevel: false, source: 'worker' }, false, g.stepNo, { afterDone: g.afterDone });
  w.error = 'refused: a shared worker already running cannot be held';
}
