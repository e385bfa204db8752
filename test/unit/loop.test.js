import { expect } from 'chai';
import { runAgent } from '../../src/chrome/agent/loop.js';
import { ProviderError } from '../../src/chrome/providers/errors.js';
import { fakeProvider, say, call } from './fake-provider.js';
import { fakeBrowser } from './fake-browser.js';

/** @import { AgentEvent, ChatMessage, Mode } from '../../src/chrome/types/core' */

/**
 * @param {Parameters<typeof fakeProvider>[0]} turns
 * @param {{ mode?: Mode, maxSteps?: number, signal?: AbortSignal, browser?: ReturnType<typeof fakeBrowser> }} [opts]
 */
async function run(turns, opts = {}) {
  const provider = fakeProvider(turns);
  const browser = opts.browser ?? fakeBrowser();
  /** @type {AgentEvent[]} */
  const events = [];
  /** @type {ChatMessage[]} */
  const messages = [{ role: 'system', content: 'sys' }, { role: 'user', content: 'task' }];
  const outcome = await runAgent({
    provider, mode: opts.mode ?? 'act', messages, maxSteps: opts.maxSteps, signal: opts.signal,
    toolContext: { tabId: 1, browser, signal: opts.signal }, emit: (e) => events.push(e),
  });
  return { outcome, events, messages, provider, browser };
}

