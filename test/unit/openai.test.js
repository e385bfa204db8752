// Contract test of the OpenAI chat-completions provider against the mock server's real wire format.
import { expect } from 'chai';
import { createOpenAIProvider } from '../../src/chrome/providers/openai.js';
import { ProviderError } from '../../src/chrome/providers/errors.js';
import { startMockLLM } from '../fixtures/llm/server.js';
import { errorBody } from '../fixtures/llm/openai-wire.js';

/** @import { StreamEvent } from '../../src/chrome/types/core' */

describe('OpenAI-compatible provider', () => {
  /** @type {Awaited<ReturnType<typeof startMockLLM>>} */
  let llm;
  before(async () => { llm = await startMockLLM(); });
  after(async () => { await llm.close(); });

  const provider = () => createOpenAIProvider({ baseUrl: llm.baseUrl + '/', model: 'mock-1', apiKey: 'sk-abc', fetch, timeoutMs: 2000 });

  /** @param {AsyncIterable<StreamEvent>} it */
  async function drain(it) {
    /** @type {StreamEvent[]} */
    const out = [];
    for await (const e of it) out.push(e);
    return out;
  }

  it('sends the request in the wire format: model, stream, usage, tools, messages, key', async () => {
    llm.script([{ text: 'hi' }]);
    await drain(provider().chatStream({
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', mediaType: 'image/png', data: 'AAAA' }] },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'snapshot', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'c1', name: 'snapshot', content: 'outline' },
      ],
      tools: [{ name: 'snapshot', description: 'd', parameters: { type: 'object', properties: {} } }],
      maxTokens: 500,
    }));
    const [req] = llm.requests;
    expect(req.path).to.equal('/v1/chat/completions');
    expect(req.headers.authorization).to.equal('Bearer sk-abc');
    expect(req.headers['content-type']).to.equal('application/json');
    expect(req.body).to.deep.include({ model: 'mock-1', stream: true, stream_options: { include_usage: true }, max_tokens: 500, tool_choice: 'auto' });
    expect(req.body.tools).to.deep.equal([{ type: 'function', function: { name: 'snapshot', description: 'd', parameters: { type: 'object', properties: {} } } }]);
    expect(req.body.messages).to.deep.equal([
      { role: 'system', content: 'sys' },
      { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'snapshot', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'outline' },
    ]);
  });

  it('parses streamed text, tool-call deltas split across chunks, usage and finish', async () => {
    llm.script([{ text: 'Checking the page.', toolCalls: [{ name: 'click', args: { ref: 'e12' } }, { name: 'snapshot', args: {} }], usage: { prompt_tokens: 321, completion_tokens: 12 } }]);
    const events = await drain(provider().chatStream({ messages: [{ role: 'user', content: 'go' }], tools: [] }));
    expect(events.filter((e) => e.type === 'text').map((e) => /** @type {any} */ (e).text).join('')).to.equal('Checking the page.');
    const deltas = events.filter((e) => e.type === 'tool_call_delta');
    const byIndex = (/** @type {number} */ i) => deltas.filter((d) => /** @type {any} */ (d).index === i);
    expect(byIndex(0).map((d) => /** @type {any} */ (d).argumentsDelta ?? '').join('')).to.equal('{"ref":"e12"}');
    expect(byIndex(0).length).to.be.greaterThan(2);
    expect(/** @type {any} */ (byIndex(0)[0]).name).to.equal('click');
    expect(/** @type {any} */ (byIndex(1)[0]).name).to.equal('snapshot');
    expect(events).to.deep.include({ type: 'finish', reason: 'tool_calls' });
    expect(events).to.deep.include({ type: 'usage', usage: { inputTokens: 321, outputTokens: 12 } });
  });

  it('maps 401 to AUTH_FAILED naming the provider and the setting to fix', async () => {
    llm.script([{ error: { status: 401, body: errorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key') } }]);
    const err = await drain(provider().chatStream({ messages: [], tools: [] })).catch((e) => e);
    expect(err).to.be.instanceOf(ProviderError);
    expect(err.code).to.equal('AUTH_FAILED');
    expect(err.message).to.equal(`OpenAI-compatible (${llm.baseUrl}) refused the request (401). The server said: "Incorrect API key provided.". Open Settings → Provider and check the API key.`);
  });

  it('maps 429 with Retry-After, 5xx, 404 and context overflow', async () => {
    llm.script([
      { error: { status: 429, body: errorBody('Rate limit reached', 'requests'), headers: { 'retry-after': '7' } } },
      { error: { status: 503, body: errorBody('overloaded', 'server_error') } },
      { error: { status: 404, body: errorBody('The model `x` does not exist', 'invalid_request_error') } },
      { error: { status: 400, body: errorBody("This model's maximum context length is 8192 tokens.", 'invalid_request_error', 'context_length_exceeded') } },
    ]);
    const codes = [];
    for (let i = 0; i < 4; i++) {
      const e = await drain(provider().chatStream({ messages: [], tools: [] })).catch((x) => x);
      codes.push([e.code, e.retryable, e.retryAfterMs]);
    }
    expect(codes).to.deep.equal([['RATE_LIMITED', true, 7000], ['SERVER_ERROR', true, undefined], ['NOT_FOUND', false, undefined], ['CONTEXT_OVERFLOW', false, undefined]]);
  });

  it('reports a stream cut before it finished as STREAM_CUT', async () => {
    llm.script([{ text: 'a long answer that breaks', cutAfterChunks: 2 }]);
    const err = await drain(provider().chatStream({ messages: [], tools: [] })).catch((e) => e);
    expect(err.code).to.equal('STREAM_CUT');
    expect(err.retryable).to.equal(true);
  });

  it('reports a refused connection as NETWORK_ERROR with what to check', async () => {
    const p = createOpenAIProvider({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', fetch });
    const err = await drain(p.chatStream({ messages: [], tools: [] })).catch((e) => e);
    expect(err.code).to.equal('NETWORK_ERROR');
    expect(err.message).to.contain('Check that the server is running and the base URL');
  });

  it('times out when the server does not answer', async () => {
    /** @type {typeof fetch} */
    const hang = (_url, init) => new Promise((_r, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    const p = createOpenAIProvider({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', fetch: hang, timeoutMs: 50 });
    const err = await drain(p.chatStream({ messages: [], tools: [] })).catch((e) => e);
    expect(err.code).to.equal('TIMEOUT');
  });

  it('lists models', async () => {
    expect(await provider().listModels()).to.deep.equal(['mock-1', 'mock-2']);
  });
});
