// The bridge's side of the WebSocket: a server on 127.0.0.1 only, which Tabwright's background
// dials (service/mcp/link.js). Only browser-extension origins may open it, so a web page cannot.
// It pairs with a one-time code printed to stderr, signs in with the shared secret afterwards, and
// then carries the MCP server's calls to the extension and the results back. Frames and handshake:
// src/chrome/mcp/frames.js and pairing.js (the same files the extension runs).
import { WebSocketServer } from 'ws';
import { parseFrame, encodeFrame, PROTOCOL_VERSION } from '../chrome/mcp/frames.js';
import { newNonce, newPairingCode, pairProof, authProof, wrapSecret, verify, importSecret, createNonceLog } from '../chrome/mcp/pairing.js';

/** Pairing proofs given out for one code before a new one is printed (a guesser learns little). */
const MAX_PAIR_TRIES = 5;
const MAX_BAD_FRAMES = 20;
const EXTENSION_ORIGIN = /^(chrome-extension|moz-extension):\/\/[a-z0-9-]+$/i;

/**
 * @typedef {import('./state.js').BridgeState} BridgeState
 * @typedef {{ ok: boolean } & Record<string, any>} CallResult
 * @typedef {{ resolve: (r: CallResult) => void, onProgress?: (p: { message: string, progress?: number, total?: number }) => void }} PendingCall
 */

/**
 * @param {object} opts
 * @param {number} opts.port the first port to try
 * @param {number} [opts.span] how many ports from it (the extension dials as many)
 * @param {BridgeState} opts.state
 * @param {(state: BridgeState) => Promise<void>} opts.save
 * @param {() => string} opts.name the MCP client's name, as known now
 * @param {(line: string) => void} opts.log one line to stderr (never stdout: that is the MCP channel)
 * @param {(event: 'ready' | 'lost' | 'tools_changed') => void} [opts.onEvent]
 */
