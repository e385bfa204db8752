// The channel part of the hold (docs/SECURITY.md): writes that leave a page through channels the
// request hold cannot pause (a WebSocket's handshake and frames, a data channel's frames). While a
// run holds a tab, its frames' page-world helpers wait before each such send; content/channel-hold.js
// tells it here, and it is judged through the run's HoldHandlers exactly like a held HTTP request
// (wants, then decide), so the policy sees a HeldRequest of kind 'channel'. The first message a
// socket receives after a frame was let go is that write's answer (handlers.settled).
// A content script speaks only for its own tab and frame: the router passes the sender, and the
// document's URL comes from the browser, never from the message.
/** @import { HeldRequest, HoldHandlers } from '../types/safety' */
import { parseBody } from '../agent/safety/request-body.js';

const CHANNELS = /** @type {const} */ (['websocket', 'websocket_frame', 'datachannel']);
const MAX_TEXT = 64 * 1024;
/** How long a frame let go waits for its reply before it is forgotten. */
const REPLY_MS = 15_000;

/**
 * @typedef {object} ChannelSender what the browser says about a content script's message
 * @property {number} tabId
 * @property {number} frameId
 * @property {string} url the sending document's URL
 * @property {string} [tabUrl] the tab's URL (for a frame whose own URL names no site: about:blank)
 */

/** How long arming waits for the tab's frames to have heard (a frame that never answers does not stall the step). */
const TELL_MS = 1000;

/**
 * @param {(tabId: number, msg: import('../types/messages').ChannelHoldState) => Promise<unknown>} notify tells every
 *   frame of a tab; settles once they have heard it
 */
export function createChannelHold(notify) {
  /** @type {Map<number, HoldHandlers>} */
  const armed = new Map();
  /** Frames let go, waiting for their reply: `${tabId}/${frameId}/${doc}/${id}`. @type {Map<string, { req: HeldRequest, handlers: HoldHandlers, timer: ReturnType<typeof setTimeout> }>} */
  const sent = new Map();
  /** Every state change gets a higher number, so a frame keeps the newest. */
  let seq = 0;

  /** @param {number} tabId */
  function push(tabId) {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const bound = new Promise((resolve) => { timer = setTimeout(resolve, TELL_MS); });
    return Promise.race([notify(tabId, { type: 'channelHold.state', held: armed.has(tabId), seq: ++seq }).catch(() => {}), bound]).finally(() => clearTimeout(timer));
  }

  return {
    /**
     * Holds the tab's channel writes for these handlers, once its frames have heard (so the step
     * that follows cannot send before they hold); resolves to the release.
     * @param {number} tabId @param {HoldHandlers} handlers @returns {Promise<() => void>}
     */
    async arm(tabId, handlers) {
      armed.set(tabId, handlers);
      await push(tabId);
      return () => {
        if (armed.get(tabId) !== handlers) return;
        armed.delete(tabId);
        push(tabId);
      };
    },

    /** Is the tab held? (a frame's first question) @param {number} tabId */
    state(tabId) { return { held: armed.has(tabId), seq }; },

    /**
     * One send a frame told: judged like a held request. Not held (any more): it goes.
     * @param {ChannelSender} from @param {unknown} msg @returns {Promise<{ allow: boolean } | string>} a string says what is wrong with the message
     */
    async send(from, msg) {
      const m = /** @type {any} */ (msg);
      const problem = sendProblem(m);
      if (problem) return problem;
      const handlers = armed.get(from.tabId);
      if (!handlers) return { allow: true };
      const req = heldRequest(m.what, from);
      if (!handlers.wants(req)) return { allow: true };
      const allow = await handlers.decide(req).catch(() => false);
      if (allow && req.channel === 'websocket_frame' && handlers.settled) {
        const key = `${from.tabId}/${from.frameId}/${m.doc}/${m.id}`;
        sent.set(key, { req, handlers, timer: setTimeout(() => sent.delete(key), REPLY_MS) });
      }
      return { allow };
    },

    /**
     * A sender the page-world helper refused while the tab is held (a shared worker): told to the
     * run that holds the tab. Not held (any more): nothing to tell.
     * @param {ChannelSender} from @param {unknown} msg
     */
    refused(from, msg) {
      const what = /** @type {any} */ (msg)?.what;
      if (what?.channel !== 'shared_worker' || typeof what.url !== 'string') return;
      armed.get(from.tabId)?.refused?.({ channel: 'shared_worker', url: what.url.slice(0, 2048) });
    },

    /**
     * The socket's first message after a frame was let go (or why the frame could not leave).
     * @param {ChannelSender} from @param {unknown} msg
     */
    reply(from, msg) {
      const m = /** @type {any} */ (msg);
      const key = `${from.tabId}/${from.frameId}/${m?.doc}/${m?.id}`;
      const waiting = sent.get(key);
      if (!waiting) return;
      sent.delete(key);
      clearTimeout(waiting.timer);
      const r = m.reply ?? {};
      if (typeof r.error === 'string') waiting.handlers.settled?.(waiting.req, { error: `the socket closed before the frame could leave (${r.error.slice(0, 100)})` });
      else waiting.handlers.settled?.(waiting.req, { status: 101, reply: typeof r.text === 'string' ? r.text.slice(0, MAX_TEXT) : `(binary, ${Number(r.bytes) || 0} bytes)` });
    },
  };
}
/** @typedef {ReturnType<typeof createChannelHold>} ChannelHold */

