// Contract tests of each native wire format against the mock server: what is sent (body and
// headers), how the stream is parsed, a tool round-trip, image input, and the vendor's error bodies.
import { expect } from 'chai';
import { PROVIDER_KINDS } from '../../src/chrome/providers/presets.js';
import { createProvider } from '../../src/chrome/providers/index.js';
import { createAnthropicProvider } from '../../src/chrome/providers/anthropic.js';
import { createGeminiProvider } from '../../src/chrome/providers/gemini.js';
import { createOllamaProvider } from '../../src/chrome/providers/ollama.js';
import { collect } from '../../src/chrome/providers/base.js';
import { startMockLLM, errorFor } from '../fixtures/llm/server.js';
import { anthropicError } from '../fixtures/llm/anthropic-wire.js';
import { geminiError } from '../fixtures/llm/gemini-wire.js';

/** @import { ChatMessage, Provider, ToolSchema } from '../../src/chrome/types/core' */

/** @type {ToolSchema[]} */
const TOOLS = [{ name: 'click', description: 'Click an element', parameters: { type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'], additionalProperties: false } }];
const IMAGE = /** @type {const} */ ({ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' });

describe('provider wire formats (contract, against the mock server)', () => {
  /** @type {Awaited<ReturnType<typeof startMockLLM>>} */
  let llm;
  before(async () => { llm = await startMockLLM(); });
  after(async () => { await llm.close(); });

  /** Runs one turn, then a second carrying the tool result; returns both results. @param {Provider} p */
  async function roundTrip(p) {
    llm.script([
      { text: 'I will click it.', toolCalls: [{ name: 'click', args: { ref: 'e12' } }], usage: { prompt_tokens: 321, completion_tokens: 12 } },
      { text: 'Done, it is clicked.' },
    ]);
    /** @type {ChatMessage[]} */
    const messages = [
      { role: 'system', content: 'You are Tabwright.' },
      { role: 'user', content: [{ type: 'text', text: 'Click the button in this screenshot' }, IMAGE] },
    ];
    const first = await collect(p.chatStream({ messages, tools: TOOLS, maxTokens: 500 }));
    messages.push({ role: 'assistant', content: first.text, toolCalls: first.toolCalls });
    messages.push({ role: 'tool', toolCallId: first.toolCalls[0].id, name: 'click', content: 'clicked e12' });
    const second = await collect(p.chatStream({ messages, tools: TOOLS }));
    return { first, second, reqs: [...llm.requests] };
  }

  /** @param {Provider} p */
  async function errorOf(p) {
    return collect(p.chatStream({ messages: [{ role: 'user', content: 'hi' }], tools: [] })).then(() => null, (e) => e);
  }

  describe('Anthropic Messages', () => {
    const make = () => createAnthropicProvider({ baseUrl: llm.baseUrls.anthropic, model: 'claude-sonnet-4-5', apiKey: 'sk-ant-1', fetch });

    it('sends system and tools with cache_control, tool_use/tool_result blocks, images, and its headers', async () => {
      const { reqs } = await roundTrip(make());
      const [a, b] = reqs;
      expect(a.path).to.equal('/v1/messages');
      expect(a.headers['x-api-key']).to.equal('sk-ant-1');
      expect(a.headers['anthropic-version']).to.equal('2023-06-01');
      expect(a.headers['anthropic-dangerous-direct-browser-access']).to.equal('true');
      expect(a.headers.authorization).to.equal(undefined);
      expect(a.body).to.deep.include({ model: 'claude-sonnet-4-5', max_tokens: 500, stream: true, tool_choice: { type: 'auto' } });
      expect(a.body.system).to.deep.equal([{ type: 'text', text: 'You are Tabwright.', cache_control: { type: 'ephemeral' } }]);
      expect(a.body.tools).to.deep.equal([{ name: 'click', description: 'Click an element', input_schema: TOOLS[0].parameters, cache_control: { type: 'ephemeral' } }]);
      expect(a.body.messages).to.deep.equal([{ role: 'user', content: [
        { type: 'text', text: 'Click the button in this screenshot' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' }, cache_control: { type: 'ephemeral' } },
      ] }]);
      expect(b.body.max_tokens).to.equal(8192);
      const toolUseId = b.body.messages[1].content[1].id;
      expect(toolUseId).to.match(/^toolu_/);
      expect(b.body.messages.slice(1)).to.deep.equal([
        { role: 'assistant', content: [{ type: 'text', text: 'I will click it.' }, { type: 'tool_use', id: toolUseId, name: 'click', input: { ref: 'e12' } }] },
        // The breakpoint moves to the newest block, so the next step reads everything before it from cache.
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: 'clicked e12', cache_control: { type: 'ephemeral' } }] },
      ]);
    });

    it('parses text deltas, input_json deltas, stop reason and usage (priced)', async () => {
      const { first, second } = await roundTrip(make());
      expect(first.text).to.equal('I will click it.');
      expect(first.toolCalls).to.have.length(1);
      expect(first.toolCalls[0]).to.include({ name: 'click', arguments: '{"ref":"e12"}' });
      expect(first.finish).to.equal('tool_calls');
      expect(first.usage).to.deep.include({ inputTokens: 321, outputTokens: 12 });
      expect(first.usage.costUsd).to.be.closeTo((321 * 3 + 12 * 15) / 1e6, 1e-12);
      expect(second).to.deep.include({ text: 'Done, it is clicked.', finish: 'end_turn' });
    });

    it('maps its error bodies: authentication_error, rate_limit_error with retry-after, overloaded 529', async () => {
      llm.script([
        { error: { status: 401, body: anthropicError('authentication_error', 'invalid x-api-key') } },
        { error: { status: 429, body: anthropicError('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'), headers: { 'retry-after': '12' } } },
        { error: { status: 529, body: anthropicError('overloaded_error', 'Overloaded') } },
      ]);
      const p = createAnthropicProvider({ baseUrl: llm.baseUrls.anthropic, model: 'm', apiKey: 'k', fetch });
      const auth = await errorOf(p);
      expect(auth.code).to.equal('AUTH_FAILED');
      expect(auth.message).to.equal(`Anthropic (${llm.baseUrl}) refused the request (401). The server said: "invalid x-api-key". Open Settings → Provider and check the API key.`);
      const rate = await errorOf(p);
      expect([rate.code, rate.retryAfterMs]).to.deep.equal(['RATE_LIMITED', 12000]);
      const over = await errorOf(p);
      expect([over.code, over.retryable, over.detail]).to.deep.equal(['SERVER_ERROR', true, 'Overloaded']);
    });

    it('counts prompt-cache reads as input and prices them at the cached rate', async () => {
      llm.script([{ text: 'ok', usage: { prompt_tokens: 10_000, completion_tokens: 100, cached_tokens: 9_000 } }]);
      const r = await collect(make().chatStream({ messages: [{ role: 'user', content: 'hi' }], tools: [] }));
      expect(r.usage).to.deep.include({ inputTokens: 10_000, outputTokens: 100 });
      // 1000 fresh × $3 + 9000 cached × $0.30 + 100 out × $15, per million
      expect(r.usage.costUsd).to.be.closeTo((1000 * 3 + 9000 * 0.3 + 100 * 15) / 1e6, 1e-12);
    });

    it('lists models from /v1/models with its headers', async () => {
      llm.requireKey('k');
      try {
        expect(await createAnthropicProvider({ baseUrl: llm.baseUrls.anthropic, model: 'm', apiKey: 'k', fetch }).listModels()).to.deep.equal(['mock-1', 'mock-2']);
      } finally { llm.requireKey(null); }
    });
  });

  describe('Google Gemini', () => {
    const make = () => createGeminiProvider({ baseUrl: llm.baseUrls.gemini, model: 'gemini-2.5-flash', apiKey: 'AIza-1', fetch });

    it('posts to :streamGenerateContent?alt=sse with contents, systemInstruction, functionDeclarations, inlineData', async () => {
      const { reqs } = await roundTrip(make());
      const [a, b] = reqs;
      expect(a.path).to.equal('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
      expect(a.query.get('alt')).to.equal('sse');
      expect(a.headers['x-goog-api-key']).to.equal('AIza-1');
      expect(a.body.systemInstruction).to.deep.equal({ parts: [{ text: 'You are Tabwright.' }] });
      expect(a.body.generationConfig).to.deep.equal({ maxOutputTokens: 500 });
      // additionalProperties is not in Gemini's schema subset and would be a 400.
      expect(a.body.tools).to.deep.equal([{ functionDeclarations: [{ name: 'click', description: 'Click an element', parameters: { type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'] } }] }]);
      expect(a.body.toolConfig).to.deep.equal({ functionCallingConfig: { mode: 'AUTO' } });
      expect(a.body.contents).to.deep.equal([{ role: 'user', parts: [{ text: 'Click the button in this screenshot' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] }]);
      expect(b.body.contents.slice(1)).to.deep.equal([
        { role: 'model', parts: [{ text: 'I will click it.' }, { functionCall: { name: 'click', args: { ref: 'e12' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'click', response: { content: 'clicked e12' } } }] },
      ]);
    });

    it('parses text parts, whole functionCall parts, finishReason and usageMetadata', async () => {
      const { first, second } = await roundTrip(make());
      expect(first.text).to.equal('I will click it.');
      expect(first.toolCalls.map((c) => [c.name, c.arguments])).to.deep.equal([['click', '{"ref":"e12"}']]);
      expect(first.finish).to.equal('tool_calls');
      expect(first.usage).to.deep.include({ inputTokens: 321, outputTokens: 12 });
      expect(second).to.deep.include({ text: 'Done, it is clicked.', finish: 'stop' });
    });

    it('sends a thoughtSignature back with its function call', async () => {
      /** @type {ChatMessage[]} */
      const messages = [{ role: 'user', content: 'go' }, { role: 'assistant', content: '', toolCalls: [{ id: 'gcall_0~sig~c2lnbmF0dXJl', name: 'click', arguments: '{"ref":"e1"}' }] }, { role: 'tool', toolCallId: 'gcall_0~sig~c2lnbmF0dXJl', name: 'click', content: 'ok' }];
      llm.script([{ text: 'ok' }]);
      await collect(make().chatStream({ messages, tools: TOOLS }));
      expect(llm.requests[0].body.contents[1].parts).to.deep.equal([{ functionCall: { name: 'click', args: { ref: 'e1' } }, thoughtSignature: 'c2lnbmF0dXJl' }]);
    });

    it('echoes a Gemini 3 call id in its functionResponse', async () => {
      /** @type {ChatMessage[]} */
      const messages = [{ role: 'user', content: 'go' }, { role: 'assistant', content: '', toolCalls: [{ id: 'fc_7~sig~c2ln', name: 'click', arguments: '{}' }] }, { role: 'tool', toolCallId: 'fc_7~sig~c2ln', name: 'click', content: 'ok' }];
      llm.script([{ text: 'ok' }]);
      await collect(make().chatStream({ messages, tools: TOOLS }));
      const [, model, user] = llm.requests[0].body.contents;
      expect(model.parts[0].functionCall).to.deep.equal({ id: 'fc_7', name: 'click', args: {} });
      expect(user.parts[0].functionResponse).to.deep.equal({ id: 'fc_7', name: 'click', response: { content: 'ok' } });
    });

    it("maps Google's error bodies, including a bad key sent as 400 API_KEY_INVALID", async () => {
      llm.script([
        { error: { status: 400, body: geminiError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID') } },
        { error: { status: 429, body: geminiError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).') } },
        { error: { status: 503, body: geminiError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.') } },
      ]);
      const p = make();
      const auth = await errorOf(p);
      expect(auth.code).to.equal('AUTH_FAILED');
      expect(auth.message).to.contain('Google Gemini').and.to.contain('API key not valid').and.to.contain('Settings → Provider');
      expect((await errorOf(p)).code).to.equal('RATE_LIMITED');
      const down = await errorOf(p);
      expect([down.code, down.detail]).to.deep.equal(['SERVER_ERROR', 'The model is overloaded. Please try again later.']);
    });

    it('lists generateContent models without the models/ prefix', async () => {
      expect(await make().listModels()).to.deep.equal(['mock-1', 'mock-2']);
    });
  });

  describe('Ollama /api/chat', () => {
    const make = () => createOllamaProvider({ baseUrl: `${llm.baseUrls.ollama}/v1`, model: 'llama3.1', fetch });

    it('posts native messages with images beside the text, tool_calls with object arguments, tool_name', async () => {
      const { reqs } = await roundTrip(make());
      const [a, b] = reqs;
      expect(a.path).to.equal('/api/chat');
      expect(a.headers.authorization).to.equal(undefined);
      expect(a.body).to.deep.include({ model: 'llama3.1', stream: true, options: { num_predict: 500 } });
      expect(a.body.tools).to.deep.equal([{ type: 'function', function: TOOLS[0] }]);
      expect(a.body.messages).to.deep.equal([
        { role: 'system', content: 'You are Tabwright.' },
        { role: 'user', content: 'Click the button in this screenshot', images: ['iVBORw0KGgo='] },
      ]);
      expect(b.body.messages.slice(2)).to.deep.equal([
        { role: 'assistant', content: 'I will click it.', tool_calls: [{ function: { name: 'click', arguments: { ref: 'e12' } } }] },
        { role: 'tool', content: 'clicked e12', tool_name: 'click' },
      ]);
    });

    it('parses NDJSON content, tool calls and the done line counts', async () => {
      const { first, second } = await roundTrip(make());
      expect(first.text).to.equal('I will click it.');
      expect(first.toolCalls.map((c) => [c.name, c.arguments])).to.deep.equal([['click', '{"ref":"e12"}']]);
      expect(first.usage).to.deep.equal({ inputTokens: 321, outputTokens: 12 });
      expect(second).to.deep.include({ text: 'Done, it is clicked.', finish: 'stop' });
    });

    it('maps its {"error": "…"} bodies', async () => {
      llm.script([{ error: { status: 404, body: { error: "model 'llama9' not found, try pulling it first" } } }]);
      const e = await errorOf(make());
      expect(e.code).to.equal('NOT_FOUND');
      expect(e.message).to.equal(`Ollama (${llm.url}) answered 404. The server said: "model 'llama9' not found, try pulling it first". Check the base URL and the model name in Settings → Provider.`);
    });

    it('lists models from /api/tags', async () => {
      expect(await make().listModels()).to.deep.equal(['mock-1', 'mock-2']);
    });
  });

  describe('OpenAI Responses API (an option of the OpenAI kind)', () => {
    it('sends instructions, input items, function calls and their outputs; streams text, calls and usage back', async () => {
      const p = createProvider({ kind: 'openai', api: 'responses', baseUrl: llm.baseUrl, model: 'gpt-4.1-mini', apiKey: 'sk-r' }, { fetch });
      const { first, second, reqs } = await roundTrip(p);
      expect(first.text).to.equal('I will click it.');
      expect(first.toolCalls).to.have.length(1);
      expect(first.toolCalls[0]).to.deep.include({ name: 'click', arguments: '{"ref":"e12"}' });
      expect(first.usage).to.deep.include({ inputTokens: 321, outputTokens: 12 });
      expect(first.finish).to.equal('tool_calls');
      expect(second.text).to.equal('Done, it is clicked.');
      const [a, b] = reqs;
      expect(a.path).to.equal('/v1/responses');
      expect(a.headers.authorization).to.equal('Bearer sk-r');
      expect(a.body).to.deep.include({ model: 'gpt-4.1-mini', instructions: 'You are Tabwright.', stream: true, store: false, max_output_tokens: 500 });
      expect(a.body.tools[0]).to.deep.include({ type: 'function', name: 'click' });
      expect(a.body.input[0].content[1]).to.deep.equal({ type: 'input_image', image_url: `data:${IMAGE.mediaType};base64,${IMAGE.data}` });
      expect(b.body.input.slice(1)).to.deep.equal([
        { role: 'assistant', content: [{ type: 'output_text', text: 'I will click it.' }] },
        { type: 'function_call', call_id: first.toolCalls[0].id, name: 'click', arguments: '{"ref":"e12"}' },
        { type: 'function_call_output', call_id: first.toolCalls[0].id, output: 'clicked e12' },
      ]);
    });
  });

  describe('OpenAI-compatible presets', () => {
    it('Azure OpenAI: deployment URL, api-key header, api-version query', async () => {
      const p = createProvider({ kind: 'azure', baseUrl: `${llm.url}/openai/deployments/gpt4o-prod`, model: 'gpt4o-prod', apiKey: 'az-key' }, { fetch });
      const { first } = await roundTrip(p);
      const [a] = llm.requests;
      expect(first.toolCalls[0].name).to.equal('click');
      expect(a.path).to.equal('/openai/deployments/gpt4o-prod/chat/completions');
      expect(a.query.get('api-version')).to.equal('2024-10-21');
      expect(a.headers['api-key']).to.equal('az-key');
      expect(a.headers.authorization).to.equal(undefined);
      expect(p.label).to.equal(`Azure OpenAI (${llm.url}/openai/deployments/gpt4o-prod)`);
    });

    it('OpenRouter sends its attribution headers; Mistral omits stream_options', async () => {
      llm.script([{ text: 'a' }, { text: 'b' }]);
      await collect(createProvider({ kind: 'openrouter', baseUrl: llm.baseUrl, model: 'x/y', apiKey: 'or' }, { fetch }).chatStream({ messages: [{ role: 'user', content: 'hi' }], tools: [] }));
      await collect(createProvider({ kind: 'mistral', baseUrl: llm.baseUrl, model: 'mistral-large-latest', apiKey: 'mi' }, { fetch }).chatStream({ messages: [{ role: 'user', content: 'hi' }], tools: [] }));
      const [or, mi] = llm.requests;
      expect(or.headers['x-title']).to.equal('Tabwright');
      expect(or.headers.authorization).to.equal('Bearer or');
      expect(or.body.stream_options).to.deep.equal({ include_usage: true });
      expect(mi.body).to.not.have.property('stream_options');
    });

    it('offers at least 25 kinds, each with a URL, a model and a label', () => {
      const kinds = Object.entries(PROVIDER_KINDS);
      expect(kinds.length).to.be.at.least(25);
      for (const [id, k] of kinds) {
        expect(k.label, id).to.be.a('string').and.not.empty;
        expect(k.model, id).to.be.a('string').and.not.empty;
        if (k.format !== 'builtin') expect(() => new URL(k.baseUrl), id).to.not.throw();
      }
    });

    it('Perplexity: chat completions at the root, tools in the prompt, its models without a list endpoint', async () => {
      llm.script([{ text: 'Let me look.\n```json\n{"tool": "snapshot", "arguments": {}}\n```' }]);
      const p = createProvider({ kind: 'perplexity', baseUrl: llm.url, model: 'sonar', apiKey: 'pplx' }, { fetch });
      const r = await collect(p.chatStream({ messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'snapshot', description: 'Outline', parameters: { type: 'object', properties: {} } }] }));
      const [a] = llm.requests;
      expect(a.path).to.equal('/chat/completions');
      expect(a.headers.authorization).to.equal('Bearer pplx');
      expect(a.body).to.not.have.property('tools');
      expect(String(a.body.messages[0].content)).to.include('You can call tools.');
      expect(r.toolCalls.map((c) => c.name)).to.deep.equal(['snapshot']);
      const before = llm.requests.length;
      expect(await p.listModels()).to.include.members(['sonar', 'sonar-pro']);
      expect(llm.requests.length).to.equal(before);
    });

    it('Cloudflare Workers AI: the account in the path, its models without a list endpoint', async () => {
      llm.script([{ text: 'ok' }]);
      const p = createProvider({ kind: 'cloudflare', baseUrl: `${llm.url}/client/v4/accounts/acc123/ai/v1`, model: '@cf/meta/llama-3.1-8b-instruct', apiKey: 'cf' }, { fetch });
      await collect(p.chatStream({ messages: [{ role: 'user', content: 'hi' }], tools: [] }));
      expect(llm.requests[0].path).to.equal('/client/v4/accounts/acc123/ai/v1/chat/completions');
      expect(llm.requests[0].body.model).to.equal('@cf/meta/llama-3.1-8b-instruct');
      expect(await p.listModels()).to.include('@cf/meta/llama-3.1-8b-instruct');
    });

    it('every native format speaks the same error shape for the mock server (errorFor)', () => {
      expect(errorFor('anthropic', 429, 'slow down')).to.deep.equal({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } });
      expect(errorFor('gemini', 429, 'slow down')).to.deep.equal({ error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' } });
      expect(errorFor('ollama', 500, 'boom')).to.deep.equal({ error: 'boom' });
    });
  });
});
