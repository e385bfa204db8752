// The bridge's side of the WebSocket: a server on 127.0.0.1 only, which Tabwright's background
// dials (service/mcp/link.js). Only browser-extension origins may open it, so a web page cannot.
// It pairs with a one-time code printed to stderr, signs in with the shared secret afterwards, and
// then carries the MCP server's calls to the extension and the results back. Frames and handshake:
// src/chrome/mcp-protocol/frames.js and pairing.js (the same files the extension runs).
import { WebSocketServer } from 'ws';
import { parseFrame, encodeFrame, PROTOCOL_VERSION } from '../chrome/mcp-protocol/frames.js';
import { createNonceLog } from '../chrome/mcp-protocol/pairing.js';
import { beginAuth, beginPairing, finishAuth, finishPairing, onRefused, printCode } from './ws-handshake.js';
import { errorOf, fail, say } from '../chrome/agent/error-codes.js';

const MAX_BAD_FRAMES = 20;
const EXTENSION_ORIGIN = /^(chrome-extension|moz-extension):\/\/[a-z0-9-]+$/i;

/**
 * @typedef {import('./state.js').BridgeState} BridgeState
 * @typedef {{ ok: boolean } & Record<string, any>} CallResult
 * @typedef {{ resolve: (r: CallResult) => void, onProgress?: (p: { message: string, progress?: number, total?: number }) => void }} PendingCall
 */

/**
 * @typedef {object} LinkState the bridge's side of the link, shared by its steps (ws-handshake.js)
 * @property {BridgeState} state the saved pairing (bridge id, secret)
 * @property {(state: BridgeState) => Promise<void>} save
 * @property {() => string} name
 * @property {(line: string) => void} log
 * @property {(event: 'ready' | 'lost' | 'tools_changed') => void} onEvent
 * @property {WebSocketServer | null} wss
 * @property {import('ws').WebSocket | null} active the signed-in extension
 * @property {string | null} code the pairing code printed, while unpaired
 * @property {number} pairTries
 * @property {string | null} refusal why the extension last refused this bridge, for the MCP client to read
 * @property {number} seq
 * @property {Map<number, PendingCall>} pending
 * @property {ReturnType<typeof createNonceLog>} nonces
 * @property {number} listening the port
 */

/**
 * One connection from the extension, and the handshake step it is in.
 * @typedef {object} Conn
 * @property {import('ws').WebSocket} ws
 * @property {{ kind: 'auth' | 'pair', nonces: { bridgeNonce: string, extensionNonce: string }, key?: CryptoKey, code?: string } | null} step
 * @property {(f: Record<string, any>) => void} send
 * @property {(code: import('../chrome/agent/error-codes.js').ErrorCode, detail?: string) => void} refuse answer refused (worded by the catalog) and close
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
  /** @type {LinkState} */
  const b = { state, save, name, log, onEvent, wss: null, active: null, code: null, pairTries: 0, refusal: null, seq: 0, pending: new Map(), nonces: createNonceLog(), listening: 0 };
  return {
    start: () => start(b, port, span),
    /**
     * Ask the extension; resolves with its result (never rejects).
     * @param {string} method @param {Record<string, unknown>} [params]
     * @param {{ signal?: AbortSignal, onProgress?: PendingCall['onProgress'] }} [opts]
     * @returns {Promise<CallResult>}
     */
    call: (method, params = {}, opts = {}) => call(b, method, params, opts),
    notReady: () => notReady(b),
    get ready() { return b.active !== null; },
    get port() { return b.listening; },
    /**
     * The client's name changed (MCP initialize): tell every connection, also one still waiting
     * to be paired (the extension connects as soon as the port opens, often before initialize,
     * and Settings shows the waiting bridge by this name).
     */
    renamed() { for (const ws of b.wss?.clients ?? []) { try { ws.send(encodeFrame({ type: 'client', name: name() })); } catch { /* gone */ } } },
    async close() {
      for (const c of b.wss?.clients ?? []) c.terminate();
      await new Promise((r) => (b.wss ? b.wss.close(() => r(null)) : r(null)));
    },
  };
}

/** Listen on the first free port of the span. @param {LinkState} b @param {number} port @param {number} span @returns {Promise<number>} */
async function start(b, port, span) {
  for (let p = port; p < port + span; p++) {
    const ok = await new Promise((resolve) => {
      const server = new WebSocketServer({ host: '127.0.0.1', port: p, maxPayload: 8_000_000, verifyClient: (/** @type {{ origin?: string }} */ info) => EXTENSION_ORIGIN.test(String(info.origin ?? '')) });
      server.once('listening', () => { b.wss = server; resolve(true); });
      server.once('error', () => { server.close(); resolve(false); });
    });
    if (ok) break;
  }
  const wss = b.wss;
  if (!wss) throw new Error(`no free port from ${port} to ${port + span - 1} on 127.0.0.1`);
  b.listening = /** @type {import('node:net').AddressInfo} */ (wss.address()).port;
  wss.on('connection', (ws) => onConnection(b, ws));
  b.log(`listening on 127.0.0.1:${b.listening}${b.state.secret ? ' (paired; waiting for Tabwright to connect)' : ''}`);
  if (!b.state.secret) printCode(b);
  return b.listening;
}

