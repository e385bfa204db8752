import { expect } from 'chai';
import { runAgent } from '../../src/chrome/agent/loop.js';
import { COMPACTION_DEFAULTS, SUMMARY_PREFIX, compact, compactionReason, prepareForRequest, trimHard } from '../../src/chrome/agent/compaction.js';
import { ProviderError } from '../../src/chrome/providers/errors.js';
import { fakeProvider, say, call } from './fake-provider.js';
import { fakeBrowser } from './fake-browser.js';

/** @import { AgentEvent, ChatMessage, ChatRequest, StreamEvent } from '../../src/chrome/types/core' */

const TASK = 'Collect every price on the page into a list';

/** A conversation of n tool steps after the system prompt and the task. @param {number} n @param {number} [size] */
function conversation(n, size = 10) {
  /** @type {ChatMessage[]} */
  const m = [{ role: 'system', content: 'sys' }, { role: 'user', content: TASK }];
  for (let i = 0; i < n; i++) {
    m.push({ role: 'assistant', content: '', toolCalls: [{ id: `c${i}`, name: 'type', arguments: JSON.stringify({ ref: 'e1', text: `item ${i}` }) }] });
    m.push({ role: 'tool', toolCallId: `c${i}`, name: 'type', content: 'x'.repeat(size) });
  }
  return m;
}

/** Rule-based fake turns: the summarizer's request gets a summary, every other one a fresh type call. */
function ruleTurn(/** @type {{ summaries: number, n: number }} */ state, total = 40) {
  return (/** @type {ChatRequest} */ req) => {
    if (req.tools.length === 0) { state.summaries++; return say(`summary #${state.summaries}`); }
    state.n++;
    if (state.n > total) return call({ name: 'done', args: { summary: 'all typed' } });
    return call({ name: 'type', args: { ref: 'e1', text: `entry ${state.n}` } });
  };
}

