import { fail, errorOf } from '../agent/error-codes.js';
// The messages between the MCP bridge (src/bridge/, a Node process) and the extension's background
// (service/mcp/), one JSON object per WebSocket text frame. Both ends parse every frame here
// before acting on it: a frame that is too long, not JSON, of an unknown type or with a wrong
// field is answered with a clear error, never half-read and never a crash. Browser-free (Node
// imports it too). docs/MCP.md describes the exchange.

/** Longest frame either end accepts, in characters (a page snapshot is at most a few hundred kB). */
export const MAX_FRAME_CHARS = 4_000_000;
/** The protocol's version; a bridge of another version is refused with a sentence saying so. */
export const PROTOCOL_VERSION = 1;

/**
 * @typedef {(v: unknown) => string | null} FieldCheck what is wrong with the value, or null
 * @typedef {{ check: FieldCheck, optional?: boolean }} FrameField
 */

/** @param {number} max @returns {FieldCheck} */
const str = (max) => (v) => (typeof v === 'string' && v.length <= max ? null : `must be text of at most ${max} characters`);
/** @param {number} bytes @returns {FieldCheck} */
const hex = (bytes) => (v) => (typeof v === 'string' && v.length === bytes * 2 && /^[0-9a-f]+$/.test(v) ? null : `must be ${bytes} bytes in lower-case hex`);
/** @type {FieldCheck} */
const bool = (v) => (typeof v === 'boolean' ? null : 'must be true or false');
/** @type {FieldCheck} */
const callId = (v) => ((typeof v === 'string' && v.length > 0 && v.length <= 64) || (Number.isSafeInteger(v) && /** @type {number} */ (v) >= 0) ? null : 'must be a call id (text up to 64 characters, or a whole number)');
/** @type {FieldCheck} */
const obj = (v) => (v && typeof v === 'object' && !Array.isArray(v) ? null : 'must be an object');
/** @type {FieldCheck} */
const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? null : 'must be a number');
/** @type {FieldCheck} */
const anything = () => null;
/** @param {FieldCheck} check @returns {FrameField} */
const req = (check) => ({ check });
/** @param {FieldCheck} check @returns {FrameField} */
const opt = (check) => ({ check, optional: true });

/** The methods a bridge may call once it is paired and signed in. */
export const CALL_METHODS = Object.freeze(['tools.list', 'tool.call', 'tabs.list', 'run.task', 'run.stop']);

/**
 * Every frame type, who sends it, and its fields. The handshake (hello, pair_*, auth_*) is
 * described in mcp-protocol/pairing.js; calls and results carry the work.
 * @type {Readonly<Record<string, { from: 'bridge' | 'extension' | 'both', fields: Record<string, FrameField> }>>}
 */
export const FRAME_TYPES = Object.freeze({
  hello: { from: 'bridge', fields: { v: req(num), bridgeId: req(hex(16)), name: req(str(100)), paired: req(bool) } },
  client: { from: 'bridge', fields: { name: req(str(100)) } },
  pair_begin: { from: 'extension', fields: { nonce: req(hex(32)) } },
  pair_proof: { from: 'bridge', fields: { nonce: req(hex(32)), mac: req(hex(32)) } },
  pair_finish: { from: 'extension', fields: { mac: req(hex(32)), wrapped: req(hex(32)) } },
  paired: { from: 'bridge', fields: {} },
  auth_begin: { from: 'extension', fields: { nonce: req(hex(32)) } },
  auth_proof: { from: 'bridge', fields: { nonce: req(hex(32)), mac: req(hex(32)) } },
  auth_finish: { from: 'extension', fields: { mac: req(hex(32)) } },
  ready: { from: 'both', fields: {} },
  refused: { from: 'both', fields: { code: req(str(64)), message: req(str(1000)) } },
  call: { from: 'bridge', fields: { id: req(callId), method: req((v) => (typeof v === 'string' && CALL_METHODS.includes(v) ? null : `must be one of ${CALL_METHODS.join(', ')}`)), params: opt(obj) } },
  cancel: { from: 'bridge', fields: { id: req(callId) } },
  result: { from: 'extension', fields: { id: req(callId), result: req((v) => (obj(v) ?? (typeof (/** @type {any} */ (v)).ok === 'boolean' ? null : 'must say ok: true or false'))) } },
  progress: { from: 'extension', fields: { id: req(callId), message: req(str(2000)), progress: opt(num), total: opt(num) } },
  tools_changed: { from: 'extension', fields: {} },
  ping: { from: 'both', fields: { t: opt(anything) } },
  pong: { from: 'both', fields: { t: opt(anything) } },
  error: { from: 'both', fields: { code: req(str(64)), message: req(str(1000)) } },
});

/**
 * @typedef {{ type: string } & Record<string, any>} Frame
 * @typedef {{ ok: true, frame: Frame } | { ok: false, code: 'BAD_FRAME', message: string }} Parsed
 */

/**
 * Reads one frame that `from` sent. Never throws.
 * @param {unknown} data the WebSocket message's data @param {'bridge' | 'extension'} from who sent it
 * @returns {Parsed}
 */
export function parseFrame(data, from) {
  if (typeof data !== 'string') return bad('a frame must be a text message holding one JSON object');
  if (data.length > MAX_FRAME_CHARS) return bad(`a frame may hold at most ${MAX_FRAME_CHARS} characters, this one has ${data.length}`);
  /** @type {unknown} */
  let value;
  try { value = JSON.parse(data); } catch (err) { return bad(`not JSON (${err instanceof Error ? err.message.slice(0, 120) : 'unreadable'})`); }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return bad('a frame must be a JSON object');
  const frame = /** @type {Record<string, unknown>} */ (value);
  const type = frame.type;
  if (typeof type !== 'string' || !Object.hasOwn(FRAME_TYPES, type)) return bad(`unknown frame type ${JSON.stringify(type)?.slice(0, 40) ?? 'undefined'}`);
  const spec = FRAME_TYPES[type];
  if (spec.from !== 'both' && spec.from !== from) return bad(`a ${type} frame comes from the ${spec.from}, not the ${from}`);
  for (const [name, field] of Object.entries(spec.fields)) {
    const v = frame[name];
    if (v === undefined) { if (field.optional) continue; return bad(`${type}: ${name} is missing`); }
    const wrong = field.check(v);
    if (wrong) return bad(`${type}: ${name} ${wrong}`);
  }
  return { ok: true, frame: /** @type {Frame} */ (frame) };
}

/** @param {string} message @returns {Parsed} */
function bad(message) { return fail('BAD_FRAME', message); }

/**
 * One frame as text; a frame too long to send becomes the error its receiver would have given.
 * @param {Frame} frame @returns {string}
 */
export function encodeFrame(frame) {
  const text = JSON.stringify(frame);
  if (text.length <= MAX_FRAME_CHARS) return text;
  if (frame.type === 'result') {
    return JSON.stringify({ type: 'result', id: frame.id, result: fail('RESULT_TOO_LARGE', `${text.length} characters, more than the ${MAX_FRAME_CHARS} the bridge carries; a subtree or maxChars gives less`) });
  }
  return JSON.stringify({ type: 'error', ...errorOf('FRAME_TOO_LARGE', `a ${frame.type} frame of ${text.length} characters, more than ${MAX_FRAME_CHARS}`) });
}
