// The bridge ⇄ extension frames (src/chrome/mcp-protocol/frames.js): well-formed frames pass, every kind of
// malformed one gets BAD_FRAME with a sentence, and a fuzz of random and mutated frames never
// throws nor lets a bad frame through.
import { expect } from 'chai';
import { parseFrame, encodeFrame, FRAME_TYPES, MAX_FRAME_CHARS } from '../../src/chrome/mcp-protocol/frames.js';

const HEX32 = 'ab'.repeat(32);
const HEX16 = 'cd'.repeat(16);

/** One valid frame of each type, with who sends it. @type {[Record<string, any>, 'bridge' | 'extension'][]} */
const VALID = [
  [{ type: 'hello', v: 1, bridgeId: HEX16, name: 'Claude Code', paired: false }, 'bridge'],
  [{ type: 'client', name: 'Cursor' }, 'bridge'],
  [{ type: 'pair_begin', nonce: HEX32 }, 'extension'],
  [{ type: 'pair_proof', nonce: HEX32, mac: HEX32 }, 'bridge'],
  [{ type: 'pair_finish', mac: HEX32, wrapped: HEX32 }, 'extension'],
  [{ type: 'paired' }, 'bridge'],
  [{ type: 'auth_begin', nonce: HEX32 }, 'extension'],
  [{ type: 'auth_proof', nonce: HEX32, mac: HEX32 }, 'bridge'],
  [{ type: 'auth_finish', mac: HEX32 }, 'extension'],
  [{ type: 'ready' }, 'bridge'],
  [{ type: 'refused', code: 'MCP_REVOKED', message: 'Revoked.' }, 'extension'],
  [{ type: 'call', id: 1, method: 'tool.call', params: { name: 'snapshot', arguments: {} } }, 'bridge'],
  [{ type: 'cancel', id: 'a1' }, 'bridge'],
  [{ type: 'result', id: 1, result: { ok: true, data: { text: 'x' } } }, 'extension'],
  [{ type: 'progress', id: 1, message: 'Step 1: snapshot', progress: 1 }, 'extension'],
  [{ type: 'tools_changed' }, 'extension'],
  [{ type: 'ping', t: 1 }, 'extension'],
  [{ type: 'pong' }, 'bridge'],
  [{ type: 'error', code: 'BAD_FRAME', message: 'x' }, 'bridge'],
];