describe('agent loop', () => {
  it('streams a plain answer and ends the run', async () => {
    const { outcome, events, messages } = await run([[{ type: 'text', text: 'Hel' }, { type: 'text', text: 'lo' }, { type: 'finish', reason: 'stop' }]]);
    expect(outcome).to.include({ status: 'answered', text: 'Hello', steps: 1 });
    expect(events.filter((e) => e.type === 'text_delta').map((e) => /** @type {any} */ (e).text)).to.deep.equal(['Hel', 'lo']);
    // An answer with nothing written: the verdict says there is nothing on a server to check.
    expect(events.at(-1)).to.deep.equal({ type: 'final', text: 'Hello', outcome: { verdict: 'not_verified', reasons: [{ code: 'NOTHING_TO_CHECK', message: 'A read-only answer: there is nothing on a server to check.' }], receipt: [] } });
    expect(messages.at(-1)).to.deep.equal({ role: 'assistant', content: 'Hello' });
  });

  it('assembles tool calls from split deltas, runs them and feeds results back fenced', async () => {
    const { outcome, messages, browser, provider } = await run([
      call({ name: 'snapshot' }),
      call({ name: 'click', args: { ref: 'e1' } }),
      call({ name: 'done', args: { summary: 'Clicked Go.' } }),
    ]);
    expect(outcome).to.include({ status: 'done', text: 'Clicked Go.', steps: 3 });
    // The click runs between the effects watch and the effects report, which takes a new
    // outline to say what changed since the snapshot.
    // Before it, the safety policy asks the page what the target is (targetInfo).
    expect(browser.sent.map((m) => m.type)).to.deep.equal(['content.snapshot', 'content.targetInfo', 'content.watch', 'content.click', 'content.effects', 'content.snapshot']);
    expect(browser.sent[3]).to.deep.include({ type: 'content.click', target: { ref: 'e1' } });
    const snapshotResult = messages.find((m) => m.role === 'tool' && m.name === 'snapshot');
    expect(snapshotResult?.content).to.match(/^<untrusted_page_content id="([0-9a-f]{12})">\nPage: Test \(https:\/\/example.test\/\)\n- button "Go" \[e1\]\n<\/untrusted_page_content id="\1">$/);
    const assistant = messages.find((m) => m.role === 'assistant' && m.toolCalls?.[0]?.name === 'click');
    expect(assistant?.toolCalls?.[0]).to.deep.equal({ id: 'call_0', name: 'click', arguments: '{"ref":"e1"}' });
    expect(provider.requests[0].tools.map((t) => t.name)).to.include.members(['snapshot', 'click', 'type', 'navigate', 'done']);
  });

  it('offers only read tools in Ask mode and refuses any other call without touching the page', async () => {
    const { outcome, messages, browser, provider } = await run([
      call({ name: 'click', args: { ref: 'e1' } }),
      say('I can only read in Ask mode.'),
    ], { mode: 'ask' });
    expect(outcome.status).to.equal('answered');
    expect(provider.requests[0].tools.map((t) => t.name).sort()).to.deep.equal(['ask_user_which_element', 'console_logs', 'extract_data', 'fetch_url', 'get_frames', 'get_html', 'list_downloads', 'page_capabilities', 'read_page', 'read_pdf', 'screenshot', 'skills', 'snapshot', 'wait_for']);
    expect(browser.sent).to.deep.equal([]);
    const refusal = messages.find((m) => m.role === 'tool');
    expect(refusal?.content).to.match(/^Error NOT_ALLOWED_IN_ASK_MODE: Ask mode only reads.* \(click would change the page/);
  });

  it('answers invalid JSON and unknown tools with tool errors and goes on', async () => {
    const { outcome, messages } = await run([
      call({ name: 'click', raw: '{"ref": "e1",' }),
      call({ name: 'teleport', args: {} }),
      call({ name: 'click', args: {} }),
      call({ name: 'done', args: { summary: 'ok' } }),
    ]);
    expect(outcome.status).to.equal('done');
    const results = messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(results[0]).to.match(/^Error INVALID_ARGUMENTS: .* \(the arguments are not valid JSON/);
    expect(results[1]).to.match(/^Error UNKNOWN_TOOL: There is no tool by that name\. \("teleport"; the tools are snapshot, read_page, click/);
    expect(results[2]).to.match(/^Error INVALID_ARGUMENTS: .*Details:\n<untrusted_page_content id="\w+">\nsay which element: give the element as ref/s);
  });

  it('answers every call of a batch even when done ends it early', async () => {
    const { outcome, messages } = await run([call({ name: 'done', args: { summary: 'finished' } }, { name: 'click', args: { ref: 'e1' } })]);
    expect(outcome.status).to.equal('done');
    const tools = messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.toolCallId)).to.deep.equal(['call_0', 'call_1']);
    expect(tools[1].content).to.contain('SKIPPED');
  });

  it('reports a provider error as a value and leaves no half-written message', async () => {
    const err = new ProviderError('AUTH_FAILED', 'Fake provider refused the request (401). Open Settings → Provider and check the API key.', { status: 401 });
    const { outcome, events, messages } = await run([err]);
    expect(outcome).to.deep.include({ status: 'error', error: { code: 'AUTH_FAILED', message: err.message } });
    expect(events.at(-1)).to.deep.equal({ type: 'error', code: 'AUTH_FAILED', message: err.message });
    expect(messages.map((m) => m.role)).to.deep.equal(['system', 'user']);
  });

  it('drops the partial assistant text when the stream breaks mid-answer', async () => {
    const provider = fakeProvider([]);
    provider.chatStream = async function* () {
      yield { type: 'text', text: 'half an ans' };
      throw new ProviderError('STREAM_CUT', 'The connection broke mid-answer. Try again.', { retryable: true });
    };
    /** @type {ChatMessage[]} */
    const messages = [{ role: 'user', content: 'q' }];
    const outcome = await runAgent({ provider, mode: 'ask', messages, toolContext: { tabId: 1, browser: fakeBrowser() }, emit: () => {} });
    expect(outcome.status).to.equal('error');
    expect(outcome.error?.code).to.equal('STREAM_CUT');
    expect(messages).to.have.length(1);
  });

  it('stops at the step cap with an explanation', async () => {
    const turns = Array.from({ length: 5 }, () => call({ name: 'snapshot' }));
    const { outcome, events } = await run(turns, { maxSteps: 3 });
    expect(outcome.status).to.equal('step_limit');
    expect(outcome.steps).to.equal(3);
    const last = /** @type {any} */ (events.at(-1));
    expect(last.code).to.equal('STEP_LIMIT');
    expect(last.message).to.contain('raise the cap in Settings');
  });

  it('stops when aborted and keeps the conversation well-formed', async () => {
    const controller = new AbortController();
    const browser = fakeBrowser((msg) => { controller.abort(); return { ok: true, data: msg.type }; });
    const { outcome, messages } = await run([call({ name: 'snapshot' }, { name: 'click', args: { ref: 'e1' } })], { signal: controller.signal, browser });
    expect(outcome.status).to.equal('aborted');
    const tools = messages.filter((m) => m.role === 'tool');
    expect(tools).to.have.length(2);
    expect(tools[1].content).to.contain('ABORTED');
  });

  it('reports an unexpected tool exception as TOOL_FAILED instead of crashing', async () => {
    const browser = fakeBrowser(() => { throw new Error('boom'); });
    const { outcome, messages } = await run([call({ name: 'snapshot' }), say('ok')], { browser });
    expect(outcome.status).to.equal('answered');
    expect(messages.find((m) => m.role === 'tool')?.content).to.match(/^Error TOOL_FAILED: The tool failed unexpectedly. Details:\n<untrusted_page_content id="\w+">\nsnapshot failed: boom\n/);
  });
});

describe('agent loop: images from tools', () => {
  it('sends a screenshot to a vision model as an image after the batch, and only its size to others', async () => {
    const { messages } = await run([call({ name: 'screenshot' }, { name: 'snapshot' }), say('I see it.')]);
    const roles = messages.map((m) => m.role);
    // Tool messages answer the calls first; the picture follows as a user message marked as Tabwright's.
    expect(roles).to.deep.equal(['system', 'user', 'assistant', 'tool', 'tool', 'user', 'assistant']);
    const pic = /** @type {any[]} */ (messages[5].content);
    expect(pic[0].text).to.match(/^\[Tabwright, not the user\] The image returned by screenshot\./);
    expect(pic[1]).to.deep.equal({ type: 'image', mediaType: 'image/png', data: 'AAAA' });

    const provider = fakeProvider([call({ name: 'screenshot' }), say('ok')]);
    provider.capabilities = () => ({ tools: true, vision: false, contextWindow: 128_000, maxOutput: 1000 });
    /** @type {ChatMessage[]} */
    const blind = [{ role: 'user', content: 'look' }];
    await runAgent({ provider, mode: 'act', messages: blind, toolContext: { tabId: 1, browser: fakeBrowser() }, emit: () => {} });
    expect(blind.some((m) => Array.isArray(m.content))).to.equal(false);
    expect(String(blind.find((m) => m.role === 'tool')?.content)).to.contain('"width":1');
  });
});
