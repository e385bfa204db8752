// Chrome's request hold (docs/SECURITY.md): while the safety guard arms it on a tab, every request
// the tab's page and the targets it owns (out-of-process frames, dedicated workers, its service
// worker: cdp/targets.js) start is paused by CDP Fetch at the request stage, in the session it came
// from; the ones the policy wants wait for its decision, the rest continue at once. A paused request
// is never left behind: release() disables interception everywhere, a detached debugger lets
// everything go, and a failing decision fails it. Writes let go are followed to their answer
// (cdp/write-answers.js). A worker's WebSocket frames are held by cdp/worker-channels.js; a page's by
// the page-world hook. A shared worker is refused (a new one) or has its requests refused (one
// already running): cdp/targets.js and cdp/shared-workers.js say why.
// This wires the parts: who sent a request (announcements.js), the request stage (request-stage.js),
// the response stage (response-stage.js), decisions on their way (decisions.js) and the release
// (hold-release.js).
/** @import { EffectHold, HoldHandlers } from '../types/safety' */
/** @import { createCdpSessions } from './session.js' */
import { createTargets, FETCH_PATTERNS, NETWORK_BUFFERS } from './targets.js';
import { createWriteAnswers } from './write-answers.js';
import { createWorkerChannels } from './worker-channels.js';
import { createAnnouncements } from './announcements.js';
import { createDecisions } from './decisions.js';
import { createRequestStage } from './request-stage.js';
import { createReads, createResponseStage } from './response-stage.js';
import { createHoldRelease } from './hold-release.js';
import { createFirstBytes } from '../agent/safety/first-bytes.js';

/**
 * @param {ReturnType<typeof createCdpSessions>} cdp
 */
export function createNetHold(cdp) {
  /** Armed tabs and their handlers. @type {Map<number, HoldHandlers>} */
  const armed = new Map();
  // A running shared worker's request, refused while held (cdp/shared-workers.js): told to the run.
  const targets = createTargets(cdp, createWorkerChannels(cdp, (tabId) => armed.get(tabId)),
    (tabId, what) => armed.get(tabId)?.refused?.({ channel: 'shared_worker_request', url: what.url, method: what.method, worker: what.worker }));
  const answers = createWriteAnswers(cdp, (tabId) => armed.get(tabId));
  const announcements = createAnnouncements();
  const reads = createReads();
  const firstBytes = createFirstBytes();
  const decisions = createDecisions();
  const paused = createRequestStage({ cdp, targets, answers, announcements, reads, decisions });
  const answered = createResponseStage({ cdp, answers, reads, firstBytes });
  const disarm = createHoldRelease({ cdp, armed, decisions, targets, answers });

  cdp.onEvent((tabId, method, params, sessionId) => {
    if (method === 'Network.requestWillBeSent') { announcements.announce(tabId, params, sessionId); return; }
    if (method !== 'Fetch.requestPaused') return;
    const id = /** @type {string} */ (params.requestId);
    if (params.responseStatusCode !== undefined || params.responseErrorReason) { answered(tabId, sessionId, params); return; }
    const handlers = armed.get(tabId);
    // Interception outlived its hold (released a moment ago): let it go.
    if (!handlers) { cdp.sendTo(tabId, sessionId, 'Fetch.continueRequest', { requestId: id }).catch(() => {}); return; }
    paused(tabId, sessionId, params, handlers).catch(() => cdp.sendTo(tabId, sessionId, 'Fetch.continueRequest', { requestId: id }).catch(() => {}));
  });
  cdp.onDetach((tabId) => { armed.delete(tabId); answers.forget(tabId); });

  return {
    /** The first bytes of a download a held tab fetched (base64), when they were read. @param {string} url */
    async downloadBytes(url) { return firstBytes.get(url); },
    /**
     * @param {number} tabId @param {HoldHandlers} handlers
     * @returns {Promise<EffectHold | null>} null when the debugger cannot attach (DevTools open)
     */
    async hold(tabId, handlers) {
      if (!(await arm(cdp, targets, armed, tabId, handlers))) return null;
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          if (armed.get(tabId) === handlers) armed.delete(tabId);
          // New requests go on at once from now (no handlers); the cleanup waits in the background.
          disarm(tabId);
        },
      };
    },
  };
}

/**
 * Arms the hold on a tab: its session kept, Network (how a write let go ended; it stays on while
 * attached) and Fetch on, its targets held. False, with everything undone, when that fails.
 * @param {ReturnType<typeof createCdpSessions>} cdp @param {ReturnType<typeof createTargets>} targets
 * @param {Map<number, HoldHandlers>} armed @param {number} tabId @param {HoldHandlers} handlers
 */
async function arm(cdp, targets, armed, tabId, handlers) {
  try {
    await cdp.pin(tabId);
    armed.set(tabId, handlers);
    await cdp.send(tabId, 'Network.enable', NETWORK_BUFFERS);
    await cdp.send(tabId, 'Fetch.enable', { patterns: FETCH_PATTERNS });
    await targets.hold(tabId);
    return true;
  } catch {
    armed.delete(tabId);
    await cdp.send(tabId, 'Fetch.disable').catch(() => {});
    cdp.unpin(tabId);
    return false;
  }
}
