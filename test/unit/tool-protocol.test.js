// The prompt-based tool protocol (models without native tool calling), argument repair, Chrome's
// built-in model through an injected LanguageModel double, and which endpoints count as local.
import { expect } from 'chai';
import { parseToolCalls, withPromptTools, toPromptMessages } from '../../src/chrome/providers/tool-protocol.js';
import { repairJSON } from '../../src/chrome/providers/json-repair.js';
import { createBuiltinProvider } from '../../src/chrome/providers/builtin.js';
import { createProvider } from '../../src/chrome/providers/index.js';
import { localOrigins, PROVIDER_KINDS } from '../../src/chrome/providers/presets.js';
import { collect } from '../../src/chrome/providers/base.js';
import { parseToolArgs } from '../../src/chrome/agent/tool-args.js';

/** @import { Provider, StreamEvent, ToolSchema } from '../../src/chrome/types/core' */

const NAMES = ['click', 'type', 'done'];

describe('prompt-based tool protocol', () => {
  it('finds a call in a fenced block and keeps the prose', () => {
    const r = parseToolCalls('I will press it.\n```json\n{"tool": "click", "arguments": {"ref": "e3"}}\n```', NAMES);
    expect(r).to.deep.equal({ text: 'I will press it.', calls: [{ name: 'click', arguments: '{"ref":"e3"}' }] });
  });

  it('finds bare JSON inside prose, with trailing commas and single quotes', () => {
    const r = parseToolCalls("Sure! {'tool': 'type', 'arguments': {'ref': 'e7', 'text': \"it's me\",},} Then I'm done.", NAMES);
    expect(r.calls).to.deep.equal([{ name: 'type', arguments: JSON.stringify({ ref: 'e7', text: "it's me" }) }]);
    expect(r.text).to.equal("Sure!  Then I'm done.");
  });

  it('accepts name/args and function-style spellings, ignores JSON that names no known tool', () => {
    expect(parseToolCalls('{"name": "done", "args": {"summary": "ok"}}', NAMES).calls).to.deep.equal([{ name: 'done', arguments: '{"summary":"ok"}' }]);
    const plain = parseToolCalls('The config is {"tool": "rm -rf", "x": 1}.', NAMES);
    expect(plain).to.deep.equal({ text: 'The config is {"tool": "rm -rf", "x": 1}.', calls: [] });
  });

  it('repairs only unambiguous slips', () => {
    expect(repairJSON('{"a": 1,}')).to.deep.equal({ ok: true, value: { a: 1 }, repaired: true });
    expect(repairJSON("{'a': 'b'}")).to.deep.include({ ok: true, value: { a: 'b' } });
    expect(repairJSON('{ref: "e1", submit: True}')).to.deep.include({ ok: true, value: { ref: 'e1', submit: true } });
    expect(repairJSON('{"ref": "e1"')).to.deep.include({ ok: true, value: { ref: 'e1' } });
    expect(repairJSON('{"text": "cut off mid-str').ok).to.equal(false);
    expect(repairJSON('click e1').ok).to.equal(false);
  });

  it('native tool arguments from any model get the same repair in the loop, or a tool error', () => {
    const schema = { type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'] };
    expect(parseToolArgs("{'ref': 'e4',}", schema)).to.deep.equal({ ok: true, args: { ref: 'e4' } });
    const bad = parseToolArgs('{"ref": e4 oops', schema);
    expect(bad).to.deep.include({ ok: false, code: 'INVALID_ARGUMENTS', retryable: true });
  });

  it('turns history into text for the model and its answer back into tool calls', async () => {
    /** @type {ToolSchema[]} */
    const tools = [{ name: 'click', description: 'Click', parameters: { type: 'object', properties: { ref: { type: 'string' } } } }];
    const messages = toPromptMessages([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'click', arguments: '{"ref":"e1"}' }] },
      { role: 'tool', toolCallId: 'c1', name: 'click', content: 'clicked' },
    ], tools);
    expect(messages[0].content).to.contain('sys').and.to.contain('- click: Click');
    expect(messages[2]).to.deep.equal({ role: 'assistant', content: '```json\n{"tool":"click","arguments":{"ref":"e1"}}\n```' });
    expect(messages[3]).to.deep.equal({ role: 'user', content: 'Tool result for click:\nclicked' });

    /** @type {any[]} */
    const seen = [];
    /** @type {Provider} */
    const inner = {
      kind: 'x', label: 'X', model: 'm', listModels: async () => [],
      async *chatStream(req) {
        seen.push(req);
        yield { type: 'text', text: 'Pressing.\n```json\n{"tool": "cli' };
        yield { type: 'text', text: 'ck", "arguments": {"ref": "e9"}}\n```' };
        yield { type: 'finish', reason: 'stop' };
      },
    };
    const r = await collect(withPromptTools(inner).chatStream({ messages: [{ role: 'user', content: 'go' }], tools }));
    expect(seen[0].tools).to.deep.equal([]);
    expect(seen[0].messages[0].role).to.equal('system');
    expect(r).to.deep.include({ text: 'Pressing.', finish: 'tool_calls' });
    expect(r.toolCalls.map((c) => [c.name, c.arguments])).to.deep.equal([['click', '{"ref":"e9"}']]);
  });
});

