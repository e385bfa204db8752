// A worker's WebSocket frames the hold let go, waiting for the socket's next reply: told to the run
// as the frame's outcome (service/channel-hold.js does the same for a page's frames), or forgotten
// after a while.
/** @import { HeldRequest, HoldHandlers } from '../types/safety' */

/** How long a frame let go waits for its reply before it is forgotten. */
export const REPLY_MS = 15_000;

/** @param {number} [replyMs] */
export function createFrameReplies(replyMs = REPLY_MS) {
  /** By session and the hook's id. @type {Map<string, { req: HeldRequest, handlers: HoldHandlers, timer: ReturnType<typeof setTimeout> }>} */
  const sent = new Map();
  return {
    /** A frame let go: its reply is told to the handlers. @param {string} sessionId @param {number} id @param {HeldRequest} req @param {HoldHandlers} handlers */
    expect(sessionId, id, req, handlers) {
      const key = `${sessionId}/${id}`;
      sent.set(key, { req, handlers, timer: setTimeout(() => sent.delete(key), replyMs) });
    },
    /** The hook's word on a frame's reply: the text, a binary's size, or the socket's error. @param {string} sessionId @param {any} m */
    replied(sessionId, m) {
      const key = `${sessionId}/${m.id}`;
      const waiting = sent.get(key);
      if (!waiting) return;
      sent.delete(key);
      clearTimeout(waiting.timer);
      const r = m.reply ?? {};
      if (typeof r.error === 'string') waiting.handlers.settled?.(waiting.req, { error: `the socket closed before the frame could leave (${r.error.slice(0, 100)})` });
      else waiting.handlers.settled?.(waiting.req, { status: 101, reply: typeof r.text === 'string' ? r.text.slice(0, 64 * 1024) : `(binary, ${Number(r.bytes) || 0} bytes)` });
    },
  };
}