/** @param {LinkState} b @param {import('ws').WebSocket} ws */
function onConnection(b, ws) {
  /** @type {Conn} */
  const conn = {
    ws,
    step: null,
    send: (f) => { try { ws.send(encodeFrame(/** @type {any} */ (f))); } catch { /* closing */ } },
    refuse: (c, detail) => { conn.send({ type: 'refused', code: c, message: say(c, detail) }); ws.close(4001, c); },
  };
  let bad = 0;
  conn.send({ type: 'hello', v: PROTOCOL_VERSION, bridgeId: b.state.bridgeId, name: b.name(), paired: Boolean(b.state.secret) });
  ws.on('message', async (data, isBinary) => {
    const parsed = parseFrame(isBinary ? null : data.toString('utf8'), 'extension');
    if (!parsed.ok) {
      conn.send({ type: 'error', code: parsed.code, message: parsed.message });
      if (++bad > MAX_BAD_FRAMES) conn.refuse('TOO_MANY_BAD_FRAMES');
      return;
    }
    try {
      await onFrame(b, conn, parsed.frame);
    } catch (err) {
      conn.send({ type: 'error', ...errorOf('INTERNAL_ERROR', err instanceof Error ? err.message : String(err)) });
    }
  });
  ws.on('close', () => {
    if (b.active !== ws) return;
    b.active = null;
    for (const [id] of b.pending) settle(b, id, fail('MCP_NOT_CONNECTED', 'it disconnected during the call: the browser closed, the setting was turned off, or the client was revoked'));
    b.onEvent('lost');
  });
  ws.on('error', () => { /* close follows */ });
}

/** @param {LinkState} b @param {Conn} conn @param {Record<string, any>} f */
async function onFrame(b, conn, f) {
  switch (f.type) {
    case 'ping': conn.send({ type: 'pong', t: f.t }); return;
    case 'pong': case 'error': return;
    case 'auth_begin': return beginAuth(b, conn, f.nonce);
    case 'auth_finish': return finishAuth(b, conn, f.mac);
    case 'pair_begin': return beginPairing(b, conn, f.nonce);
    case 'pair_finish': return finishPairing(b, conn, f);
    case 'refused': return onRefused(b, f);
    case 'result': return settle(b, f.id, f.result);
    case 'progress': b.pending.get(Number(f.id))?.onProgress?.({ message: f.message, progress: f.progress, total: f.total }); return;
    case 'tools_changed': b.onEvent('tools_changed'); return;
    default: conn.send({ type: 'error', ...errorOf('UNEXPECTED_FRAME', `a ${f.type} frame`) });
  }
}

/** @param {LinkState} b @param {unknown} id @param {CallResult} result */
function settle(b, id, result) {
  const p = b.pending.get(Number(id));
  if (!p) return;
  b.pending.delete(Number(id));
  p.resolve(result);
}

/**
 * @param {LinkState} b @param {string} method @param {Record<string, unknown>} params
 * @param {{ signal?: AbortSignal, onProgress?: PendingCall['onProgress'] }} opts
 * @returns {Promise<CallResult>}
 */
function call(b, method, params, opts) {
  const ws = b.active;
  if (!ws) return Promise.resolve(notReady(b));
  const id = ++b.seq;
  return new Promise((resolve) => {
    b.pending.set(id, { resolve, onProgress: opts.onProgress });
    opts.signal?.addEventListener('abort', () => {
      try { ws.send(encodeFrame({ type: 'cancel', id })); } catch { /* gone */ }
      settle(b, id, fail('CANCELLED', 'the MCP client cancelled the call'));
    }, { once: true });
    ws.send(encodeFrame({ type: 'call', id, method, params }));
  });
}

/** Why nothing can be called, for the MCP client (the code itself is only on stderr). @param {LinkState} b */
function notReady(b) {
  if (b.refusal) return fail('MCP_REFUSED', `${b.refusal}${b.code ? "; a new pairing code is in this server's log (stderr): the user enters it in Tabwright's Settings > MCP bridge" : ''}`);
  if (!b.state.secret) return fail('MCP_NOT_PAIRED', `the user turns on Settings > MCP bridge in Tabwright, port ${b.listening}, and enters the pairing code from this server's log (stderr)`);
  return fail('MCP_NOT_CONNECTED', `port ${b.listening}`);
}
