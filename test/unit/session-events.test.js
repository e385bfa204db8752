// The transcript's event folders (service/session-events.js), each on a real Session.
import { expect } from 'chai';
import { Session } from '../../src/chrome/service/session.js';
import { EVENT_FOLDS, foldError, foldFinal, foldPlan, foldPlanStep, foldTextDelta, foldToolImage, foldToolResult, foldUsage } from '../../src/chrome/service/session-events.js';

/** @param {number} [tabId] */
function watched(tabId = 1) {
  const s = new Session(tabId);
  /** @type {any[]} */
  const seen = [];
  s.listeners.add((e) => seen.push(e));
  return { s, seen };
}

describe('session events: one folder per agent event', () => {
  it('has a folder for every agent event type', () => {
    expect(Object.keys(EVENT_FOLDS).sort()).to.deep.equal(['assistant_done', 'compacted', 'error', 'final', 'guidance', 'notice', 'plan', 'plan_step', 'text_delta', 'tool_call', 'tool_image', 'tool_result', 'usage', 'waiting']);
  });
  it('foldTextDelta opens a streaming card, then sends only deltas', () => {
    const { s, seen } = watched();
    foldTextDelta(s, { type: 'text_delta', messageId: 'm', text: 'a' });
    foldTextDelta(s, { type: 'text_delta', messageId: 'm', text: 'b' });
    expect(s.items).to.deep.equal([{ kind: 'assistant', id: 'm', text: 'ab', streaming: true }]);
    expect(seen.map((e) => e.type)).to.deep.equal(['upsert', 'delta']);
  });
  it('foldToolResult fills only a tool card and keeps optional fields out when absent', () => {
    const { s } = watched();
    s.apply({ type: 'tool_call', id: 'c', name: 'click', args: { ref: 'e1' } });
    foldToolResult(s, { type: 'tool_result', id: 'c', name: 'click', result: { ok: true, data: 1 }, ms: 5 });
    expect(s.items[0]).to.deep.include({ result: { ok: true, data: 1 }, ms: 5, args: { ref: 'e1' } });
    expect(s.items[0]).to.not.have.property('target');
    foldToolResult(s, { type: 'tool_result', id: 'nobody', name: 'x', result: { ok: true, data: 2 } });
    expect(s.items).to.have.length(1);
  });
  it('foldToolImage keeps image data URLs only', () => {
    const { s } = watched();
    s.apply({ type: 'tool_call', id: 'c', name: 'screenshot', args: {} });
    foldToolImage(s, { type: 'tool_image', id: 'c', image: 'javascript:alert(1)' });
    expect(s.items[0]).to.not.have.property('shot');
    foldToolImage(s, { type: 'tool_image', id: 'c', image: 'data:image/webp;base64,AA' });
    expect(s.items[0]).to.include({ shot: 'data:image/webp;base64,AA' });
  });
  it('foldFinal adds a new final card when the last card says something else', () => {
    const { s } = watched();
    foldTextDelta(s, { type: 'text_delta', messageId: 'm', text: 'thinking' });
    foldFinal(s, { type: 'final', text: 'Done.' });
    expect(s.items.map((i) => /** @type {any} */ (i).final ?? false)).to.deep.equal([false, true]);
  });
  it('foldError ends streaming answers before the error card', () => {
    const { s } = watched();
    foldTextDelta(s, { type: 'text_delta', messageId: 'm', text: 'half' });
    foldError(s, { type: 'error', code: 'PROVIDER_ERROR', message: 'cut' });
    expect(s.items[0]).to.include({ streaming: false });
    expect(s.items[1]).to.include({ kind: 'error', code: 'PROVIDER_ERROR', message: 'cut' });
  });
  it('foldPlan keeps progress for the same steps and foldPlanStep records a step', () => {
    const { s } = watched();
    foldPlan(s, { type: 'plan', planId: 'p', steps: ['a', 'b'], status: 'pending' });
    foldPlanStep(s, { type: 'plan_step', planId: 'p', index: 0, status: 'ok', output: 'fine' });
    foldPlan(s, { type: 'plan', planId: 'p', steps: ['a', 'b'], status: 'running' });
    expect(s.items[0]).to.deep.include({ status: 'running', stepStatus: ['ok', 'pending'], outputs: ['fine', ''] });
    foldPlan(s, { type: 'plan', planId: 'p', steps: ['a', 'b', 'c'], status: 'running' });
    expect(s.items[0]).to.deep.include({ stepStatus: ['pending', 'pending', 'pending'] });
    foldPlanStep(s, { type: 'plan_step', planId: 'missing', index: 0, status: 'ok' });
    expect(s.items).to.have.length(1);
  });
  it('foldUsage adds up tokens and cost and marks estimates', () => {
    const { s, seen } = watched();
    foldUsage(s, { type: 'usage', usage: { inputTokens: 10, outputTokens: 2, costUsd: 0.5 } });
    foldUsage(s, { type: 'usage', usage: { inputTokens: 5, outputTokens: 1, estimated: true } });
    expect(s.usage).to.deep.equal({ inputTokens: 15, outputTokens: 3, calls: 2, costUsd: 0.5, estimated: true });
    expect(seen.at(-1)).to.deep.equal({ type: 'usage', usage: s.usage });
  });
  it('a provider waiting is said on the status line only; an unknown event changes nothing', () => {
    const { s, seen } = watched();
    s.apply({ type: 'waiting', ms: 1000, attempt: 1, reason: '429', message: 'Waiting 1 s' });
    s.apply(/** @type {any} */ ({ type: 'toString' }));
    expect(s.items).to.deep.equal([]);
    expect(seen).to.deep.equal([{ type: 'status', text: 'Waiting 1 s' }]);
  });
});
