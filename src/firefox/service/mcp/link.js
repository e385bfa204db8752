// One WebSocket from the background to an MCP bridge on 127.0.0.1 (src/bridge/): the extension
// dials out, the bridge never reaches in. It signs in a paired bridge, waits with an unpaired one
// until the user types its code (Settings), refuses a bridge whose signature is wrong, then hands
// each call to the caller's handler and sends the result back. While open it pings every 20 s:
// the traffic also keeps Chrome's service worker alive while a client is connected. Closed, it
// dials again with backoff. Frames and handshake: mcp/frames.js, mcp/pairing.js, docs/MCP.md.
/** @import { Frame } from '../../mcp/frames.js' */
/** @import { Grant } from '../../mcp/grants.js' */
/** @import { ClientsStore } from './clients-store.js' */
import { parseFrame, encodeFrame, PROTOCOL_VERSION } from '../../mcp/frames.js';
import { newNonce, newSecret, pairProof, authProof, wrapSecret, verify, normalizeCode } from '../../mcp/pairing.js';

const PING_MS = 20_000;
const STEP_MS = 5_000;
const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 15_000];
/** Malformed frames tolerated on one connection before it is closed. */
const MAX_BAD_FRAMES = 20;

/**
 * @typedef {'idle' | 'connecting' | 'hello' | 'pending' | 'signing_in' | 'pairing' | 'ready' | 'refused'} LinkState
 * @typedef {object} LinkInfo
 * @property {number} port
 * @property {LinkState} state
 * @property {string} [bridgeId]
 * @property {string} [name] the MCP client's name
 * @property {string} [problem] why the last connection was refused or dropped
 * @typedef {(link: Link, frame: Frame, signal: AbortSignal, progress: (message: string, progress?: number, total?: number) => void) => Promise<{ ok: boolean } & Record<string, unknown>>} CallHandler
 */

/**
 * @param {object} deps
 * @param {number} deps.port
 * @param {ClientsStore} deps.clients
 * @param {CallHandler} deps.onCall
 * @param {(info: LinkInfo) => void} [deps.onChange]
 * @param {typeof WebSocket} [deps.WebSocketImpl]
 */
