import { expect } from 'chai';
import { Session } from '../../src/chrome/service/session.js';

describe('session transcript', () => {
  it('folds streamed text, tool calls and the final answer into panel items and broadcasts them', () => {
    const s = new Session(4);
    /** @type {any[]} */
    const seen = [];
    s.listeners.add((e) => seen.push(e));
    s.addUser('hi', 'ask');
    s.apply({ type: 'text_delta', messageId: 'a1', text: 'Hel' });
    s.apply({ type: 'text_delta', messageId: 'a1', text: 'lo' });
    s.apply({ type: 'assistant_done', messageId: 'a1', text: 'Hello' });
    s.apply({ type: 'tool_call', id: 'c1', name: 'snapshot', args: {} });
    s.apply({ type: 'tool_result', id: 'c1', name: 'snapshot', result: { ok: true, data: 'x' } });
    s.apply({ type: 'final', text: 'Done.' });
    expect(s.items.map((i) => i.kind)).to.deep.equal(['user', 'assistant', 'tool', 'assistant']);
    expect(s.items[1]).to.include({ text: 'Hello', streaming: false });
    expect(s.items[2]).to.deep.include({ result: { ok: true, data: 'x' } });
    expect(s.items[3]).to.include({ text: 'Done.', final: true });
    expect(seen.map((e) => e.type)).to.deep.equal(['upsert', 'upsert', 'delta', 'upsert', 'upsert', 'upsert', 'upsert']);
  });
  it('marks a streamed answer as final instead of repeating it', () => {
    const s = new Session(1);
    s.apply({ type: 'text_delta', messageId: 'a', text: 'Answer' });
    s.apply({ type: 'assistant_done', messageId: 'a', text: 'Answer' });
    s.apply({ type: 'final', text: 'Answer' });
    expect(s.items).to.have.length(1);
    expect(s.items[0]).to.include({ final: true, streaming: false });
  });
  it('keeps every step card when the model server reuses call ids (call_0 in every turn, or after a restart)', () => {
    const s = new Session(2);
    s.apply({ type: 'tool_call', id: 'call_0', name: 'snapshot', args: {} });
    s.apply({ type: 'tool_result', id: 'call_0', name: 'snapshot', result: { ok: true, data: 'first' } });
    s.apply({ type: 'tool_call', id: 'call_0', name: 'click', args: { ref: 'e1' } });
    s.apply({ type: 'tool_image', id: 'call_0', image: 'data:image/png;base64,AAAA' });
    s.apply({ type: 'tool_result', id: 'call_0', name: 'click', result: { ok: true, data: 'second' } });
    const tools = /** @type {any[]} */ (s.items.filter((i) => i.kind === 'tool'));
    expect(tools.map((t) => [t.name, t.result.data])).to.deep.equal([['snapshot', 'first'], ['click', 'second']]);
    expect(new Set(tools.map((t) => t.id)).size).to.equal(2);
    expect(tools[0].shot).to.equal(undefined);
    expect(tools[1].shot).to.equal('data:image/png;base64,AAAA');
  });
  it('puts the run\'s verdict on the final answer', () => {
    const s = new Session(3);
    /** @type {import('../../src/chrome/types/core').Outcome} */
    const outcome = { verdict: 'failed', reasons: [{ code: 'WRITE_REFUSED', message: 'refused' }], receipt: [] };
    s.apply({ type: 'final', text: 'Saved.', outcome });
    expect(s.items[0]).to.deep.include({ final: true, outcome });
  });
});
