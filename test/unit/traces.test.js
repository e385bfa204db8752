// Traces: a run through the real loop, watched from outside, gives every request (its
// messages once each, tools, tokens, reply, time), every tool call with its page, the page data
// each request carried, and nothing secret; the store keeps traces within the retention.
import 'fake-indexeddb/auto';
import { expect } from 'chai';
import { runAgent } from '../../src/chrome/agent/loop.js';
import { createTraceRecorder } from '../../src/chrome/agent/traces/recorder.js';
import { outlineHash, providerOrigin } from '../../src/chrome/agent/traces/trace-util.js';
import { createTraceStore } from '../../src/chrome/service/trace-store.js';
import { createSecretVault } from '../../src/chrome/agent/safety/secrets.js';
import { isTrace, renderTrace, traceReportHtml } from '../../src/chrome/ui/trace-report.js';
import { validateSettings } from '../../src/chrome/service/settings-schema.js';
import { DEFAULT_SETTINGS } from '../../src/chrome/service/settings.js';
import { fakeProvider, say, call } from './fake-provider.js';
import { fakeBrowser } from './fake-browser.js';

/** @import { Trace } from '../../src/chrome/types/traces' */

/** A run that snapshots, types a password and a note, then answers. */
async function tracedRun() {
  const browser = fakeBrowser((msg) => {
    if (msg.type === 'content.snapshot') return { ok: true, data: { text: '- textbox "Password" [e1]\n- textbox "Note" [e2]', url: browser.url, title: 'Login', refs: 2, truncated: false } };
    if (msg.type === 'content.targetInfo') return { ok: true, data: { role: 'textbox', name: 'Password', secretField: /** @type {any} */ (msg).target.ref === 'e1' } };
    return { ok: true, data: { done: msg.type } };
  });
  browser.url = 'https://shop.test/login';
  const provider = fakeProvider([
    [...call({ name: 'snapshot' }), { type: 'usage', usage: { inputTokens: 100, outputTokens: 10 } }],
    [...call({ name: 'type', args: { ref: 'e1', text: 'correct-horse-42' } }), { type: 'usage', usage: { inputTokens: 200, outputTokens: 12 } }],
    [...call({ name: 'type', args: { ref: 'e2', text: 'key sk-abcdefghijklmnopqrstuvwx1234' } })],
    [...say('Signed in.'), { type: 'usage', usage: { inputTokens: 300, outputTokens: 5 } }],
  ]);
  Object.assign(provider, { label: 'OpenAI-compatible (http://127.0.0.1:9/v1)' });
  const secrets = createSecretVault();
  let clock = 1_000;
  const rec = createTraceRecorder({
    id: 'run-1', tabId: 1, kind: 'agent', mode: 'act', task: 'Sign in', url: browser.url, title: 'Login',
    getTab: async () => ({ url: browser.url, title: 'Login' }), secrets, now: () => (clock += 5),
    price: () => ({ input: 1, output: 2 }),
  });
  const outcome = await runAgent({
    provider: rec.wrapProvider(provider, true), mode: 'act', secrets,
    messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'Sign in' }],
    toolContext: { tabId: 1, browser }, emit: (e) => rec.onEvent(e), verifyDone: false,
  });
  return { trace: await rec.finish(outcome), provider };
}

