// The developer tools' browser-free parts: execute_js's source and reply, the network view, the
// policy's gate on running code, which modes offer which tools, and the recorder's WebM duration fix.
import { expect } from 'chai';
import vm from 'node:vm';
import { evalSource, guessForm, readEvalReply } from '../../src/chrome/agent/js-eval.js';
import { filterEntries, formatEntries, maskHeaders, maskUrl, isTextMime } from '../../src/chrome/agent/network-view.js';
import { createPolicy } from '../../src/chrome/agent/safety/policy.js';
import { createTaskScope } from '../../src/chrome/agent/safety/scope.js';
import { toolsForMode } from '../../src/chrome/agent/tools/index.js';
import { patchDuration, readDurationMs, readElement, children } from '../../src/chrome/offscreen/webm-duration.js';

/**
 * Runs execute_js's source as a page would (a fresh global), and reads its reply as the tool does.
 * @param {string} code @param {'expression' | 'body'} [form] @returns {Promise<any>}
 */
async function run(code, form = /** @type {'expression' | 'body'} */ (guessForm(code))) {
  const context = vm.createContext({ JSON, Promise, Map, Set, Date, Error, WeakSet, Number, String, Object, Array });
  let source = evalSource(code, form);
  try {
    return readEvalReply({ reply: await vm.runInContext(source, context) }, 10_000);
  } catch (err) {
    // A syntax error stops the whole source from compiling: nothing ran.
    source = '';
    return readEvalReply({ compileError: { name: /** @type {Error} */ (err).name, message: /** @type {Error} */ (err).message } }, 10_000);
  }
}

describe('execute_js: the source and its reply', () => {
  it('answers an expression, a function body, and an awaited promise', async () => {
    expect(await run('1 + 2')).to.deep.equal({ ok: true, data: { type: 'number', value: '3' } });
    expect(await run('const a = [1, 2, 3];\nreturn a.map((x) => x * 2)')).to.deep.include({ ok: true });
    expect(JSON.parse(/** @type {any} */ (await run('const a = [1, 2, 3];\nreturn a.map((x) => x * 2)')).data.value)).to.deep.equal([2, 4, 6]);
    expect(await run('await new Promise((r) => setTimeout(() => r("late"), 5))'.replace('setTimeout', 'Promise.resolve().then'))).to.have.property('ok');
    expect(await run('Promise.resolve({ a: 1 })')).to.deep.equal({ ok: true, data: { type: 'object', value: '{\n "a": 1\n}' } });
  });

  it('returns a thrown error with its name, message and stack, as an error the model can act on', async () => {
    const r = await run('null.x');
    expect(r.ok).to.equal(false);
    expect(r).to.have.property('code', 'JS_EXCEPTION');
    expect(/** @type {any} */ (r).message).to.match(/TypeError/);
    const thrown = await run('throw new RangeError("too far")', 'body');
    expect(thrown).to.deep.include({ code: 'JS_EXCEPTION' });
    expect(/** @type {any} */ (thrown).message).to.match(/RangeError: too far\n.*at /s);
  });

  it('names values JSON cannot hold, cuts cycles and long results', async () => {
    const r = /** @type {any} */ (await run('const o = { f() {}, u: undefined, big: 10n, m: new Map([[1, 2]]) }; o.self = o; return o'));
    const v = JSON.parse(r.data.value);
    expect(v).to.deep.equal({ f: '[function f]', u: '[undefined]', big: '10n', m: { map: [[1, 2]] }, self: '[circular]' });
    const long = /** @type {any} */ (readEvalReply({ reply: JSON.stringify({ ok: true, type: 'string', value: 'x'.repeat(5000) }) }, 1000));
    expect(long.data.truncated).to.equal(true);
    expect(long.data.value.length).to.be.below(1100);
  });

  it('guesses the form from a top-level return, and a syntax error in one form is the other form\'s turn', async () => {
    expect(guessForm('document.title')).to.equal('expression');
    expect(guessForm('const a = 1;\nreturn a')).to.equal('body');
    expect(guessForm('if (x) { return 1 }')).to.equal('body');
    expect((await run('let x = 1; x + 1', 'expression')).code).to.equal('JS_SYNTAX_ERROR');
  });

  it('says when the page blocks code or the code never finishes', () => {
    expect(readEvalReply({ blocked: 'call to eval() blocked by CSP' }, 100)).to.deep.include({ ok: false, code: 'JS_BLOCKED' });
    expect(readEvalReply({ timeout: true }, 100)).to.deep.include({ ok: false, code: 'JS_TIMEOUT' });
    expect(readEvalReply({ reply: 'not json' }, 100)).to.deep.include({ ok: false, code: 'TOOL_FAILED' });
  });
});

