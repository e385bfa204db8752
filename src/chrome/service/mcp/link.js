// One WebSocket from the background to an MCP bridge on 127.0.0.1 (src/bridge/): the extension
// dials out, the bridge never reaches in. It signs in a paired bridge, waits with an unpaired one
// until the user types its code (Settings), refuses a bridge whose signature is wrong, then hands
// each call to the caller's handler and sends the result back. While open it pings every 20 s:
// the traffic also keeps Chrome's service worker alive while a client is connected. Closed, it
// dials again with backoff. Frames and handshake: mcp-protocol/frames.js, mcp-protocol/pairing.js, docs/MCP.md.
/** @import { Frame } from '../../mcp-protocol/frames.js' */
/** @import { Grant } from '../../mcp-protocol/grants.js' */
/** @import { ClientsStore } from './clients-store.js' */
import { parseFrame, encodeFrame, PROTOCOL_VERSION } from '../../mcp-protocol/frames.js';
import { newNonce, newSecret, pairProof, authProof, wrapSecret, verify, normalizeCode } from '../../mcp-protocol/pairing.js';
import { fail, say, errorOf } from '../../agent/error-codes.js';

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
 * @typedef {object} LinkDeps
 * @property {number} port
 * @property {ClientsStore} clients
 * @property {CallHandler} onCall
 * @property {(info: LinkInfo) => void} [onChange]
 * @property {typeof WebSocket} [WebSocketImpl]
 */

/**
 * @typedef {object} LinkCore one link's connection and what its steps share
 * @property {number} port
 * @property {ClientsStore} clients
 * @property {LinkInfo} info
 * @property {WebSocket | null} ws
 * @property {number} attempt connections tried since the last that signed in (the backoff's place)
 * @property {boolean} stopped
 * @property {number} badFrames
 * @property {ReturnType<typeof setTimeout> | null} retry
 * @property {ReturnType<typeof setInterval> | null} pinger
 * @property {{ types: string[], resolve: (f: Frame | null) => void } | null} waiter the handshake step waiting for a frame
 * @property {Map<string | number, AbortController>} calls calls in progress, to abort on cancel or close
 * @property {(patch: Partial<LinkInfo>) => void} set
 * @property {(f: Frame) => void} send
 * @property {(f: Frame) => void} runCall
 * @property {typeof WebSocket} WebSocketImpl
 */

/** @param {LinkDeps} deps */
export function createLink({ port, clients, onCall, onChange = () => {}, WebSocketImpl = globalThis.WebSocket }) {
  /** @type {LinkCore} */
  const core = {
    port, clients, WebSocketImpl, info: { port, state: 'idle' }, ws: null, attempt: 0, stopped: false, badFrames: 0, retry: null, pinger: null, waiter: null, calls: new Map(),
    set: (patch) => { Object.assign(core.info, patch); onChange({ ...core.info }); },
    send: (f) => { try { core.ws?.send(encodeFrame(f)); } catch { /* closing */ } },
    runCall: (f) => { void runCall(core, f, (frame, signal, progress) => onCall(link, frame, signal, progress)); },
  };
  const link = {
    info: core.info,
    connect: () => connect(core),
    /** @param {string} typed @param {Grant} grant */
    pair: (typed, grant) => pair(core, typed, grant),
    /** Send a frame that is not an answer (tools_changed). @param {Frame} f */
    notify: (/** @type {Frame} */ f) => { if (core.info.state === 'ready') core.send(f); },
    /** Dial now if waiting to retry. */
    poke() { if (!core.ws && !core.stopped) { core.attempt = 0; connect(core); } },
    /** Revoked: refuse and close at once (the bridge falls back to printing a new code). */
    revoke() { drop(core, 'MCP_REVOKED', "in Tabwright's settings"); },
    /** For good (the setting was turned off). */
    stop() {
      core.stopped = true;
      if (core.retry) clearTimeout(core.retry);
      core.retry = null;
      try { core.ws?.close(1000, 'disabled'); } catch { /* gone */ }
      if (!core.ws) core.set({ state: 'idle' });
    },
  };
  return link;
}
/** @typedef {ReturnType<typeof createLink>} Link */

