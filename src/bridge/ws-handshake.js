// The bridge's half of the handshake with Tabwright (the extension's half: src/chrome/service/mcp/link.js):
// signing in proves the shared secret over both ends' fresh nonces; pairing proves the one-time
// code first, and only then takes the wrapped secret. A refusal from the extension that says the
// pairing is gone forgets it here too and prints a new code. Frames and proofs: src/chrome/mcp-protocol/.
/** @import { Conn, LinkState } from './ws-link.js' */
import { encodeFrame } from '../chrome/mcp-protocol/frames.js';
import { newNonce, newPairingCode, pairProof, authProof, wrapSecret, verify, importSecret } from '../chrome/mcp-protocol/pairing.js';

/** Pairing proofs given out for one code before a new one is printed (a guesser learns little). */
const MAX_PAIR_TRIES = 5;

/** A new one-time pairing code, on stderr. @param {LinkState} b */
export function printCode(b) {
  b.code = newPairingCode();
  b.pairTries = 0;
  b.log(`pairing code ${b.code} - enter it in Tabwright: Settings > MCP bridge (port ${b.listening}). It works once.`);
}

/** Signing in: prove the secret over both nonces. @param {LinkState} b @param {Conn} conn @param {string} extensionNonce */
export async function beginAuth(b, conn, extensionNonce) {
  if (!b.state.secret) return conn.refuse('MCP_NOT_PAIRED');
  if (!b.nonces.fresh(extensionNonce)) return conn.refuse('MCP_REPLAY', 'its nonce');
  const key = await importSecret(b.state.secret);
  conn.step = { kind: 'auth', nonces: { bridgeNonce: newNonce(), extensionNonce }, key };
  conn.send({ type: 'auth_proof', nonce: conn.step.nonces.bridgeNonce, mac: await authProof(key, 'bridge', conn.step.nonces) });
}

/** @param {LinkState} b @param {Conn} conn @param {string} mac the extension's proof */
export async function finishAuth(b, conn, mac) {
  const s = conn.step;
  conn.step = null;
  const key = s?.kind === 'auth' ? s.key : undefined;
  if (!s || !key) return conn.refuse('UNEXPECTED_FRAME', 'auth_finish without auth_begin');
  if (!(await verify(mac, () => authProof(key, 'extension', s.nonces)))) return conn.refuse('MCP_BAD_SIGNATURE', "the signature does not match this bridge's pairing");
  conn.send({ type: 'ready' });
  becomeActive(b, conn.ws);
}

/** Pairing: prove the code first; the extension answers only then. @param {LinkState} b @param {Conn} conn @param {string} extensionNonce */
export async function beginPairing(b, conn, extensionNonce) {
  if (b.state.secret || !b.code) return conn.refuse('MCP_ALREADY_PAIRED');
  if (!b.nonces.fresh(extensionNonce)) return conn.refuse('MCP_REPLAY', 'its nonce');
  if (++b.pairTries > MAX_PAIR_TRIES) { printCode(b); b.pairTries = 1; }
  const code = /** @type {string} */ (b.code);
  conn.step = { kind: 'pair', nonces: { bridgeNonce: newNonce(), extensionNonce }, code };
  conn.send({ type: 'pair_proof', nonce: conn.step.nonces.bridgeNonce, mac: await pairProof(code, 'bridge', conn.step.nonces) });
}

/** @param {LinkState} b @param {Conn} conn @param {Record<string, any>} f */
export async function finishPairing(b, conn, f) {
  const s = conn.step;
  conn.step = null;
  const used = s?.kind === 'pair' ? s.code : undefined;
  if (!s || !used || used !== b.code) return conn.refuse('UNEXPECTED_FRAME', 'pair_finish without pair_begin');
  if (!(await verify(f.mac, () => pairProof(used, 'extension', s.nonces)))) return conn.refuse('MCP_CODE_MISMATCH', 'the pairing proof does not match it');
  b.state.secret = await wrapSecret(used, s.nonces, f.wrapped);
  b.code = null;
  b.refusal = null;
  await b.save(b.state);
  b.log('paired with Tabwright.');
  conn.send({ type: 'paired' });
  becomeActive(b, conn.ws);
}

/** @param {LinkState} b @param {Record<string, any>} f */
export async function onRefused(b, f) {
  b.refusal = `${f.code}: ${f.message}`;
  b.log(`Tabwright refused this bridge: ${f.message}`);
  if (['MCP_NOT_PAIRED', 'MCP_REVOKED', 'MCP_BAD_SIGNATURE'].includes(f.code) && b.state.secret) {
    // The pairing is gone on the browser's side: forget it here too, and offer a new code.
    delete b.state.secret;
    await b.save(b.state);
    printCode(b);
  }
}

/** @param {LinkState} b @param {import('ws').WebSocket} ws */
function becomeActive(b, ws) {
  if (b.active && b.active !== ws) b.active.close(4000, 'replaced');
  b.active = ws;
  b.refusal = null;
  b.log('Tabwright is connected.');
  ws.send(encodeFrame({ type: 'client', name: b.name() }));
  b.onEvent('ready');
}
