// Frames that left a held worker without its hook (Chrome; docs/SECURITY.md). A worker already
// running when the hold began may have kept WebSocket.prototype.send before the hook replaced it:
// a frame sent through that copy is never held. CDP still reports every frame a worker sent
// (Network.webSocketFrameSent); this matches each report against the frames the hook let go (by
// text, a binary frame by size), so one the hook never saw can be told to the run after it left.

/** @typedef {{ channel: 'websocket_frame', method: 'SEND', url: string, text?: string, bytes?: number }} SentFrame */

export function createKeptSends() {
  /** Frames the hook let go, by session, until CDP reports them sent. @type {Map<string, Map<string, number>>} */
  const passed = new Map();
  /** Sessions held with their hook in: only there is an unmatched frame news. @type {Set<string>} */
  const watched = new Set();
  /** Each socket's URL, by session and CDP request id (Network.webSocketCreated). @type {Map<string, string>} */
  const socketUrls = new Map();

  return {
    /** @param {string} sessionId @param {string} requestId @param {string} url */
    created(sessionId, requestId, url) { socketUrls.set(`${sessionId}/${requestId}`, url); },
    /** The hook let a frame go: it will be reported sent. @param {string} sessionId @param {{ text?: unknown, bytes?: unknown }} what */
    letGo(sessionId, what) {
      const key = typeof what.text === 'string' ? `t:${what.text}` : `b:${Number(what.bytes) || 0}`;
      const m = passed.get(sessionId) ?? new Map();
      passed.set(sessionId, m);
      m.set(key, (m.get(key) ?? 0) + 1);
    },
    /** @param {string} sessionId @param {boolean} on */
    watch(sessionId, on) { if (on) watched.add(sessionId); else watched.delete(sessionId); },
    /** @param {string} sessionId */
    forget(sessionId) {
      passed.delete(sessionId);
      watched.delete(sessionId);
      for (const k of socketUrls.keys()) if (k.startsWith(`${sessionId}/`)) socketUrls.delete(k);
    },
    /**
     * A frame CDP reports sent: the frame, when the hook never let it go while held; else null.
     * Control frames (ping, close) are not writes.
     * @param {string} sessionId @param {any} p Network.webSocketFrameSent's params @returns {SentFrame | null}
     */
    sent(sessionId, p) {
      const opcode = Number(p.response?.opcode);
      if (opcode !== 1 && opcode !== 2) return null;
      const data = String(p.response?.payloadData ?? '');
      const key = opcode === 1 ? `t:${data}` : `b:${base64Length(data)}`;
      const m = passed.get(sessionId);
      const n = m?.get(key) ?? 0;
      if (n > 0) { if (n === 1) m?.delete(key); else m?.set(key, n - 1); return null; }
      if (!watched.has(sessionId)) return null;
      const url = socketUrls.get(`${sessionId}/${p.requestId}`) ?? '';
      return { channel: 'websocket_frame', method: 'SEND', url, ...(opcode === 1 ? { text: data } : { bytes: base64Length(data) }) };
    },
  };
}

/** The length of base64 data in bytes. @param {string} b64 */
function base64Length(b64) {
  return Math.floor((b64.replace(/[^A-Za-z0-9+/]/g, '').length * 3) / 4);
}
