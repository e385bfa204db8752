// A held tab's request paused at Fetch's request stage: named (who sent it, from which document),
// asked of the hold's handlers, then let go or failed in the session it paused in. Reads go on at
// once; the policy's writes wait for its decision.
/** @import { HeldRequest, HoldHandlers } from '../types/safety' */
/** @import { createWriteAnswers } from './write-answers.js' */
/** @import { createAnnouncements } from './announcements.js' */
/** @import { createDecisions } from './decisions.js' */
/** @import { createReads } from './response-stage.js' */
import { heldRequest } from './held-request.js';

/**
 * @typedef {{ sendTo(tabId: number, sessionId: string | undefined, method: string, params?: Record<string, unknown>): Promise<any>,
 *   mainFrameId(tabId: number): string | null }} CdpPaused
 * @typedef {{ cdp: CdpPaused, targets: { sender(tabId: number, sessionId: string | undefined): { source: NonNullable<HeldRequest['source']>, url?: string } },
 *   answers: Pick<ReturnType<typeof createWriteAnswers>, 'track'>, announcements: ReturnType<typeof createAnnouncements>,
 *   reads: ReturnType<typeof createReads>, decisions: ReturnType<typeof createDecisions> }} RequestStageDeps
 * @typedef {{ tabId: number, sessionId: string | undefined, id: string, answerSession: string | undefined, read: boolean }} Paused
 */

/** @param {RequestStageDeps} deps */
export function createRequestStage(deps) {
  const { cdp, targets, announcements, reads } = deps;
  /** @param {number} tabId @param {string | undefined} sessionId @param {any} params @param {HoldHandlers} handlers */
  return async function paused(tabId, sessionId, params, handlers) {
    const id = /** @type {string} */ (params.requestId);
    const method = String(params.request?.method ?? 'GET').toUpperCase();
    // Only writes need their sender named before the card; reads go on at once.
    const announced = method === 'GET' || method === 'HEAD' ? undefined : await announcements.announcedIn(tabId, params.networkId);
    const answerSession = announced ? announced.sessionId : sessionId;
    const sender = targets.sender(tabId, answerSession);
    const req = heldRequest(params, cdp.mainFrameId(tabId), {
      inPage: !sessionId, source: sender.source,
      initiator: sender.url ?? announced?.documentUrl,
    });
    // What a navigation brings may be a download: its response pauses so its first bytes can be read.
    const at = { tabId, sessionId, id, answerSession, read: readsFirstBytes(method, req) };
    if (!wanted(handlers, req)) {
      if (at.read) reads.add(tabId, sessionId, id);
      await cdp.sendTo(tabId, sessionId, 'Fetch.continueRequest', { requestId: id, ...(at.read ? { interceptResponse: true } : {}) });
      return;
    }
    await decideAndTell(deps, at, params, req, handlers);
  };
}

/**
 * The policy's decision, told to Chrome; the release waits for it (cdp/decisions.js).
 * @param {RequestStageDeps} deps @param {Paused} at @param {any} params @param {HeldRequest} req @param {HoldHandlers} handlers
 */
async function decideAndTell({ cdp, answers, reads, decisions }, at, params, req, handlers) {
  const { tabId, sessionId, id, answerSession, read } = at;
  // A declined navigation is aborted (the tab stays on its page); BlockedByClient would leave it on
  // an error page. Other requests fail as blocked, which the page sees as a network error.
  const refusal = req.topLevel ? 'Aborted' : 'BlockedByClient';
  const decision = handlers.decide(req).catch(() => false);
  const told = decisions.begin(tabId);
  try {
    const allowed = await decision;
    const followed = allowed && req.method !== 'GET' && req.method !== 'HEAD' && Boolean(params.networkId);
    if (followed) answers.track(tabId, answerSession, params.networkId, req, handlers);
    if (allowed && read) reads.add(tabId, sessionId, id);
    // A write let go pauses again with its answer: its body is read there, since a fetch() whose page
    // never reads the body never finishes loading, and Network.getResponseBody has nothing to give.
    await cdp.sendTo(tabId, sessionId,
      allowed ? 'Fetch.continueRequest' : 'Fetch.failRequest',
      allowed ? { requestId: id, ...(followed || (read && allowed) ? { interceptResponse: true } : {}) } : { requestId: id, errorReason: refusal });
  } finally {
    told();
  }
}

/** A GET of a document (or of an unknown type) may be a download. @param {string} method @param {HeldRequest} req */
export function readsFirstBytes(method, req) {
  return method === 'GET' && (req.type === 'document' || req.type === 'other');
}

/** @param {HoldHandlers} handlers @param {HeldRequest} req */
function wanted(handlers, req) { try { return handlers.wants(req); } catch { return true; } }
