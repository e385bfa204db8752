// The providers' stream readers, one event at a time (the whole streams are the providers' contract
// tests against the mock server): Anthropic's Messages events and the Responses API's events as
// Tabwright's stream events, and the message parts every wire format shares.
import { expect } from 'chai';
import { anthropicEvents, newAnthropicStream, parseAnthropicStream } from '../../src/chrome/providers/anthropic-stream.js';
import { responsesEvents, newResponsesStream, parseResponsesStream } from '../../src/chrome/providers/openai-responses-stream.js';
import { textOf, argsObject } from '../../src/chrome/providers/message-parts.js';

/** An SSE body of these events. @param {unknown[]} events */
function sse(events) {
  const text = events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
  return new Response(text).body;
}
/** @param {AsyncGenerator<any>} gen */
async function all(gen) { const out = []; for await (const e of gen) out.push(e); return out; }

describe('stream readers: Anthropic (providers/anthropic-stream.js)', () => {
  it('numbers tool calls 0, 1, … whatever text blocks sit between, and sends their arguments by block', () => {
    const st = newAnthropicStream();
    expect(anthropicEvents({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'Hi' } }, st, 'A')).to.deep.equal([{ type: 'text', text: 'Hi' }]);
    expect(anthropicEvents({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'tu1', name: 'click' } }, st, 'A')).to.deep.equal([{ type: 'tool_call_delta', index: 0, id: 'tu1', name: 'click' }]);
    expect(anthropicEvents({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"ref"' } }, st, 'A')).to.deep.equal([{ type: 'tool_call_delta', index: 0, argumentsDelta: '{"ref"' }]);
    // Arguments for a block that is no tool call are dropped.
    expect(anthropicEvents({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: 'x' } }, st, 'A')).to.deep.equal([]);
  });
  it('counts cached and cache-written input as input, and maps tool_use to tool_calls', () => {
    const st = newAnthropicStream();
    anthropicEvents({ type: 'message_start', message: { usage: { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 5 } } }, st, 'A');
    expect(anthropicEvents({ type: 'message_delta', usage: { output_tokens: 7 }, delta: { stop_reason: 'tool_use' } }, st, 'A')).to.deep.equal([
      { type: 'usage', usage: { inputTokens: 115, outputTokens: 7, cachedInputTokens: 100 } }, { type: 'finish', reason: 'tool_calls' }]);
  });
  it('ends at message_stop, throws the server\'s error, ignores pings and unknown or inherited types', () => {
    const st = newAnthropicStream();
    for (const type of ['ping', 'content_block_stop', 'constructor', '__proto__', 'toString']) expect(anthropicEvents({ type }, st, 'A')).to.deep.equal([]);
    expect(st.stopped).to.equal(false);
    anthropicEvents({ type: 'message_stop' }, st, 'A');
    expect(st.stopped).to.equal(true);
    expect(() => anthropicEvents({ type: 'error', error: { message: 'Overloaded' } }, st, 'A')).to.throw(/Overloaded/);
  });
  it('a stream cut before message_stop is incomplete; a chunk that is not JSON is a bad response', async () => {
    const events = await all(parseAnthropicStream(/** @type {any} */ (sse([{ type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'ok' } }, { type: 'message_stop' }, { type: 'content_block_start', index: 1, content_block: { type: 'text', text: 'after' } }])), 'A'));
    expect(events).to.deep.equal([{ type: 'text', text: 'ok' }]);
    await all(parseAnthropicStream(/** @type {any} */ (sse([{ type: 'ping' }])), 'A')).then(() => expect.fail('complete'), (e) => expect(e.code).to.equal('STREAM_CUT'));
    await all(parseAnthropicStream(/** @type {any} */ (sse(['{nope'])), 'A')).then(() => expect.fail('parsed'), (e) => expect(e.code).to.equal('BAD_RESPONSE'));
  });
});

