// The router's parts (service/router/) over real Sessions and a fake `browser.runtime`.
import { expect } from 'chai';
import { Session } from '../../src/chrome/service/session.js';
import { sessionLoader, trimmedNotice } from '../../src/chrome/service/router/sessions.js';
import { answerMessage, fromExtensionPage } from '../../src/chrome/service/router/messages.js';
import { attachPanel, connectPort } from '../../src/chrome/service/router/panels.js';
import { announceRecording, recordingNotice } from '../../src/chrome/service/router/recording.js';
import { localEndpointsOf } from '../../src/chrome/service/router.js';
import { say } from '../../src/chrome/agent/error-codes.js';

/** @type {any} */
const g = globalThis;
const BASE = 'chrome-extension://me/';

/** A port double: what was posted, whether it was cut, and its listeners. @param {string} name @param {any} sender */
function fakePort(name, sender) {
  /** @type {any[]} */
  const posted = [];
  /** @type {(() => void)[]} */
  const onDisconnect = [];
  return {
    name, sender, posted, cut: false, closers: onDisconnect,
    postMessage(/** @type {any} */ m) { posted.push(m); },
    disconnect() { this.cut = true; },
    onMessage: { addListener() {} },
    onDisconnect: { addListener: (/** @type {() => void} */ l) => onDisconnect.push(l) },
  };
}