/** Dial the bridge; the handshake starts with its hello. @param {LinkCore} core */
function connect(core) {
  if (core.stopped || core.ws) return;
  if (core.retry) { clearTimeout(core.retry); core.retry = null; }
  core.set({ state: 'connecting' });
  core.badFrames = 0;
  let sock;
  try { sock = new core.WebSocketImpl(`ws://127.0.0.1:${core.port}`); } catch { closed(core); return; }
  core.ws = sock;
  sock.onopen = () => {
    core.set({ state: 'hello' });
    core.pinger = setInterval(() => core.send({ type: 'ping', t: Date.now() }), PING_MS);
    expectFrame(core, ['hello']).then((f) => (f ? onHello(core, f) : drop(core, 'MCP_NO_HELLO')));
  };
  sock.onmessage = (e) => onFrame(core, e.data);
  sock.onclose = () => { if (core.ws === sock) closed(core); };
  sock.onerror = () => { /* onclose follows */ };
}

/** The connection closed: calls in progress are aborted, and it dials again with backoff unless stopped. @param {LinkCore} core */
function closed(core) {
  core.ws = null;
  if (core.pinger) clearInterval(core.pinger);
  core.pinger = null;
  core.waiter?.resolve(null);
  core.waiter = null;
  for (const c of core.calls.values()) c.abort();
  core.calls.clear();
  if (core.stopped) { core.set({ state: 'idle' }); return; }
  const delay = BACKOFF_MS[Math.min(core.attempt++, BACKOFF_MS.length - 1)];
  core.set({ state: core.info.state === 'refused' ? 'refused' : 'idle' });
  core.retry = setTimeout(() => { core.retry = null; connect(core); }, delay);
}

/**
 * Close this connection with a reason both ends can show, worded by the catalog.
 * @param {LinkCore} core @param {import('../../agent/error-codes.js').ErrorCode} code @param {string} [detail] the specifics
 */
function drop(core, code, detail) {
  const message = say(code, detail);
  core.send({ type: 'refused', code, message });
  core.set({ state: 'refused', problem: message });
  try { core.ws?.close(4001, code); } catch { /* gone */ }
}

/** The next frame of one of these types, or null after a step's time. @param {LinkCore} core @param {string[]} types @returns {Promise<Frame | null>} */
function expectFrame(core, types) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => { if (core.waiter?.resolve === done) core.waiter = null; resolve(null); }, STEP_MS);
    const done = (/** @type {Frame | null} */ f) => { clearTimeout(timer); resolve(f); };
    core.waiter = { types, resolve: done };
  });
}

/** @param {LinkCore} core @param {unknown} data */
function onFrame(core, data) {
  const { info, send } = core;
  const parsed = parseFrame(data, 'bridge');
  if (!parsed.ok) {
    send({ type: 'error', code: parsed.code, message: parsed.message });
    if (++core.badFrames > MAX_BAD_FRAMES) drop(core, 'MCP_TOO_MANY_BAD_FRAMES');
    return;
  }
  const f = parsed.frame;
  if (f.type === 'ping') { send({ type: 'pong', t: f.t }); return; }
  if (f.type === 'pong' || f.type === 'error') return;
  if (f.type === 'refused') { core.set({ problem: f.message }); return; }
  if (f.type === 'client') { info.name = f.name; if (info.bridgeId && info.state === 'ready') void core.clients.update(info.bridgeId, { name: f.name }); core.set({}); return; }
  if (core.waiter && core.waiter.types.includes(f.type)) { const w = core.waiter; core.waiter = null; w.resolve(f); return; }
  if (info.state === 'ready' && f.type === 'call') { core.runCall(f); return; }
  if (info.state === 'ready' && f.type === 'cancel') { core.calls.get(f.id)?.abort(); return; }
  send({ type: 'error', ...errorOf('UNEXPECTED_FRAME', `a ${f.type} frame, while ${info.state}`) });
}

/** A paired bridge signs in; an unpaired one waits for the user's code. @param {LinkCore} core @param {Frame} hello */
async function onHello(core, hello) {
  if (hello.v !== PROTOCOL_VERSION) return drop(core, 'MCP_VERSION', `the bridge speaks ${hello.v}, this Tabwright ${PROTOCOL_VERSION}`);
  core.set({ bridgeId: hello.bridgeId, name: hello.name, problem: undefined });
  const key = await core.clients.key(hello.bridgeId);
  const record = key ? await core.clients.get(hello.bridgeId) : null;
  if (key && record) return signIn(core, key, hello.bridgeId);
  if (hello.paired) return drop(core, 'MCP_NOT_PAIRED', 'it was revoked, or paired with another browser profile; the bridge prints a new pairing code');
  core.set({ state: 'pending' });
}