describe('stream readers: OpenAI Responses (providers/openai-responses-stream.js)', () => {
  it('announces a function call with its first arguments, then its deltas by output index', () => {
    const st = newResponsesStream();
    expect(responsesEvents({ type: 'response.output_item.added', output_index: 2, item: { type: 'function_call', call_id: 'c1', name: 'navigate', arguments: '' } }, st, 'R'))
      .to.deep.equal([{ type: 'tool_call_delta', index: 0, id: 'c1', name: 'navigate', argumentsDelta: undefined }]);
    expect(responsesEvents({ type: 'response.output_item.added', output_index: 3, item: { type: 'message' } }, st, 'R')).to.deep.equal([]);
    expect(responsesEvents({ type: 'response.function_call_arguments.delta', output_index: 2, delta: '{"url"' }, st, 'R')).to.deep.equal([{ type: 'tool_call_delta', index: 0, argumentsDelta: '{"url"' }]);
    expect(responsesEvents({ type: 'response.function_call_arguments.delta', output_index: 9, delta: 'x' }, st, 'R')).to.deep.equal([]);
    expect(responsesEvents({ type: 'response.output_text.delta', delta: 'Hello' }, st, 'R')).to.deep.equal([{ type: 'text', text: 'Hello' }]);
  });
  it('ends with usage and why: tool calls, stop, or length for an answer cut at max_output_tokens', () => {
    const st = newResponsesStream();
    st.calls.set(0, 0);
    expect(responsesEvents({ type: 'response.completed', response: { usage: { input_tokens: 9, output_tokens: 3, input_tokens_details: { cached_tokens: 4 } } } }, st, 'R')).to.deep.equal([
      { type: 'usage', usage: { inputTokens: 9, outputTokens: 3, cachedInputTokens: 4 } }, { type: 'finish', reason: 'tool_calls' }]);
    expect(st.finished).to.equal(true);
    expect(responsesEvents({ type: 'response.incomplete', response: { incomplete_details: { reason: 'max_output_tokens' } } }, newResponsesStream(), 'R')).to.deep.equal([{ type: 'finish', reason: 'length' }]);
    expect(responsesEvents({ type: 'response.completed', response: {} }, newResponsesStream(), 'R')).to.deep.equal([{ type: 'finish', reason: 'stop' }]);
  });
  it('throws a failed response\'s and an error event\'s message; [DONE] before the end is incomplete', async () => {
    expect(() => responsesEvents({ type: 'response.failed', response: { error: { message: 'quota' } } }, newResponsesStream(), 'R')).to.throw(/quota/);
    expect(() => responsesEvents({ type: 'error', message: 'bad key' }, newResponsesStream(), 'R')).to.throw(/bad key/);
    expect(responsesEvents({ type: 'hasOwnProperty' }, newResponsesStream(), 'R')).to.deep.equal([]);
    await all(parseResponsesStream(/** @type {any} */ (sse([{ type: 'response.output_text.delta', delta: 'a' }, '[DONE]'])), 'R')).then(() => expect.fail('complete'), (e) => expect(e.code).to.equal('STREAM_CUT'));
    const done = await all(parseResponsesStream(/** @type {any} */ (sse([{ type: 'response.output_text.delta', delta: 'a' }, { type: 'response.completed', response: {} }, { type: 'response.output_text.delta', delta: 'late' }])), 'R'));
    expect(done).to.deep.equal([{ type: 'text', text: 'a' }, { type: 'finish', reason: 'stop' }]);
  });
});

describe('message parts every wire format shares (providers/message-parts.js)', () => {
  it('a message\'s text is its text parts joined; images are left out', () => {
    expect(textOf('plain')).to.equal('plain');
    expect(textOf([{ type: 'text', text: 'a' }, { type: 'image', mediaType: 'image/png', data: 'AAAA' }, { type: 'text', text: 'b' }])).to.equal('a\nb');
  });
  it('a call\'s arguments as an object, repaired when unambiguous, {} otherwise', () => {
    expect(argsObject('{"ref": "e1",}')).to.deep.equal({ ref: 'e1' });
    expect([argsObject(''), argsObject('[1]'), argsObject('not json at all')]).to.deep.equal([{}, {}, {}]);
  });
});