describe('traces: the recorder', () => {
  it('records each request whole (messages once each), its reply, tokens, cost and time, and each tool call with its page', async () => {
    const { trace, provider } = await tracedRun();
    expect(trace.steps.map((s) => (s.kind === 'model' ? 'model' : s.name))).to.deep.equal(['model', 'snapshot', 'model', 'type', 'model', 'type', 'model']);
    expect(trace.totals).to.deep.include({ modelCalls: 4, inputTokens: 600, outputTokens: 27, toolCalls: 3, errors: 0 });
    expect(trace.totals.costUsd).to.be.closeTo((600 * 1 + 27 * 2) / 1e6, 1e-12);
    const first = /** @type {import('../../src/chrome/types/traces').ModelStep} */ (trace.steps[0]);
    expect(first.provider).to.deep.equal({ kind: 'fake', label: 'OpenAI-compatible (http://127.0.0.1:9/v1)', model: 'fake-1', origin: 'http://127.0.0.1:9' });
    expect(first.tools).to.include('click');
    expect(first.reply.toolCalls[0].name).to.equal('snapshot');
    // The pool holds each message once; the last request names all of them in order.
    const last = /** @type {any} */ (trace.steps[6]);
    expect(last.messages.map((/** @type {number} */ i) => trace.messages[i].role)).to.deep.equal(provider.requests[3].messages.map((m) => m.role));
    expect(trace.messages.length).to.be.lessThan(provider.requests.reduce((n, r) => n + r.messages.length, 0));
    const snap = /** @type {any} */ (trace.steps[1]);
    expect(snap).to.deep.include({ url: 'https://shop.test/login', time: 'page' });
    expect(snap.outlineHash).to.equal(outlineHash(snap.result.data));
    expect(/** @type {any} */ (trace.steps[3]).outlineHash).to.equal(snap.outlineHash);
  });

  it('is the ledger: which page data each request carried, new or sent again', async () => {
    const { trace } = await tracedRun();
    const second = /** @type {any} */ (trace.steps[2]);
    expect(second.pageData.find((/** @type {any} */ p) => p.source === 'tool')).to.deep.include({ tool: 'snapshot', url: 'https://shop.test/login', fresh: true });
    const third = /** @type {any} */ (trace.steps[4]);
    expect(third.pageData.find((/** @type {any} */ p) => p.tool === 'snapshot')).to.deep.include({ fresh: false });
    expect(third.pageData.find((/** @type {any} */ p) => p.source === 'system')).to.deep.include({ fresh: false });
  });

  it('keeps no secret: a typed password and a token-looking string are masked everywhere', async () => {
    const { trace } = await tracedRun();
    const text = JSON.stringify(trace);
    expect(text).to.not.contain('correct-horse-42');
    expect(text).to.not.contain('sk-abcdefghijklmnopqrstuvwx1234');
    expect(text).to.contain('••••••');
  });

  it('renders a timeline and a self-contained report with every step, escaping page text', async () => {
    const { trace } = await tracedRun();
    trace.task = 'Sign in <script>alert(1)</script>';
    const t = (/** @type {string} */ key, /** @type {any} */ subs) => `${key}${subs ? `(${[subs].flat().join(',')})` : ''}`;
    const html = traceReportHtml(trace, t, 'en');
    expect(html).to.not.contain('<script>');
    expect(html.match(/<li class="step /g)).to.have.length(trace.steps.length);
    expect(html).to.contain('traceLedger').and.contain('https://shop.test/login');
    expect(renderTrace(trace, t)).to.contain('data-kind="model"');
    expect(isTrace(JSON.parse(JSON.stringify(trace)))).to.equal(true);
    expect(isTrace({ v: 1, id: 'x' })).to.equal(false);
  });

  it('finds where a provider sends its requests from its label', () => {
    expect(providerOrigin('Anthropic (https://api.anthropic.com/v1)')).to.equal('https://api.anthropic.com');
    expect(providerOrigin('Chrome built-in')).to.equal('');
  });
});

describe('traces: screenshots and settings', () => {
  it('keeps a small thumbnail of a screenshot a step took, and of an image a request carried, not the image', async () => {
    const browser = fakeBrowser();
    const provider = fakeProvider([call({ name: 'screenshot' }), say('Seen.')]);
    const rec = createTraceRecorder({ id: 'r2', tabId: 1, kind: 'agent', mode: 'act', task: 'look', url: browser.url, title: 'T', getTab: async () => ({ url: browser.url, title: 'T' }), thumbnail: async (d) => `thumb:${d.slice(0, 22)}` });
    const outcome = await runAgent({ provider: rec.wrapProvider(provider, true), mode: 'act', messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'look' }], toolContext: { tabId: 1, browser }, emit: (e) => rec.onEvent(e), verifyDone: false });
    const trace = await rec.finish(outcome);
    const shot = /** @type {any} */ (trace.steps.find((s) => s.kind === 'tool' && s.name === 'screenshot'));
    expect(shot.thumbnail).to.equal('thumb:data:image/png;base64,');
    expect(shot.result).to.not.have.property('image');
    const image = trace.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((c) => c.type === 'image');
    expect(image).to.deep.include({ type: 'image', mediaType: 'image/png', thumbnail: 'thumb:data:image/png;base64,' });
    expect(image).to.not.have.property('data');
    expect(/** @type {any} */ (trace.steps[2]).pageData.some((/** @type {any} */ p) => p.source === 'image')).to.equal(true);
  });

  it('"record traces" and the retention are settings, checked like every other', () => {
    expect(validateSettings({ ...DEFAULT_SETTINGS, traces: { record: false, keepRuns: 20, keepDays: 7 } }).ok).to.equal(true);
    const bad = validateSettings({ ...DEFAULT_SETTINGS, traces: { record: 'yes', keepRuns: 0, keepDays: 9999 } });
    expect(bad.ok ? [] : bad.errors.map((e) => e.path)).to.deep.equal(['traces.record', 'traces.keepRuns', 'traces.keepDays']);
  });
});

describe('traces: the store', () => {
  /** @param {string} id @param {number} endedAt @returns {Trace} */
  const trace = (id, endedAt) => /** @type {Trace} */ ({ v: 1, id, tabId: 1, kind: 'agent', mode: 'act', task: id, url: 'https://a.test/', title: '', site: 'a.test', status: 'done', startedAt: endedAt - 5, endedAt, provider: null, messages: [{ role: 'user', content: 'x' }], steps: [], totals: { modelCalls: 0, inputTokens: 0, outputTokens: 0, modelMs: 0, toolMs: 0, pageMs: 0, wallMs: 5, toolCalls: 0, errors: 0 } });

  it('lists summaries newest first, gets one whole, deletes one, and keeps only the newest and recent ones', async () => {
    const store = createTraceStore();
    await store.clear();
    const now = Date.now();
    await store.save(trace('a', now - 3_000), { keepRuns: 10, keepDays: 30 });
    await store.save(trace('b', now - 2_000), { keepRuns: 10, keepDays: 30 });
    await store.save(trace('old', now - 40 * 86_400_000), { keepRuns: 10, keepDays: 30 });
    expect((await store.list()).map((x) => x.id)).to.deep.equal(['b', 'a']);
    expect(await store.list().then((l) => 'steps' in l[0])).to.equal(false);
    expect((await store.get('a'))?.messages).to.have.length(1);
    await store.save(trace('c', now - 1_000), { keepRuns: 2, keepDays: 30 });
    expect((await store.list()).map((x) => x.id)).to.deep.equal(['c', 'b']);
    expect(await store.get('a')).to.equal(undefined);
    await store.delete('b');
    expect((await store.list()).map((x) => x.id)).to.deep.equal(['c']);
  });
});
