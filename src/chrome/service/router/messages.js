// runtime.onMessage: the requests of Tabwright's own pages go to the handler table; a content
// script may only stop its own tab's run or recording, and speak for its own frame's channel hold.
/** @import { Session } from '../session.js' */
import { dispatch, REQUEST_TYPES } from '../handlers/index.js';
import { answerChannelHold } from '../handlers/channel-hold.js';
import { isExtensionPage } from '../sender.js';
import { fail } from '../../agent/error-codes.js';

/** The first parts of the request types the handler table answers ("chat", "settings"…). */
const AREAS = new Set(REQUEST_TYPES.map((t) => t.split('.')[0]));

/** @typedef {(r: unknown) => void} Respond */

/**
 * @typedef {object} MessageDeps
 * @property {Map<number, Session>} sessions
 * @property {import('../handlers/index.js').HandlerDeps} deps the handler table's dependencies
 */

/** Whether a sender is one of Tabwright's own pages. @param {{ id?: string, url?: string }} sender */
export const fromExtensionPage = (sender) => isExtensionPage(sender, browser.runtime.id, browser.runtime.getURL(''));

/** A content script of this extension, in a tab. @param {any} sender */
const fromOwnTab = (sender) => sender?.id === browser.runtime.id && typeof sender.tab?.id === 'number';

/**
 * Answers one runtime message; true when the answer comes later (the listener's contract).
 * @param {MessageDeps} ctx @param {any} msg @param {any} sender @param {Respond} sendResponse @returns {boolean}
 */
export function answerMessage({ sessions, deps }, msg, sender, sendResponse) {
  const { runs, mcp, ops } = deps;
  // The Stop button of the on-page indicator: a content script may stop its own tab's run, nothing else.
  if (msg?.type === 'indicator.stop' && fromOwnTab(sender)) {
    const s = sessions.get(sender.tab.id);
    const client = mcp.stopTab(sender.tab.id);
    sendResponse({ ok: true, data: { stopped: (s ? runs.stopRun(s) : false) || client } });
    return false;
  }
  // The Stop button of the on-page recording badge: a content script may stop a recording of its own tab only.
  if (msg?.type === 'recording.stopFromPage' && fromOwnTab(sender) && ops.recorder) return stopRecordingOf(ops.recorder, sender.tab.id, sendResponse);
  // A frame's channel hold (content/channel-hold.js): a content script speaks for its own tab and frame only.
  if (typeof msg?.type === 'string' && msg.type.startsWith('channelHold.') && fromOwnTab(sender)) {
    return answerChannelHold(ops.channels, msg, sender, sendResponse);
  }
  // Requests of the areas the handler table answers (chat.*, settings.*…); other messages are not ours.
  if (!msg || typeof msg.type !== 'string' || !AREAS.has(msg.type.split('.')[0])) return false;
  if (!fromExtensionPage(sender)) {
    sendResponse(fail('FORBIDDEN', 'only Tabwright\'s own pages may send this request'));
    return false;
  }
  dispatch(msg, deps).then(sendResponse, (err) => sendResponse(fail('INTERNAL_ERROR', err instanceof Error ? err.message : String(err))));
  return true;
}

/**
 * Stops the recording when it is of this tab. @returns {true} the answer comes later
 * @param {NonNullable<import('../../types/core').BrowserOps['recorder']>} rec @param {number} tabId @param {Respond} sendResponse
 */
function stopRecordingOf(rec, tabId, sendResponse) {
  rec.status().then((s) => (s.recording && s.tabId === tabId ? rec.stop().then(() => true) : false))
    .then((stopped) => sendResponse({ ok: true, data: { stopped } }), (err) => sendResponse(fail('RECORDING_FAILED', String(err?.message ?? err))));
  return true;
}
