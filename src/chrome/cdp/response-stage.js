// A held tab's request paused again at Fetch's response stage: a write let go (its body read for its
// tracking, since a fetch() whose page never reads the body never finishes loading) or a navigation
// that may be a download (its first bytes read for the download's card). Either goes on to the page.
/** @import { createWriteAnswers } from './write-answers.js' */
/** @import { createFirstBytes } from '../agent/safety/first-bytes.js' */
import { savedResponse } from '../agent/safety/first-bytes.js';
import { base64ToBytes } from '../agent/safety/body-kind.js';

/**
 * @typedef {{ sendTo(tabId: number, sessionId: string | undefined, method: string, params?: Record<string, unknown>): Promise<any> }} CdpSend
 * @typedef {{ cdp: CdpSend, answers: Pick<ReturnType<typeof createWriteAnswers>, 'bodyRead'>, reads: ReturnType<typeof createReads>,
 *   firstBytes: Pick<ReturnType<typeof createFirstBytes>, 'note'> }} ResponseStageDeps
 */

/** GETs of a document let go with their response paused, to read a download's first bytes. */
export function createReads() {
  const reading = new Set();
  /** @param {number} tabId @param {string | undefined} sessionId @param {string} requestId */
  const key = (tabId, sessionId, requestId) => `${tabId}|${sessionId}|${requestId}`;
  return {
    /** @param {number} tabId @param {string | undefined} sessionId @param {string} requestId */
    add(tabId, sessionId, requestId) { reading.add(key(tabId, sessionId, requestId)); },
    /** Whether the response was paused to be read (asked once). @param {number} tabId @param {string | undefined} sessionId @param {string} requestId */
    take(tabId, sessionId, requestId) { return reading.delete(key(tabId, sessionId, requestId)); },
  };
}

/** @param {ResponseStageDeps} deps */
export function createResponseStage({ cdp, answers, reads, firstBytes }) {
  /**
   * A write's answer: read its body (not a redirect's, which has none to give), hand it to the
   * write's tracking, and let the answer go on to the page.
   * @param {number} tabId @param {string | undefined} sessionId @param {any} p
   */
  return async function answered(tabId, sessionId, p) {
    const status = Number(p.responseStatusCode);
    if (reads.take(tabId, sessionId, p.requestId)) {
      if (!p.responseErrorReason && savedResponse(p.responseHeaders ?? [], status)) await readFirstBytes(cdp, firstBytes, tabId, sessionId, p);
      await cdp.sendTo(tabId, sessionId, 'Fetch.continueRequest', { requestId: p.requestId }).catch(() => {});
      return;
    }
    if (!p.responseErrorReason && !isRedirect(status, p.responseHeaders) && p.networkId) {
      const r = await cdp.sendTo(tabId, sessionId, 'Fetch.getResponseBody', { requestId: p.requestId }).catch(() => null);
      if (r && typeof r.body === 'string') answers.bodyRead(tabId, String(p.networkId), r);
    }
    await cdp.sendTo(tabId, sessionId, 'Fetch.continueRequest', { requestId: p.requestId }).catch(() => {});
  };
}

/** A 3xx with a Location: it has no body to give. @param {number} status @param {{ name: string }[] | undefined} headers */
export function isRedirect(status, headers) {
  return status >= 300 && status < 400 && (headers ?? []).some((h) => /^location$/i.test(h.name));
}

/**
 * A response the browser will save: its first bytes, for the download's card (a program under a
 * document's name). Chrome gives a paused response's body whole; savedResponse() bounds its size.
 * @param {CdpSend} cdp @param {ResponseStageDeps['firstBytes']} firstBytes @param {number} tabId @param {string | undefined} sessionId @param {any} p
 */
async function readFirstBytes(cdp, firstBytes, tabId, sessionId, p) {
  const r = await cdp.sendTo(tabId, sessionId, 'Fetch.getResponseBody', { requestId: p.requestId }).catch(() => null);
  if (!r || typeof r.body !== 'string') return;
  const bytes = r.base64Encoded ? base64ToBytes([r.body.slice(0, 64)]) : new TextEncoder().encode(r.body.slice(0, 16));
  firstBytes.note(String(p.request?.url ?? ''), bytes);
}
