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
});
