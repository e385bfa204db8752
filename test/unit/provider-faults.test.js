// The fault matrix: every fault a provider can produce × every native wire format, through the
// provider exactly as the extension builds it (createProvider: native format + retries), against
// the mock server. Waits go through a fake clock: retries are checked, never slept.
import { expect } from 'chai';
import { createProvider } from '../../src/chrome/providers/index.js';
import { collect } from '../../src/chrome/providers/base.js';
import { ProviderError } from '../../src/chrome/providers/errors.js';
import { runAgent } from '../../src/chrome/agent/loop.js';
import { Session } from '../../src/chrome/service/session.js';
import { startMockLLM, errorFor } from '../fixtures/llm/server.js';
import { fakeBrowser } from './fake-browser.js';

/** @import { ChatMessage, AgentEvent } from '../../src/chrome/types/core' */
/** @import { WireFormat } from '../fixtures/llm/server.js' */

/** @type {Record<WireFormat, { kind: 'openai' | 'anthropic' | 'gemini' | 'ollama', name: string, midToolCut: number, toolReply: import('../fixtures/llm/openai-wire.js').ScriptedReply }>} */
const FORMATS = {
  // cut points are frame counts that land after the tool call began and before the answer ended
  openai: { kind: 'openai', name: 'OpenAI-compatible', midToolCut: 3, toolReply: { toolCalls: [{ name: 'click', args: { ref: 'e1' } }] } },
  anthropic: { kind: 'anthropic', name: 'Anthropic', midToolCut: 3, toolReply: { toolCalls: [{ name: 'click', args: { ref: 'e1' } }] } },
  // Gemini sends a function call whole: the cut lands after the text, before the call's frame.
  gemini: { kind: 'gemini', name: 'Google Gemini', midToolCut: 2, toolReply: { text: 'Clicking now.', toolCalls: [{ name: 'click', args: { ref: 'e1' } }] } },
  ollama: { kind: 'ollama', name: 'Ollama', midToolCut: 4, toolReply: { text: 'Clicking now.', toolCalls: [{ name: 'click', args: { ref: 'e1' } }] } },
};

