import { expect } from 'chai';
import { readSSE } from '../../src/chrome/providers/sse.js';

/** @param {string[]} pieces */
function stream(pieces) {
  const enc = new TextEncoder();
  return new ReadableStream({ start(c) { for (const p of pieces) c.enqueue(enc.encode(p)); c.close(); } });
}

/** @param {string[]} pieces */
async function collect(pieces) {
  const out = [];
  for await (const e of readSSE(stream(pieces))) out.push(e);
  return out;
}

describe('server-sent events', () => {
  it('reads events split across chunks at any byte', async () => {
    expect(await collect(['da', 'ta: {"a"', ':1}\n', '\ndata: [DONE]\n\n'])).to.deep.equal([
      { event: 'message', data: '{"a":1}' }, { event: 'message', data: '[DONE]' },
    ]);
  });
  it('handles CRLF, comments, named events and multi-line data', async () => {
    expect(await collect([': keep-alive\r\n\r\nevent: delta\r\ndata: one\r\ndata: two\r\n\r\n'])).to.deep.equal([{ event: 'delta', data: 'one\ntwo' }]);
  });
  it('delivers a final event without a trailing blank line', async () => {
    expect(await collect(['data: last'])).to.deep.equal([{ event: 'message', data: 'last' }]);
  });
  it('decodes multi-byte characters split across chunks', async () => {
    const bytes = new TextEncoder().encode('data: café ☕\n\n');
    const s = new ReadableStream({ start(c) { c.enqueue(bytes.slice(0, 10)); c.enqueue(bytes.slice(10)); c.close(); } });
    const out = [];
    for await (const e of readSSE(s)) out.push(e.data);
    expect(out).to.deep.equal(['café ☕']);
  });
});