export function createExtensionLink({ port, span = 4, state, save, name, log, onEvent = () => {} }) {
  /** @type {WebSocketServer | null} */
  let wss = null;
  /** The signed-in extension. @type {import('ws').WebSocket | null} */
  let active = null;
  /** @type {string | null} */
  let code = null;
  let pairTries = 0;
  /** Why the extension last refused this bridge, for the MCP client to read. @type {string | null} */
  let refusal = null;
  let seq = 0;
  /** @type {Map<number, PendingCall>} */
  const pending = new Map();
  const nonces = createNonceLog();
  let listening = 0;

  function printCode() {
    code = newPairingCode();
    pairTries = 0;
    log(`pairing code ${code} - enter it in Tabwright: Settings > MCP bridge (port ${listening}). It works once.`);
  }

  /** Listen on the first free port of the span. @returns {Promise<number>} */
  async function start() {
    for (let p = port; p < port + span; p++) {
      const ok = await new Promise((resolve) => {
        const server = new WebSocketServer({ host: '127.0.0.1', port: p, maxPayload: 8_000_000, verifyClient: (/** @type {{ origin?: string }} */ info) => EXTENSION_ORIGIN.test(String(info.origin ?? '')) });
        server.once('listening', () => { wss = server; resolve(true); });
        server.once('error', () => { server.close(); resolve(false); });
      });
      if (ok) break;
    }
    if (!wss) throw new Error(`no free port from ${port} to ${port + span - 1} on 127.0.0.1`);
    listening = /** @type {import('node:net').AddressInfo} */ (wss.address()).port;
    wss.on('connection', onConnection);
    log(`listening on 127.0.0.1:${listening}${state.secret ? ' (paired; waiting for Tabwright to connect)' : ''}`);
    if (!state.secret) printCode();
    return listening;
  }

  /**
   * One connection from the extension, and the handshake step it is in.
   * @typedef {object} Conn
   * @property {import('ws').WebSocket} ws
   * @property {{ kind: 'auth' | 'pair', nonces: { bridgeNonce: string, extensionNonce: string }, key?: CryptoKey, code?: string } | null} step
   * @property {(f: Record<string, any>) => void} send
   * @property {(code: string, message: string) => void} refuse answer refused and close
   */

  /** @param {import('ws').WebSocket} ws */
  function onConnection(ws) {
    /** @type {Conn} */
    const conn = {
      ws,
      step: null,
      send: (f) => { try { ws.send(encodeFrame(/** @type {any} */ (f))); } catch { /* closing */ } },
      refuse: (c, message) => { conn.send({ type: 'refused', code: c, message }); ws.close(4001, c); },
    };
    let bad = 0;
    conn.send({ type: 'hello', v: PROTOCOL_VERSION, bridgeId: state.bridgeId, name: name(), paired: Boolean(state.secret) });
    ws.on('message', async (data, isBinary) => {
      const parsed = parseFrame(isBinary ? null : data.toString('utf8'), 'extension');
      if (!parsed.ok) {
        conn.send({ type: 'error', code: parsed.code, message: parsed.message });
        if (++bad > MAX_BAD_FRAMES) conn.refuse('TOO_MANY_BAD_FRAMES', 'Too many malformed frames.');
        return;
      }
      try {
        await onFrame(conn, parsed.frame);
      } catch (err) {
        conn.send({ type: 'error', code: 'INTERNAL_ERROR', message: err instanceof Error ? err.message : String(err) });
      }
    });
    ws.on('close', () => {
      if (active !== ws) return;
      active = null;
      for (const [id] of pending) settle(id, { ok: false, code: 'MCP_NOT_CONNECTED', message: 'Tabwright disconnected during the call (the browser closed, the setting was turned off, or the client was revoked).' });
      onEvent('lost');
    });
    ws.on('error', () => { /* close follows */ });
  }

  /** @param {Conn} conn @param {Record<string, any>} f */
  async function onFrame(conn, f) {
    switch (f.type) {
      case 'ping': conn.send({ type: 'pong', t: f.t }); return;
      case 'pong': case 'error': return;
      case 'auth_begin': return beginAuth(conn, f.nonce);
      case 'auth_finish': return finishAuth(conn, f.mac);
      case 'pair_begin': return beginPairing(conn, f.nonce);
      case 'pair_finish': return finishPairing(conn, f);
      case 'refused': return onRefused(f);
      case 'result': return settle(f.id, f.result);
      case 'progress': pending.get(Number(f.id))?.onProgress?.({ message: f.message, progress: f.progress, total: f.total }); return;
      case 'tools_changed': onEvent('tools_changed'); return;
      default: conn.send({ type: 'error', code: 'UNEXPECTED_FRAME', message: `A ${f.type} frame was not expected.` });
    }
  }

  /** Signing in: prove the secret over both nonces. @param {Conn} conn @param {string} extensionNonce */
  async function beginAuth(conn, extensionNonce) {
    if (!state.secret) return conn.refuse('MCP_NOT_PAIRED', 'This bridge is not paired.');
    if (!nonces.fresh(extensionNonce)) return conn.refuse('MCP_REPLAY', 'That nonce was used before.');
    const key = await importSecret(state.secret);
    conn.step = { kind: 'auth', nonces: { bridgeNonce: newNonce(), extensionNonce }, key };
    conn.send({ type: 'auth_proof', nonce: conn.step.nonces.bridgeNonce, mac: await authProof(key, 'bridge', conn.step.nonces) });
  }

  /** @param {Conn} conn @param {string} mac the extension's proof */
  async function finishAuth(conn, mac) {
    const s = conn.step;
    conn.step = null;
    const key = s?.kind === 'auth' ? s.key : undefined;
    if (!s || !key) return conn.refuse('UNEXPECTED_FRAME', 'auth_finish without auth_begin.');
    if (!(await verify(mac, () => authProof(key, 'extension', s.nonces)))) return conn.refuse('MCP_BAD_SIGNATURE', 'The signature does not match this bridge\'s pairing.');
    conn.send({ type: 'ready' });
    becomeActive(conn.ws);
  }

  /** Pairing: prove the code first; the extension answers only then. @param {Conn} conn @param {string} extensionNonce */
  async function beginPairing(conn, extensionNonce) {
    if (state.secret || !code) return conn.refuse('MCP_ALREADY_PAIRED', 'This bridge is already paired.');
    if (!nonces.fresh(extensionNonce)) return conn.refuse('MCP_REPLAY', 'That nonce was used before.');
    if (++pairTries > MAX_PAIR_TRIES) { printCode(); pairTries = 1; }
    conn.step = { kind: 'pair', nonces: { bridgeNonce: newNonce(), extensionNonce }, code };
    conn.send({ type: 'pair_proof', nonce: conn.step.nonces.bridgeNonce, mac: await pairProof(code, 'bridge', conn.step.nonces) });
  }

  /** @param {Conn} conn @param {Record<string, any>} f */
  async function finishPairing(conn, f) {
    const s = conn.step;
    conn.step = null;
    const used = s?.kind === 'pair' ? s.code : undefined;
    if (!s || !used || used !== code) return conn.refuse('UNEXPECTED_FRAME', 'pair_finish without pair_begin.');
    if (!(await verify(f.mac, () => pairProof(used, 'extension', s.nonces)))) return conn.refuse('MCP_CODE_MISMATCH', 'The pairing proof does not match the code.');
    state.secret = await wrapSecret(used, s.nonces, f.wrapped);
    code = null;
    refusal = null;
    await save(state);
    log('paired with Tabwright.');
    conn.send({ type: 'paired' });
    becomeActive(conn.ws);
  }

  /** @param {Record<string, any>} f */
  async function onRefused(f) {
    refusal = `${f.code}: ${f.message}`;
    log(`Tabwright refused this bridge: ${f.message}`);
    if (['MCP_NOT_PAIRED', 'MCP_REVOKED', 'MCP_BAD_SIGNATURE'].includes(f.code) && state.secret) {
      // The pairing is gone on the browser's side: forget it here too, and offer a new code.
      delete state.secret;
      await save(state);
      printCode();
    }
  }

  /** @param {import('ws').WebSocket} ws */
  function becomeActive(ws) {
    if (active && active !== ws) active.close(4000, 'replaced');
    active = ws;
    refusal = null;
    log('Tabwright is connected.');
    ws.send(encodeFrame({ type: 'client', name: name() }));
    onEvent('ready');
  }

  /** @param {unknown} id @param {CallResult} result */
  function settle(id, result) {
    const p = pending.get(Number(id));
    if (!p) return;
    pending.delete(Number(id));
    p.resolve(result);
  }

  /**
   * Ask the extension; resolves with its result (never rejects).
   * @param {string} method @param {Record<string, unknown>} [params]
   * @param {{ signal?: AbortSignal, onProgress?: PendingCall['onProgress'] }} [opts]
   * @returns {Promise<CallResult>}
   */
  function call(method, params = {}, opts = {}) {
    if (!active) return Promise.resolve(notReady());
    const id = ++seq;
    const ws = active;
    return new Promise((resolve) => {
      pending.set(id, { resolve, onProgress: opts.onProgress });
      opts.signal?.addEventListener('abort', () => {
        try { ws.send(encodeFrame({ type: 'cancel', id })); } catch { /* gone */ }
        settle(id, { ok: false, code: 'CANCELLED', message: 'The MCP client cancelled the call.' });
      }, { once: true });
      ws.send(encodeFrame({ type: 'call', id, method, params }));
    });
  }

  /** Why nothing can be called, for the MCP client (the code itself is only on stderr). */
  function notReady() {
    if (refusal) return { ok: false, code: 'MCP_REFUSED', message: `Tabwright refused this bridge (${refusal}). ${code ? "A new pairing code is in this server's log (stderr): the user enters it in Tabwright's Settings > MCP bridge." : ''}`.trim() };
    if (!state.secret) return { ok: false, code: 'MCP_NOT_PAIRED', message: `This bridge is not paired with Tabwright yet. The user turns on Settings > MCP bridge in Tabwright (port ${listening}) and enters the pairing code from this server's log (stderr).` };
    return { ok: false, code: 'MCP_NOT_CONNECTED', message: `Tabwright is not connected. The user opens the browser with Tabwright and turns on Settings > MCP bridge (port ${listening}).` };
  }

  return {
    start,
    call,
    notReady,
    get ready() { return active !== null; },
    get port() { return listening; },
    /**
     * The client's name changed (MCP initialize): tell every connection, also one still waiting
     * to be paired (the extension connects as soon as the port opens, often before initialize,
     * and Settings shows the waiting bridge by this name).
     */
    renamed() { for (const ws of wss?.clients ?? []) { try { ws.send(encodeFrame({ type: 'client', name: name() })); } catch { /* gone */ } } },
    async close() {
      for (const c of wss?.clients ?? []) c.terminate();
      await new Promise((r) => (wss ? wss.close(() => r(null)) : r(null)));
    },
  };
}
