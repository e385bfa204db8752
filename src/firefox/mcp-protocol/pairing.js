// Pairing and signing in between an MCP bridge and the extension, with WebCrypto's HMAC-SHA256
// (the browser's, and Node's globalThis.crypto). Browser-free: both ends import it.
//
// Pairing (once per bridge): the bridge prints a one-time code (50 bits) to its stderr; the user
// types it into Tabwright's settings. The extension sends a fresh nonce (pair_begin); the bridge
// proves it knows the code (pair_proof, HMAC keyed by the code over both nonces); only when that
// proof matches the code the user typed does the extension answer with its own proof and a new
// random 256-bit secret, wrapped with a key made from the code and both nonces (pair_finish).
// The extension never sends anything made from the code to a bridge that has not proved it knows
// it, so a program posing as a bridge learns nothing to guess the code from.
//
// Signing in (every connection after): each side sends a fresh nonce and proves it holds the
// secret with an HMAC over both nonces and its own role. A recorded exchange cannot be replayed
// (the other side's nonce is new), nor reflected (the role is signed). Proofs are compared in
// constant time.

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'; // Crockford's base 32: no I, L, O, U
const LABEL = 'tw-mcp/1';

/** @param {number} bytes @returns {string} lower-case hex of fresh random bytes */
export function randomHex(bytes) {
  return toHex(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** A nonce: 32 fresh random bytes in hex. */
export const newNonce = () => randomHex(32);
/** A bridge's id: 16 random bytes in hex. */
export const newBridgeId = () => randomHex(16);
/** A pairing secret: 32 random bytes in hex. */
export const newSecret = () => randomHex(32);

/** A one-time pairing code, "K7QXM-2PD9R": 10 characters of base 32 (50 bits). */
export function newPairingCode() {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  const chars = Array.from(bytes, (b) => ALPHABET[b & 31]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/**
 * A code as typed (any case, spaces, dashes, O for 0, I or L for 1) in its one canonical form,
 * or null when it cannot be a code.
 * @param {unknown} input @returns {string | null}
 */
export function normalizeCode(input) {
  if (typeof input !== 'string' || input.length > 40) return null;
  const s = input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (s.length !== 10 || [...s].some((c) => !ALPHABET.includes(c))) return null;
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

/** @param {Uint8Array} bytes */
export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** @param {string} hex @returns {Uint8Array} */
export function fromHex(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * An HMAC-SHA256 key. The extension keeps its keys non-extractable (service/mcp/clients-store.js):
 * once imported, the secret cannot be read back out of the browser, only used.
 * @param {string} secretHex @param {boolean} [extractable]
 */
export function importSecret(secretHex, extractable = false) {
  return crypto.subtle.importKey('raw', /** @type {Uint8Array<ArrayBuffer>} */ (fromHex(secretHex)), { name: 'HMAC', hash: 'SHA-256' }, extractable, ['sign']);
}

/** @param {string} code a normalised pairing code */
function codeKey(code) {
  return crypto.subtle.importKey('raw', new TextEncoder().encode(code), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** @param {CryptoKey} key @param {string} message @returns {Promise<string>} */
async function sign(key, message) {
  return toHex(new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(message))));
}

/**
 * Equal strings, compared in time that does not depend on where they differ.
 * @param {string} a @param {string} b
 */
export function constantTimeEqual(a, b) {
  if (typeof a !== 'string' || typeof b !== 'string' || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * @typedef {'bridge' | 'extension'} Role
 * @typedef {{ bridgeNonce: string, extensionNonce: string }} Nonces
 */

/** @param {string} kind @param {Role | ''} role @param {Nonces} n */
const message = (kind, role, n) => `${LABEL}|${kind}|${role}|${n.bridgeNonce}|${n.extensionNonce}`;

/**
 * Proof that `role` knows the pairing code.
 * @param {string} code a normalised code @param {Role} role @param {Nonces} nonces
 */
export async function pairProof(code, role, nonces) {
  return sign(await codeKey(code), message('pair', role, nonces));
}

/**
 * The new secret, wrapped (XOR) with a key only holders of the code can make for these nonces;
 * the same call unwraps it.
 * @param {string} code @param {Nonces} nonces @param {string} secretHex 32 bytes
 */
export async function wrapSecret(code, nonces, secretHex) {
  const pad = fromHex(await sign(await codeKey(code), message('wrap', '', nonces)));
  const s = fromHex(secretHex);
  return toHex(s.map((b, i) => b ^ pad[i]));
}

/**
 * Proof that `role` holds the pair's secret, for this connection's nonces.
 * @param {CryptoKey} key @param {Role} role @param {Nonces} nonces
 */
export function authProof(key, role, nonces) {
  return sign(key, message('auth', role, nonces));
}

/**
 * Does `mac` prove what `expected()` computes? Constant-time; false on any malformed input.
 * @param {string} mac @param {() => Promise<string>} expected
 */
export async function verify(mac, expected) {
  try { return constantTimeEqual(mac, await expected()); } catch { return false; }
}

/**
 * Nonces one side has seen: a nonce offered twice is refused (a replayed opening).
 * @param {number} [max] how many to remember
 */
export function createNonceLog(max = 1000) {
  /** @type {Set<string>} */
  const seen = new Set();
  return {
    /** @param {string} nonce @returns {boolean} true the first time */
    fresh(nonce) {
      if (seen.has(nonce)) return false;
      seen.add(nonce);
      if (seen.size > max) seen.delete(/** @type {string} */ (seen.values().next().value));
      return true;
    },
  };
}