describe("Chrome's built-in model (Prompt API, injected)", () => {
  /** @param {string} state @param {string[]} chunks */
  function fakeLM(state, chunks) {
    /** @type {any[]} */
    const created = [];
    return {
      created,
      availability: async () => /** @type {any} */ (state),
      async create(/** @type {any} */ o) {
        const session = {
          prompts: /** @type {string[]} */ ([]), destroyed: false, inputUsage: 42,
          async *promptStreaming(/** @type {string} */ input) { session.prompts.push(input); yield* chunks; },
          destroy() { session.destroyed = true; },
        };
        created.push({ opts: o, session });
        return session;
      },
    };
  }

  it('streams an answer on-device at no cost, history as initial prompts', async () => {
    const lm = fakeLM('available', ['Hel', 'lo']);
    const p = createBuiltinProvider({ languageModel: lm });
    const r = await collect(p.chatStream({ messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'hi' }], tools: [] }));
    expect(r).to.deep.include({ text: 'Hello', finish: 'stop' });
    expect(r.usage).to.deep.equal({ inputTokens: 42, outputTokens: 2, costUsd: 0 });
    expect(lm.created[0].opts.initialPrompts).to.deep.equal([{ role: 'system', content: 'sys' }]);
    expect(lm.created[0].session.prompts).to.deep.equal(['hi']);
    expect(lm.created[0].session.destroyed).to.equal(true);
  });

  it('calls tools through the prompt protocol when built by createProvider', async () => {
    const lm = fakeLM('available', ['```json\n{"tool": "done", "arguments": {"summary": "ok"}}\n```']);
    const p = createProvider({ kind: 'builtin', baseUrl: '', model: '', apiKey: '' }, { fetch, languageModel: lm });
    expect(p.capabilities?.().tools).to.equal(false);
    const r = await collect(p.chatStream({ messages: [{ role: 'user', content: 'finish' }], tools: [{ name: 'done', description: 'end', parameters: { type: 'object' } }] }));
    expect(r.toolCalls.map((c) => c.name)).to.deep.equal(['done']);
  });

  it('says clearly when the browser has no built-in model', async () => {
    const e = await collect(createBuiltinProvider({ languageModel: null }).chatStream({ messages: [{ role: 'user', content: 'x' }], tools: [] })).catch((x) => x);
    expect(e.code).to.equal('NOT_FOUND');
    expect(e.message).to.contain('not available in this browser').and.to.contain('Settings → Provider');
    const e2 = await createBuiltinProvider({ languageModel: fakeLM('unavailable', []) }).testConnection?.();
    expect(e2).to.deep.include({ ok: false, code: 'NOT_FOUND' });
  });
});

describe('provider kinds and local endpoints', () => {
  it('only loopback and private-network endpoints get their Origin removed', () => {
    expect(localOrigins({ baseUrl: 'http://localhost:11434' })).to.deep.equal(['http://localhost:11434']);
    expect(localOrigins({ baseUrl: 'http://127.0.0.1:1234/v1' })).to.deep.equal(['http://127.0.0.1:1234']);
    expect(localOrigins({ baseUrl: 'http://192.168.1.20:11434' })).to.deep.equal(['http://192.168.1.20:11434']);
    expect(localOrigins({ baseUrl: 'http://[::1]:8080/v1' })).to.deep.equal(['http://[::1]:8080']);
    expect(localOrigins({ baseUrl: 'https://api.openai.com/v1' })).to.deep.equal([]);
    expect(localOrigins({ baseUrl: 'http://172.32.0.1' })).to.deep.equal([]);
    expect(localOrigins({ baseUrl: 'not a url' })).to.deep.equal([]);
  });

  it('every kind has a format, a default model, and local kinds need no key', () => {
    for (const [id, k] of Object.entries(PROVIDER_KINDS)) {
      expect(k.model, id).to.be.a('string').and.not.equal('');
      if (k.local) expect(k.needsKey, id).to.equal(false);
      if (k.format !== 'builtin') expect(() => new URL(k.baseUrl), id).to.not.throw();
    }
    expect(Object.keys(PROVIDER_KINDS)).to.include.members(['openai', 'anthropic', 'gemini', 'ollama', 'builtin', 'openrouter', 'groq', 'mistral', 'deepseek', 'xai', 'together', 'fireworks', 'azure', 'lmstudio', 'llamacpp', 'vllm', 'jan', 'localai']);
  });
});