export function createLink({ port, clients, onCall, onChange = () => {}, WebSocketImpl = globalThis.WebSocket }) {
  /** @type {WebSocket | null} */
  let ws = null;
  /** @type {LinkInfo} */
  const info = { port, state: 'idle' };
  let attempt = 0;
  let stopped = false;
  let badFrames = 0;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let retry = null;
  /** @type {ReturnType<typeof setInterval> | null} */
  let pinger = null;
  /** The handshake step waiting for a frame. @type {{ types: string[], resolve: (f: Frame | null) => void } | null} */
  let waiter = null;
  /** Calls in progress, to abort on cancel or close. @type {Map<string | number, AbortController>} */
  const calls = new Map();

  /** @param {Partial<LinkInfo>} patch */
  const set = (patch) => { Object.assign(info, patch); onChange({ ...info }); };
  /** @param {Frame} f */
  const send = (f) => { try { ws?.send(encodeFrame(f)); } catch { /* closing */ } };

  function connect() {
    if (stopped || ws) return;
    if (retry) { clearTimeout(retry); retry = null; }
    set({ state: 'connecting' });
    badFrames = 0;
    let sock;
    try { sock = new WebSocketImpl(`ws://127.0.0.1:${port}`); } catch { closed(); return; }
    ws = sock;
    sock.onopen = () => {
      set({ state: 'hello' });
      pinger = setInterval(() => send({ type: 'ping', t: Date.now() }), PING_MS);
      expect(['hello']).then((f) => (f ? onHello(f) : drop('MCP_NO_HELLO', 'The program on this port did not introduce itself as a Tabwright bridge.')));
    };
    sock.onmessage = (e) => onFrame(e.data);
    sock.onclose = () => { if (ws === sock) closed(); };
    sock.onerror = () => { /* onclose follows */ };
  }

  function closed() {
    ws = null;
    if (pinger) clearInterval(pinger);
    pinger = null;
    waiter?.resolve(null);
    waiter = null;
    for (const c of calls.values()) c.abort();
    calls.clear();
    if (stopped) { set({ state: 'idle' }); return; }
    const delay = BACKOFF_MS[Math.min(attempt++, BACKOFF_MS.length - 1)];
    set({ state: info.state === 'refused' ? 'refused' : 'idle' });
    retry = setTimeout(() => { retry = null; connect(); }, delay);
  }

  /** Close this connection with a reason both ends can show. @param {string} code @param {string} message */
  function drop(code, message) {
    send({ type: 'refused', code, message });
    set({ state: 'refused', problem: message });
    try { ws?.close(4001, code); } catch { /* gone */ }
  }

  /** @param {string[]} types @returns {Promise<Frame | null>} */
  function expect(types) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => { if (waiter?.resolve === done) waiter = null; resolve(null); }, STEP_MS);
      const done = (/** @type {Frame | null} */ f) => { clearTimeout(timer); resolve(f); };
      waiter = { types, resolve: done };
    });
  }

  /** @param {unknown} data */
  function onFrame(data) {
    const parsed = parseFrame(data, 'bridge');
    if (!parsed.ok) {
      send({ type: 'error', code: parsed.code, message: parsed.message });
      if (++badFrames > MAX_BAD_FRAMES) drop('MCP_TOO_MANY_BAD_FRAMES', 'The bridge sent too many malformed frames.');
      return;
    }
    const f = parsed.frame;
    if (f.type === 'ping') { send({ type: 'pong', t: f.t }); return; }
    if (f.type === 'pong' || f.type === 'error') return;
    if (f.type === 'refused') { set({ problem: f.message }); return; }
    if (f.type === 'client') { info.name = f.name; if (info.bridgeId && info.state === 'ready') void clients.update(info.bridgeId, { name: f.name }); set({}); return; }
    if (waiter && waiter.types.includes(f.type)) { const w = waiter; waiter = null; w.resolve(f); return; }
    if (info.state === 'ready' && f.type === 'call') { void runCall(f); return; }
    if (info.state === 'ready' && f.type === 'cancel') { calls.get(f.id)?.abort(); return; }
    send({ type: 'error', code: 'UNEXPECTED_FRAME', message: `A ${f.type} frame was not expected now (${info.state}).` });
  }

  /** @param {Frame} hello */
  async function onHello(hello) {
    if (hello.v !== PROTOCOL_VERSION) return drop('MCP_VERSION', `This bridge speaks protocol ${hello.v}; this Tabwright speaks ${PROTOCOL_VERSION}. Update the one that is older.`);
    set({ bridgeId: hello.bridgeId, name: hello.name, problem: undefined });
    const key = await clients.key(hello.bridgeId);
    const record = key ? await clients.get(hello.bridgeId) : null;
    if (key && record) return signIn(key, hello.bridgeId);
    if (hello.paired) return drop('MCP_NOT_PAIRED', 'Tabwright has no pairing with this bridge (it was revoked, or paired with another browser profile). The bridge prints a new pairing code.');
    set({ state: 'pending' });
  }

  /** @param {CryptoKey} key @param {string} bridgeId */
  async function signIn(key, bridgeId) {
    set({ state: 'signing_in' });
    const extensionNonce = newNonce();
    send({ type: 'auth_begin', nonce: extensionNonce });
    const proof = await expect(['auth_proof']);
    if (!proof) return drop('MCP_NO_PROOF', 'The bridge did not prove it holds the pairing secret.');
    const nonces = { bridgeNonce: proof.nonce, extensionNonce };
    if (!(await verify(proof.mac, () => authProof(key, 'bridge', nonces)))) {
      return drop('MCP_BAD_SIGNATURE', 'The bridge\'s signature does not match its pairing: it holds a wrong or stale secret. Tabwright refused it.');
    }
    send({ type: 'auth_finish', mac: await authProof(key, 'extension', nonces) });
    const ok = await expect(['ready']);
    if (!ok) return drop('MCP_NO_READY', 'The bridge did not accept Tabwright\'s signature.');
    attempt = 0;
    set({ state: 'ready' });
    void clients.update(bridgeId, { name: info.name });
  }

  /**
   * The user typed a code: does this waiting bridge know it? Only after the bridge proved it does
   * is anything made from the code sent back, with the new secret.
   * @param {string} typed @param {Grant} grant
   * @returns {Promise<{ ok: true, name: string } | { ok: false, code: string, message: string }>}
   */
  async function pair(typed, grant) {
    const code = normalizeCode(typed);
    if (!code) return { ok: false, code: 'MCP_BAD_CODE', message: 'A pairing code has 10 letters and digits, like K7QXM-2PD9R.' };
    if (info.state !== 'pending' || !info.bridgeId) return { ok: false, code: 'MCP_NOT_WAITING', message: 'This bridge is not waiting to be paired.' };
    const bridgeId = info.bridgeId;
    set({ state: 'pairing' });
    const extensionNonce = newNonce();
    send({ type: 'pair_begin', nonce: extensionNonce });
    const proof = await expect(['pair_proof']);
    const nonces = proof ? { bridgeNonce: proof.nonce, extensionNonce } : null;
    if (!proof || !nonces || !(await verify(proof.mac, () => pairProof(code, 'bridge', nonces)))) {
      if (/** @type {LinkState} */ (info.state) === 'pairing') set({ state: 'pending' });
      return { ok: false, code: 'MCP_CODE_MISMATCH', message: 'That code is not the one this bridge printed.' };
    }
    const secret = newSecret();
    const added = await clients.add({ id: bridgeId, name: info.name ?? 'MCP client', grant }, secret);
    if (!added.ok) { set({ state: 'pending' }); return /** @type {{ ok: false, code: string, message: string }} */ (added); }
    send({ type: 'pair_finish', mac: await pairProof(code, 'extension', nonces), wrapped: await wrapSecret(code, nonces, secret) });
    const done = await expect(['paired']);
    if (!done) {
      await clients.remove(bridgeId);
      drop('MCP_PAIRING_FAILED', 'The bridge did not confirm the pairing.');
      return { ok: false, code: 'MCP_PAIRING_FAILED', message: 'The bridge did not confirm the pairing. Restart it and try its new code.' };
    }
    attempt = 0;
    set({ state: 'ready' });
    return { ok: true, name: info.name ?? 'MCP client' };
  }

  /** @param {Frame} f */
  async function runCall(f) {
    const controller = new AbortController();
    calls.set(f.id, controller);
    /** @type {{ ok: boolean } & Record<string, unknown>} */
    let result;
    try {
      result = await onCall(link, f, controller.signal, (message, progress, total) => send({ type: 'progress', id: f.id, message: message.slice(0, 2000), ...(progress !== undefined ? { progress } : {}), ...(total !== undefined ? { total } : {}) }));
    } catch (err) {
      result = { ok: false, code: 'INTERNAL_ERROR', message: `Tabwright failed to run the call: ${err instanceof Error ? err.message : err}` };
    } finally {
      calls.delete(f.id);
    }
    send({ type: 'result', id: f.id, result });
  }

  const link = {
    info,
    connect,
    pair,
    /** Send a frame that is not an answer (tools_changed). @param {Frame} f */
    notify: (/** @type {Frame} */ f) => { if (info.state === 'ready') send(f); },
    /** Dial now if waiting to retry. */
    poke() { if (!ws && !stopped) { attempt = 0; connect(); } },
    /** Revoked: refuse and close at once (the bridge falls back to printing a new code). */
    revoke() { drop('MCP_REVOKED', 'The user revoked this client in Tabwright\'s settings.'); },
    /** For good (the setting was turned off). */
    stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      retry = null;
      try { ws?.close(1000, 'disabled'); } catch { /* gone */ }
      if (!ws) set({ state: 'idle' });
    },
  };
  return link;
}
/** @typedef {ReturnType<typeof createLink>} Link */