describe('provider fault matrix (each fault × each native format)', () => {
  /** @type {Awaited<ReturnType<typeof startMockLLM>>} */
  let llm;
  before(async () => { llm = await startMockLLM(); });
  after(async () => { await llm.close(); });

  for (const [format, f] of /** @type {[WireFormat, typeof FORMATS.openai][]} */ (Object.entries(FORMATS))) {
    describe(format, () => {
      /** @type {number[]} */
      let waits;
      /** @type {{ ms: number, attempt: number, reason: string, message: string }[]} */
      let waiting;
      /** @param {{ fetch?: typeof fetch, maxRetries?: number, timeoutMs?: number, baseUrl?: string }} [o] */
      const make = (o = {}) => createProvider(
        { kind: f.kind, baseUrl: o.baseUrl ?? llm.baseUrls[format], model: 'mock-1', apiKey: 'key-1', maxRetries: o.maxRetries, timeoutMs: o.timeoutMs ?? 2000 },
        { fetch: o.fetch ?? fetch, clock: { sleep: async (ms) => { waits.push(ms); } }, onWaiting: (w) => waiting.push(w) },
      );
      beforeEach(() => { waits = []; waiting = []; });
      const hi = () => ({ messages: /** @type {ChatMessage[]} */ ([{ role: 'user', content: 'hi' }]), tools: [] });
      /** @param {ReturnType<typeof make>} p */
      const fail = (p) => collect(p.chatStream(hi())).then(() => { throw new Error('expected a failure'); }, (e) => e);

      for (const status of [401, 403]) {
        it(`${status} → AUTH_FAILED naming ${f.name} and the setting, not retried`, async () => {
          llm.script([{ error: { status, body: errorFor(format, status, 'bad key') } }]);
          const e = await fail(make());
          expect(e).to.be.instanceOf(ProviderError);
          expect(e.code).to.equal('AUTH_FAILED');
          expect(e.message).to.match(new RegExp(`^${f.name} \\(`)).and.to.contain('Settings → Provider').and.to.contain('API key');
          expect(llm.requests).to.have.length(1);
          expect(waits).to.deep.equal([]);
        });
      }

      it('429 with Retry-After → waits that long (reported as waiting), then succeeds', async () => {
        llm.script([{ error: { status: 429, body: errorFor(format, 429, 'slow down'), headers: { 'retry-after': '7' } } }, { text: 'after the wait' }]);
        const r = await collect(make().chatStream(hi()));
        expect(r.text).to.equal('after the wait');
        expect(waits).to.deep.equal([7000]);
        expect(waiting).to.have.length(1);
        expect(waiting[0]).to.include({ ms: 7000, attempt: 1, reason: 'RATE_LIMITED' });
        expect(waiting[0].message).to.contain(f.name).and.to.contain('waiting 7 s');
      });

      it('429 without Retry-After → exponential backoff', async () => {
        /** @type {import('../fixtures/llm/server.js').Turn[]} */
        const turns = [429, 429].map((status) => ({ error: { status, body: errorFor(format, status, 'slow down') } }));
        llm.script([...turns, { text: 'ok' }]);
        expect((await collect(make().chatStream(hi()))).text).to.equal('ok');
        expect(waits).to.deep.equal([1000, 2000]);
      });

      it('5xx → bounded retries, then a clear SERVER_ERROR', async () => {
        llm.script([500, 502, 503].map((status) => ({ error: { status, body: errorFor(format, status, 'upstream trouble') } })));
        const e = await fail(make({ maxRetries: 2 }));
        expect(e.code).to.equal('SERVER_ERROR');
        expect(e.message).to.contain('upstream trouble').and.to.contain('Gave up after 3 attempts');
        expect(llm.requests).to.have.length(3);
        expect(waits).to.deep.equal([1000, 2000]);
      });

      it('5xx once → retried and succeeds', async () => {
        llm.script([{ error: { status: 500, body: errorFor(format, 500, 'oops') } }, { text: 'recovered' }]);
        expect((await collect(make().chatStream(hi()))).text).to.equal('recovered');
        expect(waits).to.deep.equal([1000]);
      });

      it('network error → retried; a dead server ends in NETWORK_ERROR saying what to check', async () => {
        let failures = 1;
        /** @type {typeof fetch} */
        const flaky = (input, init) => (failures-- > 0 ? Promise.reject(new TypeError('fetch failed')) : fetch(input, init));
        llm.script([{ text: 'back online' }]);
        expect((await collect(make({ fetch: flaky }).chatStream(hi()))).text).to.equal('back online');
        expect(waits).to.deep.equal([1000]);
        waits = [];
        const e = await fail(make({ baseUrl: 'http://127.0.0.1:9', maxRetries: 1 }));
        expect(e.code).to.equal('NETWORK_ERROR');
        expect(e.message).to.contain('Check that the server is running and the base URL');
        expect(waits).to.have.length(1);
      });

      it('time-out (configurable) → retried once at most, then TIMEOUT; the wait says the time-out', async () => {
        /** @type {typeof fetch} */
        const hang = (_u, init) => new Promise((_r, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
        const e = await fail(make({ fetch: hang, timeoutMs: 20, maxRetries: 3 }));
        const said = waiting.map((w) => w.message);
        expect(e.code).to.equal('TIMEOUT');
        expect(e.message).to.contain('raise the time-out in Settings');
        expect(waits).to.have.length(1);
        expect(said).to.have.length(1);
        expect(said[0]).to.match(/did not answer within 0 s; waiting 1 s, then trying once more/);
      });

      it('a stream that stalls before any content → retried once, not three times', async () => {
        llm.script([{ ...f.toolReply, stallAfterChunks: 0 }, { ...f.toolReply, stallAfterChunks: 0 }, f.toolReply, f.toolReply]);
        const e = await fail(make({ timeoutMs: 100, maxRetries: 3 }));
        expect(e.code).to.equal('TIMEOUT');
        expect(llm.requests).to.have.length(2);
      });

      it('a stream that stalls mid-answer → TIMEOUT after the configured time, nothing half-kept', async () => {
        llm.script([{ ...f.toolReply, stallAfterChunks: f.midToolCut }]);
        const e = await fail(make({ timeoutMs: 150 }));
        expect(e.code).to.equal('TIMEOUT');
        expect(e.message).to.contain('stopped sending mid-answer');
        expect(llm.requests).to.have.length(1);
      });

      it('stream cut before anything arrived → retried transparently', async () => {
        llm.script([{ ...f.toolReply, cutAfterChunks: 0 }, f.toolReply]);
        const r = await collect(make().chatStream(hi()));
        expect(r.toolCalls.map((c) => [c.name, c.arguments])).to.deep.equal([['click', '{"ref":"e1"}']]);
        expect(llm.requests).to.have.length(2);
      });

      it('stream cut mid-tool-call → STREAM_CUT, and the conversation is not half-written', async () => {
        llm.script([{ ...f.toolReply, cutAfterChunks: f.midToolCut }]);
        /** @type {ChatMessage[]} */
        const messages = [{ role: 'system', content: 'sys' }, { role: 'user', content: 'click it' }];
        const before = structuredClone(messages);
        /** @type {AgentEvent[]} */
        const events = [];
        const browser = fakeBrowser();
        const outcome = await runAgent({ provider: make(), mode: 'act', messages, toolContext: { tabId: 1, browser }, emit: (e) => events.push(e) });
        expect(outcome.status).to.equal('error');
        expect(outcome.error?.code).to.equal('STREAM_CUT');
        expect(outcome.error?.message).to.contain(f.name).and.to.contain('Try again');
        expect(messages).to.deep.equal(before);
        expect(browser.sent).to.deep.equal([]);
        expect(events.filter((e) => e.type === 'tool_call')).to.deep.equal([]);
      });
    });
  }

  it('usage and cost are summed per conversation and pushed to the panel', () => {
    const s = new Session(1);
    /** @type {any[]} */
    const pushed = [];
    s.listeners.add((e) => pushed.push(e));
    s.apply({ type: 'usage', usage: { inputTokens: 1000, outputTokens: 100, costUsd: 0.0045 } });
    s.apply({ type: 'usage', usage: { inputTokens: 2000, outputTokens: 50, costUsd: 0.00675 } });
    s.apply({ type: 'waiting', ms: 7000, attempt: 1, reason: 'RATE_LIMITED', message: 'Anthropic is rate-limiting requests; waiting 7 s before retry 1 of 3.' });
    expect(pushed[1]).to.deep.equal({ type: 'usage', usage: { inputTokens: 3000, outputTokens: 150, calls: 2, costUsd: 0.0045 + 0.00675 } });
    expect(pushed[2]).to.deep.equal({ type: 'status', text: 'Anthropic is rate-limiting requests; waiting 7 s before retry 1 of 3.' });
  });
});