describe('router parts', () => {
  /** @type {any} */
  let saved;
  beforeEach(() => { saved = g.browser; g.browser = { runtime: { id: 'me', getURL: (/** @type {string} */ p) => BASE + p } }; });
  afterEach(() => { g.browser = saved; });

  it('sessionLoader: one session for callers at once, restored from storage, an interrupted one saved again', async () => {
    const old = new Session(4);
    old.addUser('hi', 'act');
    old.state.transition('start');
    const stored = JSON.parse(JSON.stringify(old.toJSON()));
    /** @type {Map<number, Session>} */
    const sessions = new Map();
    /** @type {number[]} */
    const persisted = [];
    let loads = 0;
    const session = sessionLoader({ sessions, store: { load: async (id) => { loads++; return id === 4 ? stored : null; } }, onChange: () => {}, persist: (s) => persisted.push(s.tabId) });
    const [a, b] = await Promise.all([session(4), session(4)]);
    expect(a).to.equal(b);
    expect(loads).to.equal(1);
    expect(a.interrupted).to.equal(true);
    expect(persisted).to.deep.equal([4]);
    expect((await session(5)).items).to.deep.equal([]);
    expect([...sessions.keys()]).to.deep.equal([4, 5]);
  });

  it('trimmedNotice tells a tab once', () => {
    const s = new Session(2);
    const notice = trimmedNotice(new Map([[2, s]]));
    notice(2, 3);
    notice(2, 5);
    notice(9, 1);
    expect(s.items.map((i) => /** @type {any} */ (i).code)).to.deep.equal(['STORAGE_TRIMMED']);
  });

  it('answerMessage: the indicator stops its own tab only; a web page is refused; other messages are not ours', () => {
    const s = new Session(3);
    /** @type {any[]} */
    const stopped = [];
    const deps = /** @type {any} */ ({ runs: { stopRun: (/** @type {Session} */ x) => { stopped.push(x.tabId); return true; } }, mcp: { stopTab: () => false }, ops: { recorder: null } });
    /** @type {any[]} */
    const answers = [];
    const answer = (/** @type {any} */ msg, /** @type {any} */ sender) => answerMessage({ sessions: new Map([[3, s]]), deps }, msg, sender, (r) => answers.push(r));
    expect(answer({ type: 'indicator.stop' }, { id: 'me', tab: { id: 3 } })).to.equal(false);
    expect(answer({ type: 'indicator.stop' }, { id: 'other', tab: { id: 3 } })).to.equal(false);
    expect(answer({ type: 'chat.send', tabId: 3, text: 'x', mode: 'ask' }, { id: 'me', url: 'https://evil.test/' })).to.equal(false);
    expect(answer({ type: 'nothing.of.ours' }, { id: 'me', url: BASE + 'ui/panel.html' })).to.equal(false);
    expect(stopped).to.deep.equal([3]);
    expect(answers).to.deep.equal([{ ok: true, data: { stopped: true } }, { ok: false, code: 'FORBIDDEN', message: say('FORBIDDEN', 'only Tabwright\'s own pages may send this request') }]);
    expect(fromExtensionPage({ id: 'me', url: BASE + 'ui/jobs.html' })).to.equal(true);
  });

  it('connectPort keeps the indicator\'s lifeline, cuts a port that is not a panel of ours, and attaches a panel', async () => {
    const s = new Session(6);
    s.addUser('hello', 'ask');
    /** @type {((rows: any) => void)[]} */
    const subscribers = [];
    const ctx = {
      session: async () => s,
      overview: /** @type {any} */ ({ subscribe: (/** @type {any} */ l) => { subscribers.push(l); return () => subscribers.splice(0); }, list: async () => ({ runs: [], queued: [] }) }),
      spend: { view: () => ({ usd: 0.01 }) },
    };
    const lifeline = fakePort('indicator', { id: 'me', tab: { id: 6 } });
    connectPort(ctx, lifeline);
    const stranger = fakePort('panel:6', { id: 'me', url: 'https://evil.test/' });
    connectPort(ctx, stranger);
    expect([lifeline.cut, stranger.cut]).to.deep.equal([false, true]);
    const panel = fakePort('panel:6', { id: 'me', url: BASE + 'ui/panel.html' });
    attachPanel(ctx, panel, 6);
    await new Promise((r) => setImmediate(r));
    expect(panel.posted.map((m) => m.type)).to.deep.equal(['runs', 'state', 'usage', 'runCost']);
    s.addUser('again', 'ask');
    expect(panel.posted.at(-1)).to.include({ type: 'upsert' });
    panel.closers.forEach((l) => l());
    expect(s.listeners.size).to.equal(0);
    expect(subscribers).to.have.length(0);
  });

  it('recordingNotice says the size and why it stopped; announceRecording tells every panel and the recorded tab', () => {
    const file = /** @type {const} */ ({ tabId: 1, filename: 'tab.webm', downloadId: 1, bytes: 300_000, seconds: 4.4, mimeType: 'video/webm', reason: 'max_size' });
    expect(recordingNotice(file).message).to.equal('Recording saved to your downloads as tab.webm (293 KB, 4 s). It stopped by itself (the size cap).');
    expect(recordingNotice({ ...file, bytes: 3_145_728, reason: 'stopped' }).message).to.include('(3.0 MB, 4 s).');
    const a = new Session(1);
    const b = new Session(2);
    /** @type {any[]} */
    const heard = [];
    b.listeners.add((e) => heard.push(e.type));
    announceRecording(new Map([[1, a], [2, b]]), /** @type {any} */ ({ recording: false }), file);
    expect(heard).to.deep.equal(['recording']);
    expect(a.items[0]).to.include({ kind: 'notice', code: 'RECORDING_SAVED' });
    expect(b.items).to.deep.equal([]);
  });

  it('localEndpointsOf hands the platform the origins of local providers only', async () => {
    /** @type {string[][]} */
    const set = [];
    const sync = localEndpointsOf(/** @type {any} */ ({ setLocalEndpoints: async (/** @type {string[]} */ o) => { set.push(o); } }));
    await sync(/** @type {any} */ ({ provider: { kind: 'ollama', baseUrl: 'http://127.0.0.1:11434' }, providers: [{ kind: 'openai', baseUrl: 'https://api.openai.com/v1' }] }));
    expect(set).to.have.length(1);
    expect(set[0]).to.not.be.empty;
    expect(set[0].every((o) => o.includes('127.0.0.1') || o.includes('localhost'))).to.equal(true);
  });
});