describe('context compaction', () => {
  const cfg = { ...COMPACTION_DEFAULTS };

  it('triggers on the message count', () => {
    expect(compactionReason(conversation(24), cfg)).to.equal(null);
    expect(compactionReason(conversation(25), cfg)).to.equal('messages');
  });
  it('triggers on characters', () => {
    expect(compactionReason(conversation(5, 15_000), cfg)).to.equal(null);
    expect(compactionReason(conversation(6, 15_000), cfg)).to.equal('chars');
  });
  it('triggers on a share of the context window, preferring the provider\'s reported tokens', () => {
    const small = { ...cfg, contextWindow: 10_000 };
    const m = conversation(3, 100);
    expect(compactionReason(m, small, 7_400)).to.equal(null);
    expect(compactionReason(m, small, 7_500)).to.equal('tokens');
    // Without a report, characters / 4 estimate the tokens.
    expect(compactionReason(conversation(8, 4_000), small, null)).to.equal('tokens');
    expect(compactionReason(conversation(8, 4_000), { ...small, contextWindow: 100_000 }, null)).to.equal(null);
  });

  it('keeps the system prompt, the task, a summary and the last turns verbatim, never starting on an orphan tool result', async () => {
    const m = conversation(30);
    // keepLast 31 would start on a tool result: the tail starts one later, on its assistant call.
    const tail = m.slice(-30);
    /** @type {ChatMessage[][]} */
    const seen = [];
    const r = await compact(m, { ...cfg, keepLast: 31 }, async (older) => { seen.push(older); return 'they typed items 0 to 15'; });
    expect(r).to.deep.equal({ before: 62, after: 33 });
    expect(m[0]).to.deep.equal({ role: 'system', content: 'sys' });
    expect(m[1]).to.deep.equal({ role: 'user', content: TASK });
    expect(m[2].content).to.equal(`${SUMMARY_PREFIX}\nthey typed items 0 to 15`);
    expect(m[3].role).to.equal('assistant');
    expect(m.slice(3)).to.deep.equal(tail);
    expect(seen[0]).to.have.length(30);
  });

  it('prunes images to the last few and caps older tool results on each request, leaving the stored conversation alone', () => {
    /** @type {ChatMessage[]} */
    const m = [{ role: 'system', content: 'sys' }, { role: 'user', content: TASK }];
    for (let i = 0; i < 6; i++) m.push({ role: 'user', content: [{ type: 'text', text: `shot ${i}` }, { type: 'image', mediaType: 'image/png', data: 'AAAA' }] });
    m.push({ role: 'tool', toolCallId: 'a', name: 'read_page', content: 'y'.repeat(20_000) });
    m.push({ role: 'tool', toolCallId: 'b', name: 'read_page', content: 'z'.repeat(20_000) });
    const out = prepareForRequest(m, { ...cfg, keepImages: 4 });
    const withImages = out.filter((x) => Array.isArray(x.content) && x.content.some((p) => p.type === 'image'));
    expect(withImages.map((x) => /** @type {any} */ (x.content)[0].text)).to.deep.equal(['shot 2', 'shot 3', 'shot 4', 'shot 5']);
    expect(JSON.stringify(out[2].content)).to.contain('[image removed to save context]');
    expect(String(out.at(-2)?.content).length).to.be.lessThan(8_100);
    expect(String(out.at(-1)?.content)).to.have.length(20_000);
    expect(JSON.stringify(m)).to.not.contain('image removed');
  });

  it('compacts a long run at least twice mid-flight and every request still carries the original task', async () => {
    const state = { summaries: 0, n: 0 };
    const turns = Array.from({ length: 200 }, () => ruleTurn(state, 120));
    const provider = fakeProvider(turns);
    /** @type {AgentEvent[]} */
    const events = [];
    /** @type {ChatMessage[]} */
    const messages = [{ role: 'system', content: 'sys' }, { role: 'user', content: TASK }];
    const outcome = await runAgent({ provider, mode: 'act', messages, maxSteps: 150, toolContext: { tabId: 1, browser: fakeBrowser() }, emit: (e) => events.push(e) });
    expect(outcome.status).to.equal('done');
    const compactions = events.filter((e) => e.type === 'compacted');
    expect(compactions.length).to.be.at.least(2);
    expect(compactions.every((e) => e.type === 'compacted' && e.reason === 'messages')).to.equal(true);
    const agentRequests = provider.requests.filter((r) => r.tools.length > 0);
    expect(agentRequests).to.have.length(121);
    for (const r of agentRequests) {
      expect(r.messages[1]).to.deep.equal({ role: 'user', content: TASK });
      expect(r.messages.length).to.be.at.most(52);
    }
    const last = /** @type {ChatRequest} */ (agentRequests.at(-1));
    expect(String(last.messages[2].content)).to.match(/^\[Summary of the earlier part[^\n]*\nsummary #\d+$/);
  });

  it('compacts on the provider\'s reported prompt tokens', async () => {
    const state = { summaries: 0, n: 0 };
    const rule = ruleTurn(state, 4);
    /** @param {ChatRequest} req @returns {StreamEvent[]} */
    const withUsage = (req) => [{ type: 'usage', usage: { inputTokens: 9_000, outputTokens: 5 } }, ...rule(req)];
    const provider = fakeProvider(Array.from({ length: 10 }, () => withUsage));
    provider.limits = async () => ({ contextWindow: 10_000, maxOutput: 1_000, source: 'settings' });
    /** @type {AgentEvent[]} */
    const events = [];
    const messages = conversation(4);
    await runAgent({ provider, mode: 'act', messages, toolContext: { tabId: 1, browser: fakeBrowser() }, emit: (e) => events.push(e), compaction: { keepLast: 4 } });
    const first = events.find((e) => e.type === 'compacted');
    expect(first).to.include({ reason: 'tokens' });
  });

  it('trims hard and retries once on a context-overflow error', async () => {
    const overflow = new ProviderError('CONTEXT_OVERFLOW', 'Fake says the conversation is too long.', { status: 400 });
    const provider = fakeProvider([overflow, say('Answered after the trim.')]);
    /** @type {AgentEvent[]} */
    const events = [];
    const messages = conversation(20);
    const outcome = await runAgent({ provider, mode: 'act', messages, toolContext: { tabId: 1, browser: fakeBrowser() }, emit: (e) => events.push(e) });
    expect(outcome).to.include({ status: 'answered', text: 'Answered after the trim.' });
    expect(provider.requests).to.have.length(2);
    expect(provider.requests[0].messages).to.have.length(42);
    expect(provider.requests[1].messages.map((x) => x.role)).to.deep.equal(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool']);
    expect(provider.requests[1].messages[1].content).to.equal(TASK);
    expect(events.find((e) => e.type === 'compacted')).to.include({ reason: 'overflow', before: 42, after: 8 });
  });

  it('gives up after one retry when the provider still overflows', async () => {
    const overflow = () => new ProviderError('CONTEXT_OVERFLOW', 'Still too long.', { status: 400 });
    const provider = fakeProvider([overflow(), overflow(), say('never')]);
    const outcome = await runAgent({ provider, mode: 'act', messages: conversation(20), toolContext: { tabId: 1, browser: fakeBrowser() }, emit: () => {} });
    expect(outcome.status).to.equal('error');
    expect(outcome.error?.code).to.equal('CONTEXT_OVERFLOW');
    expect(provider.requests).to.have.length(2);
  });

  it('keeps the last summary when trimming hard', () => {
    const m = conversation(10);
    m.splice(2, 0, { role: 'user', content: `${SUMMARY_PREFIX}\nearlier work` });
    trimHard(m, 4);
    expect(m.map((x) => x.role)).to.deep.equal(['system', 'user', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(String(m[2].content)).to.contain('earlier work');
  });

  it('pins the scratchpad note to every request, across compaction', async () => {
    const state = { summaries: 0, n: 0 };
    const rule = ruleTurn(state, 60);
    let wrote = false;
    /** @param {ChatRequest} req */
    const turn = (req) => {
      if (req.tools.length && !wrote) { wrote = true; return call({ name: 'scratchpad', args: { note: 'Prices so far: 3.50, 4.20' } }); }
      return rule(req);
    };
    const provider = fakeProvider(Array.from({ length: 80 }, () => turn));
    /** @type {AgentEvent[]} */
    const events = [];
    const pinned = { note: '' };
    await runAgent({ provider, mode: 'act', messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: TASK }], pinned, toolContext: { tabId: 1, browser: fakeBrowser() }, emit: (e) => events.push(e) });
    expect(events.some((e) => e.type === 'compacted')).to.equal(true);
    expect(pinned.note).to.equal('Prices so far: 3.50, 4.20');
    const agentRequests = provider.requests.filter((r) => r.tools.length > 0);
    expect(String(agentRequests.at(-1)?.messages[0].content)).to.contain('Prices so far: 3.50, 4.20');
    expect(String(agentRequests[0].messages[0].content)).to.not.contain('scratchpad note');
  });
});