describe('network_requests: the view of a tab\'s log', () => {
  const entries = [
    { id: 'r1', method: 'GET', url: 'https://shop.test/', type: 'document', status: 200, size: 5120, ms: 40, startedAt: 1 },
    { id: 'r2', method: 'POST', url: 'https://shop.test/api/orders?token=abcd', type: 'fetch', status: 500, mimeType: 'application/json', startedAt: 2,
      requestHeaders: { Authorization: 'Bearer sk-live-1234567890abcdef', 'Content-Type': 'application/json' }, responseHeaders: { 'Set-Cookie': 'sid=1' } },
    { id: 'r3', method: 'GET', url: 'https://cdn.test/app.js', type: 'script', error: 'net::ERR_FAILED', startedAt: 3 },
    { id: 'r4', method: 'GET', url: 'https://shop.test/api/cart', type: 'xhr', startedAt: 4 },
  ];

  it('filters by part of the URL, status class, failure, method and type (fetch and xhr are one kind)', () => {
    expect(filterEntries(entries, { url: 'API' }).map((e) => e.id)).to.deep.equal(['r2', 'r4']);
    expect(filterEntries(entries, { status: '5xx' }).map((e) => e.id)).to.deep.equal(['r2']);
    expect(filterEntries(entries, { status: '200' }).map((e) => e.id)).to.deep.equal(['r1']);
    expect(filterEntries(entries, { status: 'failed' }).map((e) => e.id)).to.deep.equal(['r3']);
    expect(filterEntries(entries, { status: 'pending' }).map((e) => e.id)).to.deep.equal(['r4']);
    expect(filterEntries(entries, { method: 'post' }).map((e) => e.id)).to.deep.equal(['r2']);
    expect(filterEntries(entries, { type: 'fetch' }).map((e) => e.id)).to.deep.equal(['r2', 'r4']);
    expect(filterEntries(entries, { limit: 1 }).map((e) => e.id)).to.deep.equal(['r4']);
  });

  it('writes one line per request, and masks credentials in URLs and headers', () => {
    const text = formatEntries(entries);
    expect(text.split('\n')[0]).to.equal('[r1] GET 200 document https://shop.test/ 5.0 kB 40 ms');
    expect(text).to.include('[r3] GET failed (net::ERR_FAILED) script');
    expect(text).to.not.include('abcd');
    expect(maskUrl('https://a.test/x?api_key=SECRET&q=shoes')).to.equal('https://a.test/x?api_key=%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2&q=shoes');
    const h = maskHeaders(entries[1].requestHeaders);
    expect(h).to.deep.equal({ Authorization: '••••••', 'Content-Type': 'application/json' });
    expect(maskHeaders({ cookie: 'a=b', 'X-Api-Key': 'k' })).to.deep.equal({ cookie: '••••••', 'X-Api-Key': '••••••' });
  });

  it('tells text bodies from the rest', () => {
    for (const m of ['text/html', 'application/json', 'application/ld+json', 'application/javascript', undefined]) expect(isTextMime(m), String(m)).to.equal(true);
    for (const m of ['image/png', 'video/webm', 'application/octet-stream']) expect(isTextMime(m), m).to.equal(false);
  });
});

describe('the policy on running code (execute_js)', () => {
  const PAGE = 'https://shop.test/cart';
  /** @param {ReturnType<typeof createPolicy>} p */
  const check = (p, url = PAGE) => p.checkCall({ tool: 'execute_js', args: { code: 'document.cookie' }, effects: ['reads_page', 'acts_on_page', 'runs_code'], url, target: null, mode: 'act' });

  it('asks, showing the code and the site; Ask mode refuses', () => {
    const p = createPolicy({ scope: createTaskScope(PAGE) });
    const v = check(p);
    expect(v.action).to.equal('ask');
    if (v.action !== 'ask') return;
    expect(v.request).to.deep.include({ rule: 'run_code', category: 'code', site: 'shop.test', action: 'Run JavaScript in the page' });
    expect(v.request.details).to.deep.equal([{ label: 'code', value: 'document.cookie' }]);
    expect(p.checkCall({ tool: 'execute_js', args: { code: '1' }, effects: ['reads_page', 'acts_on_page', 'runs_code'], url: PAGE, target: null, mode: 'ask' }).action).to.equal('refuse');
  });

  it('runs without asking on an always-allowed site, or after "Allow for this task" there, but never on a sensitive site', () => {
    expect(check(createPolicy({ scope: createTaskScope(PAGE), alwaysAllow: ['shop.test'] })).action).to.equal('allow');
    const p = createPolicy({ scope: createTaskScope(PAGE) });
    const v = check(p);
    if (v.action !== 'ask') throw new Error('expected ask');
    p.answered(v.request, 'task');
    expect(check(p).action).to.equal('allow');
    expect(check(p, 'https://other.test/').action).to.equal('ask');
    const bank = createPolicy({ scope: createTaskScope(PAGE), alwaysAllow: ['shop.test'], sensitiveSite: () => ({ name: 'Shop bank' }) });
    const b = check(bank);
    expect(b.action).to.equal('ask');
    if (b.action === 'ask') expect(b.request.severity).to.equal('high');
  });
});