/** Both ends prove they hold the pairing secret. @param {LinkCore} core @param {CryptoKey} key @param {string} bridgeId */
async function signIn(core, key, bridgeId) {
  core.set({ state: 'signing_in' });
  const extensionNonce = newNonce();
  core.send({ type: 'auth_begin', nonce: extensionNonce });
  const proof = await expectFrame(core, ['auth_proof']);
  if (!proof) return drop(core, 'MCP_NO_PROOF');
  const nonces = { bridgeNonce: proof.nonce, extensionNonce };
  if (!(await verify(proof.mac, () => authProof(key, 'bridge', nonces)))) {
    return drop(core, 'MCP_BAD_SIGNATURE', 'its signature does not match its pairing: it holds a wrong or stale secret');
  }
  core.send({ type: 'auth_finish', mac: await authProof(key, 'extension', nonces) });
  const ok = await expectFrame(core, ['ready']);
  if (!ok) return drop(core, 'MCP_NO_READY');
  core.attempt = 0;
  core.set({ state: 'ready' });
  void core.clients.update(bridgeId, { name: core.info.name });
}

/**
 * The user typed a code: does this waiting bridge know it? Only after the bridge proved it does
 * is anything made from the code sent back, with the new secret.
 * @param {LinkCore} core @param {string} typed @param {Grant} grant
 * @returns {Promise<{ ok: true, name: string } | { ok: false, code: string, message: string }>}
 */
async function pair(core, typed, grant) {
  const { info } = core;
  const code = normalizeCode(typed);
  if (!code) return fail('MCP_BAD_CODE', 'like K7QXM-2PD9R');
  if (info.state !== 'pending' || !info.bridgeId) return fail('MCP_NOT_WAITING');
  const bridgeId = info.bridgeId;
  core.set({ state: 'pairing' });
  const extensionNonce = newNonce();
  core.send({ type: 'pair_begin', nonce: extensionNonce });
  const proof = await expectFrame(core, ['pair_proof']);
  const nonces = proof ? { bridgeNonce: proof.nonce, extensionNonce } : null;
  if (!proof || !nonces || !(await verify(proof.mac, () => pairProof(code, 'bridge', nonces)))) {
    if (/** @type {LinkState} */ (info.state) === 'pairing') core.set({ state: 'pending' });
    return fail('MCP_CODE_MISMATCH');
  }
  const secret = newSecret();
  const added = await core.clients.add({ id: bridgeId, name: info.name ?? 'MCP client', grant }, secret);
  if (!added.ok) { core.set({ state: 'pending' }); return /** @type {{ ok: false, code: string, message: string }} */ (added); }
  core.send({ type: 'pair_finish', mac: await pairProof(code, 'extension', nonces), wrapped: await wrapSecret(code, nonces, secret) });
  const done = await expectFrame(core, ['paired']);
  if (!done) {
    await core.clients.remove(bridgeId);
    drop(core, 'MCP_PAIRING_FAILED', 'the bridge did not confirm it');
    return fail('MCP_PAIRING_FAILED');
  }
  core.attempt = 0;
  core.set({ state: 'ready' });
  return { ok: true, name: info.name ?? 'MCP client' };
}

/**
 * One call from the bridge, abortable by a cancel frame or the connection closing; its progress and
 * result go back. @param {LinkCore} core @param {Frame} f
 * @param {(f: Frame, signal: AbortSignal, progress: (message: string, progress?: number, total?: number) => void) => Promise<{ ok: boolean } & Record<string, unknown>>} handle
 */
async function runCall(core, f, handle) {
  const { send } = core;
  const controller = new AbortController();
  core.calls.set(f.id, controller);
  /** @type {{ ok: boolean } & Record<string, unknown>} */
  let result;
  try {
    result = await handle(f, controller.signal, (message, progress, total) => send({ type: 'progress', id: f.id, message: message.slice(0, 2000), ...(progress !== undefined ? { progress } : {}), ...(total !== undefined ? { total } : {}) }));
  } catch (err) {
    result = fail('INTERNAL_ERROR', `running the call: ${err instanceof Error ? err.message : err}`);
  } finally {
    core.calls.delete(f.id);
  }
  send({ type: 'result', id: f.id, result });
}