describe('MCP bridge frames', () => {
  it('accepts one well-formed frame of every type, from its sender', () => {
    expect(VALID.map(([f]) => f.type).sort()).to.deep.equal(Object.keys(FRAME_TYPES).sort());
    for (const [f, from] of VALID) {
      const r = parseFrame(JSON.stringify(f), from);
      expect(r, f.type).to.deep.equal({ ok: true, frame: f });
    }
  });

  it('refuses each kind of malformed frame with BAD_FRAME and a sentence naming the problem', () => {
    /** @type {[unknown, 'bridge' | 'extension', RegExp][]} */
    const cases = [
      [new Uint8Array([1, 2]), 'bridge', /text message/],
      ['{"type":"hello"', 'bridge', /not JSON/],
      ['[1,2]', 'bridge', /JSON object/],
      ['null', 'bridge', /JSON object/],
      ['"hello"', 'bridge', /JSON object/],
      ['{"type":"launch_missiles"}', 'bridge', /unknown frame type "launch_missiles"/],
      ['{"type":"__proto__"}', 'bridge', /unknown frame type/],
      ['{"type":"toString"}', 'bridge', /unknown frame type/],
      ['{}', 'bridge', /unknown frame type undefined/],
      [JSON.stringify({ type: 'call', id: 1, method: 'tool.call' }), 'extension', /comes from the bridge, not the extension/],
      [JSON.stringify({ type: 'hello', v: 1, bridgeId: 'xyz', name: 'a', paired: false }), 'bridge', /hello: bridgeId must be 16 bytes/],
      [JSON.stringify({ type: 'auth_proof', nonce: HEX32 }), 'bridge', /auth_proof: mac is missing/],
      [JSON.stringify({ type: 'auth_proof', nonce: HEX32.toUpperCase(), mac: HEX32 }), 'bridge', /nonce must be 32 bytes in lower-case hex/],
      [JSON.stringify({ type: 'call', id: 1, method: 'eval' }), 'bridge', /method must be one of/],
      [JSON.stringify({ type: 'call', id: -1, method: 'tools.list' }), 'bridge', /id must be a call id/],
      [JSON.stringify({ type: 'call', id: 'x'.repeat(65), method: 'tools.list' }), 'bridge', /id must be a call id/],
      [JSON.stringify({ type: 'call', id: 1, method: 'tools.list', params: [1] }), 'bridge', /params must be an object/],
      [JSON.stringify({ type: 'result', id: 1, result: { data: 1 } }), 'extension', /result must say ok/],
      [JSON.stringify({ type: 'client', name: 'n'.repeat(101) }), 'bridge', /at most 100 characters/],
      ['x'.repeat(MAX_FRAME_CHARS + 1), 'bridge', /at most \d+ characters/],
    ];
    for (const [data, from, re] of cases) {
      const r = parseFrame(data, from);
      expect(r.ok, String(data).slice(0, 60)).to.equal(false);
      if (r.ok) continue;
      expect(r.code).to.equal('BAD_FRAME');
      expect(r.message).to.match(/^A bridge message was malformed and was ignored\. \(/).and.match(re);
    }
  });

  it('never throws on random and mutated frames, and lets nothing malformed through (fuzz, 20,000 frames)', function () {
    // A hang guard only: the work is fixed (20,000 frames), and a busy machine may take many times longer.
    this.timeout(120_000);
    let seed = 21;
    const rand = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
    const pick = (/** @type {any[]} */ a) => a[Math.floor(rand() * a.length)];
    const junk = () => pick([null, true, 0, -1, 1.5, NaN, '', 'x', 'ab'.repeat(64), [], {}, { a: 1 }, '\u0000', '\ud800', 2 ** 60, HEX32, HEX16]);
    const validFor = (/** @type {Record<string, any>} */ f, /** @type {string} */ from) => {
      const spec = FRAME_TYPES[f.type];
      return spec && (spec.from === 'both' || spec.from === from);
    };
    let passed = 0;
    for (let i = 0; i < 20_000; i++) {
      const [base, from] = pick(VALID);
      const f = { ...base };
      const mutation = Math.floor(rand() * 6);
      /** @type {unknown} */
      let data;
      if (mutation === 0) { const k = pick(Object.keys(f)); f[k] = junk(); data = JSON.stringify(f); }
      else if (mutation === 1) { delete f[pick(Object.keys(f))]; data = JSON.stringify(f); }
      else if (mutation === 2) { const s = JSON.stringify(f); const at = Math.floor(rand() * s.length); data = s.slice(0, at) + String.fromCharCode(Math.floor(rand() * 128)) + s.slice(at + 1); }
      else if (mutation === 3) { const s = JSON.stringify(f); data = s.slice(0, Math.floor(rand() * s.length)); }
      else if (mutation === 4) { data = junk(); if (rand() < 0.5) data = JSON.stringify(data); }
      else { f.extra = junk(); data = JSON.stringify(f); }
      const who = rand() < 0.8 ? from : (from === 'bridge' ? 'extension' : 'bridge');
      /** @type {ReturnType<typeof parseFrame>} */
      let r;
      expect(() => { r = parseFrame(data, who); }).not.to.throw();
      r = parseFrame(data, who);
      if (r.ok) {
        passed++;
        // What passes is an object of a known type from its sender, with every required field checked.
        expect(validFor(r.frame, who)).to.equal(true);
        const again = parseFrame(JSON.stringify(r.frame), who);
        expect(again.ok).to.equal(true);
      } else {
        expect(r.code).to.equal('BAD_FRAME');
        expect(r.message).to.be.a('string').and.match(/^A bridge message was malformed and was ignored\. \(.+\)$/s);
      }
    }
    expect(passed).to.be.greaterThan(1000);
  });

  it('turns a result too large to carry into an error its caller can read', () => {
    const big = encodeFrame({ type: 'result', id: 7, result: { ok: true, data: 'x'.repeat(MAX_FRAME_CHARS) } });
    const r = parseFrame(big, 'extension');
    expect(r.ok && r.frame.result).to.deep.include({ ok: false, code: 'RESULT_TOO_LARGE' });
  });
});