describe('which tools each mode offers', () => {
  const names = (/** @type {any[]} */ tools) => tools.map((t) => t.name);
  it('developer tools only in Act mode and only when turned on; the recorder only where the browser has one', () => {
    const dev = ['execute_js', 'network_requests', 'inspect_styles', 'inject_css'];
    expect(names(toolsForMode('act'))).to.not.include.members(['execute_js']);
    expect(names(toolsForMode('act', { developer: true }))).to.include.members(dev);
    for (const d of dev) expect(names(toolsForMode('ask', { developer: true, recorder: true }))).to.not.include(d);
    expect(names(toolsForMode('plan', { developer: true }))).to.not.include('execute_js');
    expect(names(toolsForMode('act'))).to.not.include('record_tab');
    expect(names(toolsForMode('act', { recorder: true }))).to.include.members(['record_tab', 'stop_recording']);
    expect(names(toolsForMode('ask', { recorder: true }))).to.not.include('record_tab');
  });
});

describe('the recorder\'s WebM duration', () => {
  /** A minimal live WebM head as Chrome's MediaRecorder writes it: EBML header, Segment of unknown size, Info without Duration, Tracks, a Cluster. */
  function liveHead() {
    const el = (/** @type {number[]} */ id, /** @type {number[]} */ data) => [...id, 0x80 | data.length, ...data];
    const ebml = el([0x1a, 0x45, 0xdf, 0xa3], el([0x42, 0x82], [...Buffer.from('webm')]));
    const info = el([0x15, 0x49, 0xa9, 0x66], [...el([0x2a, 0xd7, 0xb1], [0x0f, 0x42, 0x40]), ...el([0x4d, 0x80], [...Buffer.from('Chrome')])]);
    const tracks = el([0x16, 0x54, 0xae, 0x6b], el([0xae], el([0x83], [1])));
    const cluster = [0x1f, 0x43, 0xb6, 0x75, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xe7, 0x81, 0x00];
    return Uint8Array.from([...ebml, 0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, ...info, ...tracks, ...cluster]);
  }

  it('writes a Duration into the Info and keeps everything after it byte for byte', () => {
    const head = liveHead();
    expect(readDurationMs(head)).to.equal(null);
    const fixed = /** @type {Uint8Array} */ (patchDuration(head, 12_345));
    expect(readDurationMs(fixed)).to.equal(12_345);
    // The Tracks and the Cluster follow unchanged.
    const tail = head.subarray(head.length - 23);
    expect(Buffer.from(fixed.subarray(fixed.length - 23)).equals(Buffer.from(tail))).to.equal(true);
    // Patching again replaces the Duration rather than adding a second.
    const again = /** @type {Uint8Array} */ (patchDuration(fixed, 2_000));
    expect(readDurationMs(again)).to.equal(2_000);
    const segment = /** @type {any} */ (readElement(again, readElement(again, 0)?.dataStart + /** @type {any} */ (readElement(again, 0)).size));
    const info = children(again, segment.dataStart, again.length).find((c) => c.id === 0x1549a966);
    expect(children(again, /** @type {any} */ (info).dataStart, /** @type {any} */ (info).dataStart + /** @type {any} */ (info).size).filter((c) => c.id === 0x4489)).to.have.length(1);
  });

  it('leaves what is not a WebM alone', () => {
    expect(patchDuration(Uint8Array.from([0x89, 0x50, 0x4e, 0x47]), 100)).to.equal(null);
    expect(patchDuration(new Uint8Array(0), 100)).to.equal(null);
  });
});

describe('run_workflow is offered only when there are workflows', () => {
  it('leaves it out of Act mode without saved workflows, and never offers it in Ask mode', () => {
    const names = (/** @type {any[]} */ tools) => tools.map((t) => t.name);
    expect(names(toolsForMode('act'))).to.not.include('run_workflow');
    expect(names(toolsForMode('act', { workflows: true }))).to.include('run_workflow');
    expect(names(toolsForMode('ask', { workflows: true }))).to.not.include('run_workflow');
  });
});
