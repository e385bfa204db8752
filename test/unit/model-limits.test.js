import { expect } from 'chai';
import { encode } from 'gpt-tokenizer';
import { resolveLimits, defaultLimits, forgetProbes } from '../../src/chrome/providers/limits.js';
import { createProvider } from '../../src/chrome/providers/index.js';
import { runAgent } from '../../src/chrome/agent/loop.js';
import { toolsForMode } from '../../src/chrome/agent/tools/index.js';
import { toolsOfTier, chooseTier, OUTLINE_ROOM_TOKENS } from '../../src/chrome/agent/tool-tiers.js';
import { systemPrompt } from '../../src/chrome/agent/prompts.js';
import { createFence } from '../../src/chrome/agent/untrusted.js';
import { toolPrompt } from '../../src/chrome/providers/tool-protocol.js';
import { budgetsFor } from '../../src/chrome/agent/budget.js';
import { fakeProvider, call, say } from './fake-provider.js';
import { fakeBrowser } from './fake-browser.js';
/** @import { AgentEvent, ChatMessage } from '../../src/chrome/types/core' */

/** A fetch that answers GETs and POSTs from a table of path → JSON; records what it was asked. @param {Record<string, unknown>} routes */
function fakeFetch(routes) {
  /** @type {string[]} */
  const asked = [];
  /** @type {typeof fetch} */
  const f = async (url, init) => {
    const path = new URL(String(url)).pathname;
    asked.push(`${init?.method ?? 'GET'} ${path}`);
    const body = routes[path];
    return body === undefined ? new Response('{}', { status: 404 }) : new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return Object.assign(f, { asked });
}

describe('model limits: every model\'s real window and longest answer', () => {
  beforeEach(() => forgetProbes());

  it('by kind and model: the user\'s setting, else the provider\'s word, the table, a conservative default', () => {
    expect(resolveLimits({ model: 'gpt-4.1-mini', format: 'openai', local: false })).to.deep.equal({ contextWindow: 1_047_576, maxOutput: 32_768, source: 'table' });
    expect(resolveLimits({ model: 'claude-sonnet-4-5', format: 'anthropic', local: false })).to.deep.equal({ contextWindow: 200_000, maxOutput: 64_000, source: 'table' });
    expect(resolveLimits({ model: 'some-new-model', format: 'openai', local: false })).to.deep.equal({ contextWindow: 32_768, maxOutput: 4_096, source: 'default' });
    expect(resolveLimits({ model: 'some-new-model', format: 'anthropic', local: false }).contextWindow).to.equal(200_000);
    expect(resolveLimits({ model: 'some-new-model', format: 'gemini', local: false }).contextWindow).to.equal(1_048_576);
    expect(resolveLimits({ model: 'gemini-nano', format: 'builtin', local: true })).to.deep.equal({ contextWindow: 6_144, maxOutput: 1_024, source: 'default' });
    // A local server runs the window it was started with, not the one the model was trained for.
    expect(resolveLimits({ model: 'llama3.1', format: 'ollama', local: true })).to.deep.equal({ contextWindow: 8_192, maxOutput: 4_096, source: 'default' });
    expect(resolveLimits({ model: 'qwen2.5', format: 'openai', local: true }).contextWindow).to.equal(8_192);
    expect(resolveLimits({ model: 'llama3.1', format: 'ollama', local: true, reported: { contextWindow: 16_384 } })).to.deep.include({ contextWindow: 16_384, source: 'provider' });
    expect(resolveLimits({ model: 'gpt-4o', format: 'openai', local: false, reported: { contextWindow: 64_000 }, override: { contextWindow: 20_000, maxOutput: 500 } })).to.deep.equal({ contextWindow: 20_000, maxOutput: 500, source: 'settings' });
    // An answer never gets more than half the window.
    expect(resolveLimits({ model: 'x', format: 'openai', local: false, override: { contextWindow: 4_000, maxOutput: 4_000 } }).maxOutput).to.equal(2_000);
    expect(defaultLimits('openai', true)).to.deep.equal({ contextWindow: 8_192, maxOutput: 2_048 });
  });

  it('asks each provider API what it knows: OpenRouter-style lists, Gemini\'s model, Ollama\'s /api/show (and asks Ollama for that window)', async () => {
    const or = fakeFetch({ '/api/v1/models': { data: [{ id: 'vendor/model-x', context_length: 65_536, top_provider: { max_completion_tokens: 16_000 } }] } });
    const p1 = createProvider({ kind: 'openrouter', baseUrl: 'https://openrouter.ai/api/v1', model: 'vendor/model-x', apiKey: 'k' }, { fetch: or });
    expect(await p1.limits?.()).to.deep.equal({ contextWindow: 65_536, maxOutput: 16_000, source: 'provider' });
    expect(p1.capabilities?.().contextWindow).to.equal(65_536);

    const gm = fakeFetch({ '/v1beta/models/gemini-9-pro': { name: 'models/gemini-9-pro', inputTokenLimit: 2_000_000, outputTokenLimit: 65_536 } });
    const p2 = createProvider({ kind: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com/v1beta', model: 'gemini-9-pro', apiKey: 'k' }, { fetch: gm });
    expect(await p2.limits?.()).to.deep.equal({ contextWindow: 2_000_000, maxOutput: 65_536, source: 'provider' });

    const ol = fakeFetch({ '/api/show': { parameters: 'stop "<|eot|>"\nnum_ctx 12288', model_info: { 'llama.context_length': 131_072 } } });
    const p3 = createProvider({ kind: 'ollama', baseUrl: 'http://localhost:11434', model: 'mymodel', apiKey: '' }, { fetch: ol });
    expect(await p3.limits?.()).to.deep.include({ contextWindow: 12_288, source: 'provider' });
    const trained = fakeFetch({ '/api/show': { parameters: '', model_info: { 'qwen2.context_length': 32_768 } } });
    const p4 = createProvider({ kind: 'ollama', baseUrl: 'http://localhost:11435', model: 'qwen', apiKey: '' }, { fetch: trained });
    expect((await p4.limits?.())?.contextWindow).to.equal(16_384);

    // A provider that says nothing costs one question, then the table or the default answers.
    const silent = fakeFetch({ '/v1/models': { data: [{ id: 'gpt-4o' }] } });
    const p5 = createProvider({ kind: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o', apiKey: 'k' }, { fetch: silent });
    expect(await p5.limits?.()).to.deep.equal({ contextWindow: 128_000, maxOutput: 16_384, source: 'table' });
    await createProvider({ kind: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o', apiKey: 'k' }, { fetch: silent }).limits?.();
    expect(silent.asked).to.deep.equal(['GET /v1/models']);
  });

  it('a provider that failed to answer is asked again next time (a busy server does not shrink the window for long)', async () => {
    let calls = 0;
    /** @type {typeof fetch} */
    const flaky = async () => { calls++; if (calls === 1) throw new TypeError('network down'); return new Response(JSON.stringify({ data: [{ id: 'm', context_length: 50_000 }] }), { status: 200 }); };
    const make = () => createProvider({ kind: 'openrouter', baseUrl: 'https://flaky.example/v1', model: 'm', apiKey: 'k' }, { fetch: flaky });
    expect((await make().limits?.())?.source).to.equal('default');
    expect(await make().limits?.()).to.deep.include({ contextWindow: 50_000, source: 'provider' });
    expect(calls).to.equal(2);
  });

  it('Ollama runs with the window Tabwright plans with (num_ctx), so a snapshot is not cut silently', async () => {
    /** @type {any[]} */
    const bodies = [];
    /** @type {typeof fetch} */
    const f = async (url, init) => {
      const path = new URL(String(url)).pathname;
      if (path === '/api/show') return new Response(JSON.stringify({ parameters: '' }), { status: 200 });
      bodies.push(JSON.parse(String(init?.body)));
      return new Response(`${JSON.stringify({ message: { role: 'assistant', content: 'hi' }, done: true, done_reason: 'stop', prompt_eval_count: 1, eval_count: 1 })}\n`, { status: 200 });
    };
    const p = createProvider({ kind: 'ollama', baseUrl: 'http://localhost:11436', model: 'tiny', apiKey: '' }, { fetch: f });
    for await (const _ of p.chatStream({ messages: [{ role: 'user', content: 'x' }], tools: [] })) { /* drain */ }
    expect(bodies[0].options).to.deep.include({ num_ctx: 8_192 });
    const mine = createProvider({ kind: 'ollama', baseUrl: 'http://localhost:11437', model: 'tiny', apiKey: '', contextWindow: 24_000 }, { fetch: f });
    for await (const _ of mine.chatStream({ messages: [{ role: 'user', content: 'x' }], tools: [] })) { /* drain */ }
    expect(bodies[1].options).to.deep.include({ num_ctx: 24_000 });
  });
});

describe('the loop follows the window', () => {
  /** @param {number} window @param {Parameters<typeof fakeProvider>[0]} turns @param {ChatMessage[]} messages */
  async function run(window, turns, messages) {
    const provider = fakeProvider(turns);
    provider.limits = async () => ({ contextWindow: window, maxOutput: 1_024, source: 'settings' });
    const browser = fakeBrowser();
    /** @type {AgentEvent[]} */
    const events = [];
    await runAgent({ provider, mode: 'act', messages, toolContext: { tabId: 1, browser }, emit: (e) => events.push(e), verifyDone: false });
    return { provider, browser, events };
  }

  it('compacts at 75 % of a small window', async () => {
    // About 6,500 tokens of history (chars / 4) in an 8,192-token window: past 75 %.
    const big = 'x'.repeat(1_300);
    /** @type {ChatMessage[]} */
    const messages = [{ role: 'system', content: 'sys' }, { role: 'user', content: 'task' }];
    for (let i = 0; i < 20; i++) messages.push({ role: 'assistant', content: '', toolCalls: [{ id: `c${i}`, name: 'snapshot', arguments: '{}' }] }, { role: 'tool', toolCallId: `c${i}`, name: 'snapshot', content: big });
    const { events } = await run(8_192, [say('summary'), say('ok')], messages);
    expect(events.find((e) => e.type === 'compacted')).to.include({ reason: 'tokens' });
    const { events: roomy } = await run(128_000, [say('ok')], [...messages.slice(0, 2), ...messages.slice(2, 42)]);
    expect(roomy.some((e) => e.type === 'compacted')).to.equal(false);
  });

  it('fits the outline and every result to the window\'s budget, and offers an 8k model the compact tier with a note', async () => {
    const { browser, provider, events } = await run(8_192, [call({ name: 'snapshot' }), say('ok')], [{ role: 'system', content: 'sys' }, { role: 'user', content: 'task' }]);
    const snap = /** @type {any} */ (browser.sent.find((m) => m.type === 'content.snapshot'));
    expect(snap.maxChars).to.be.at.most(budgetsFor(8_192).result);
    expect(provider.requests[0].tools.map((t) => t.name).sort()).to.deep.equal(['clarify', 'click', 'done', 'go_back', 'navigate', 'press_keys', 'read_page', 'scroll', 'select_option', 'snapshot', 'type', 'wait_for']);
    expect(events.find((e) => e.type === 'notice')).to.deep.include({ code: 'TOOLS_COMPACT' });
    const { provider: big } = await run(200_000, [say('ok')], [{ role: 'system', content: 'sys' }, { role: 'user', content: 'task' }]);
    expect(big.requests[0].tools.length).to.equal(toolsForMode('act').length);
  });

  it('a window too small for acting gets the read-only tier, says so in the panel and to the model', async () => {
    const { provider, events } = await run(3_500, [say('I can only read.')], [{ role: 'system', content: 'sys' }, { role: 'user', content: 'Buy it' }]);
    expect(provider.requests[0].tools.map((t) => t.name).sort()).to.deep.equal(['read_page', 'snapshot']);
    expect(events.find((e) => e.type === 'notice')).to.deep.include({ code: 'TOOLS_READ_ONLY' });
    expect(String(provider.requests[0].messages[1].content)).to.include('Only reading tools are available to you in this run');
  });
});

describe('tool tiers', () => {
  const act = toolsForMode('act');
  const system = systemPrompt({ mode: 'act', url: 'https://x.example/', title: 'X', fence: createFence('0123456789ab') });

  it('every compact tool keeps to its full schema (arguments are checked against the full one)', () => {
    for (const t of act.filter((x) => x.compact)) {
      const full = /** @type {any} */ (t.parameters).properties ?? {};
      const small = /** @type {any} */ (t.compact?.parameters ?? t.parameters).properties ?? {};
      for (const [k, v] of Object.entries(small)) {
        expect(full, `${t.name}.${k}`).to.have.property(k);
        expect(/** @type {any} */ (v).type, `${t.name}.${k}`).to.equal(full[k].type);
      }
      expect(t.compact?.description.length, t.name).to.be.below(120);
    }
    expect(act.filter((x) => x.compact).length).to.equal(12);
  });

  it('chooses by window: 4k and 8k compact, 32k and 200k full; the 8k Act request leaves room for an outline (measured with a tokenizer)', () => {
    for (const [window, want] of /** @type {const} */ ([[4_096, 'compact'], [8_192, 'compact'], [32_768, 'full'], [200_000, 'full']])) {
      const c = chooseTier({ tools: act, contextWindow: window, maxOutput: 1_024, systemTokens: Math.ceil(system.length / 3.5), promptProtocol: false });
      expect(c.tier, String(window)).to.equal(want);
    }
    // Measured: the prompt-protocol Act request at 8k (system prompt + compact tools) and what is left.
    const compact = toolsOfTier(act, 'compact').schemas;
    const tokens = encode(system).length + encode(toolPrompt(compact)).length;
    expect(tokens).to.be.below(1_200);
    expect(8_192 - tokens - 1_024).to.be.above(OUTLINE_ROOM_TOKENS * 2);
    // The full set alone is over 6,000 tokens: it could never fit Chrome's on-device model.
    expect(encode(toolPrompt(toolsOfTier(act, 'full').schemas)).length).to.be.above(6_000);
    expect(chooseTier({ tools: act, contextWindow: 6_144, maxOutput: 1_024, systemTokens: 400, promptProtocol: true }).tier).to.equal('compact');
    expect(chooseTier({ tools: act, contextWindow: 200_000, maxOutput: 1_024, systemTokens: 400, promptProtocol: true, override: 'compact' }).tier).to.equal('compact');
  });
});