/**
 * What is wrong with a channelHold.send message, or null.
 * @param {any} m @returns {string | null}
 */
export function sendProblem(m) {
  if (!m || typeof m !== 'object') return 'not an object';
  if (typeof m.doc !== 'string' || !/^[0-9a-f]{16}$/.test(m.doc)) return 'doc must be the document\'s id';
  if (!Number.isInteger(m.id) || m.id < 1) return 'id must be a whole number';
  const w = m.what;
  if (!w || typeof w !== 'object') return 'what is missing';
  if (!CHANNELS.includes(w.channel)) return `channel must be one of ${CHANNELS.join(', ')}`;
  if (w.method !== (w.channel === 'websocket' ? 'GET' : 'SEND')) return 'method does not fit the channel';
  if (typeof w.url !== 'string' || w.url.length > 8192) return 'url must be text';
  if (w.channel !== 'datachannel' && !/^wss?:\/\//i.test(w.url)) return 'a WebSocket url must be ws: or wss:';
  if (w.text !== undefined && typeof w.text !== 'string') return 'text must be text';
  if (w.bytes !== undefined && !(Number.isInteger(w.bytes) && w.bytes >= 0)) return 'bytes must be a whole number';
  return null;
}

/**
 * The HeldRequest the policy judges, from a checked message and what the browser says of its sender.
 * @param {{ channel: 'websocket' | 'websocket_frame' | 'datachannel', method: string, url: string, text?: string, bytes?: number }} w
 * @param {ChannelSender} from @returns {HeldRequest}
 */
export function heldRequest(w, from) {
  const page = /^https?:/i.test(from.url) ? from.url : (from.tabUrl ?? from.url);
  /** @type {HeldRequest} */
  const req = {
    kind: 'channel', channel: w.channel, method: w.method, url: w.channel === 'datachannel' ? peerUrl(page, w.url) : w.url,
    type: 'websocket', topLevel: false, source: from.frameId === 0 ? 'page' : 'frame', initiator: from.url.slice(0, 2048),
  };
  if (w.channel === 'websocket') return req;
  if (typeof w.text === 'string') Object.assign(req, parseBody({ text: w.text.slice(0, MAX_TEXT) }));
  else req.opaque = { bytes: w.bytes ?? 0, why: 'binary' };
  return req;
}

/**
 * A data channel's peer has no address the page names: the frame is said to go where the page that
 * opened it is, `webrtc://host/label`, so it is judged as a write of that site (never as a third
 * party's telemetry).
 * @param {string} pageUrl @param {string} label
 */
function peerUrl(pageUrl, label) {
  let host = 'unknown';
  try { host = new URL(pageUrl).host || host; } catch { /* keep unknown */ }
  return `webrtc://${host}/${encodeURIComponent(label.slice(0, 100))}`;
}
