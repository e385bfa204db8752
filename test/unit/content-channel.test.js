// The background's channel to content scripts (service/content-channel.js): every message ends by
// its deadline, frames that cannot host scripts are never waited on, and a frame whose document
// refused the scripts is not tried again until it navigates. The WebExtension API is a stub here;
// the real browsers are in test/e2e/frames-trouble.e2e.js.
import { expect } from 'chai';
import { createContentChannel, scriptableUrl, frameOf } from '../../src/chrome/service/content-channel.js';

/**
 * A stub `browser` global: frames by id with a URL and how their content script answers.
 * @param {Record<number, { url: string, answer?: 'ok' | 'never' | 'absent', errorOccurred?: boolean }>} frames
 */
function stubBrowser(frames) {
  const calls = { sent: /** @type {number[]} */ ([]), injected: /** @type {number[]} */ ([]) };
  /** @type {any} */ (globalThis).browser = {
    tabs: {
      async sendMessage(/** @type {number} */ _tab, /** @type {any} */ msg, /** @type {{ frameId: number }} */ opts) {
        calls.sent.push(opts.frameId);
        const f = frames[opts.frameId];
        if (!f || f.answer === 'absent') throw new Error('Could not establish connection. Receiving end does not exist.');
        if (f.answer === 'never') return new Promise(() => {});
        return { ok: true, data: { type: msg.type, frameId: opts.frameId } };
      },
    },
    webNavigation: {
      async getAllFrames() { return Object.entries(frames).map(([id, f]) => ({ frameId: Number(id), parentFrameId: Number(id) ? 0 : -1, url: f.url, errorOccurred: !!f.errorOccurred })); },
      async getFrame(/** @type {{ frameId: number }} */ q) { const f = frames[q.frameId]; return f ? { parentFrameId: q.frameId ? 0 : -1, url: f.url } : null; },
    },
  };
  return calls;
}

/** @param {{ inject?: (tabId: number, frameId?: number) => Promise<void>, generation?: number }} [opts] */
function channel(opts = {}) {
  const injected = /** @type {number[]} */ ([]);
  const platform = /** @type {any} */ ({ async injectContent(/** @type {number} */ tabId, /** @type {number} */ frameId = 0) { injected.push(frameId); await opts.inject?.(tabId, frameId); } });
  let generation = opts.generation ?? 1;
  const c = createContentChannel(platform, {
    tabGone: async () => false, settle: async () => {}, noDocumentYet: () => false, failed: () => false, generation: () => generation,
  });
  return { c, injected, navigate() { generation++; } };
}

describe('content channel', () => {
  /** @type {unknown} */
  let saved;
  before(() => { saved = /** @type {any} */ (globalThis).browser; });
  afterEach(() => { /** @type {any} */ (globalThis).browser = saved; });

  it('knows which frame URLs can host the content scripts', () => {
    expect(['https://a.example/', 'http://127.0.0.1:8/x'].map(scriptableUrl)).to.deep.equal([true, true]);
    expect(['about:blank', 'javascript:false', 'chrome-error://chromewebdata/', 'about:srcdoc', 'data:text/html,x'].map(scriptableUrl)).to.deep.equal([false, false, false, false, false]);
  });

  it('sends to the frame a ref names', () => {
    expect(frameOf({ type: 'content.click', ref: 'f7:e3' })).to.equal(7);
    expect(frameOf({ type: 'content.snapshot', frameId: 4 })).to.equal(4);
    expect(frameOf({ type: 'content.snapshot' })).to.equal(0);
  });

  it('ends a message to a frame that never answers with FRAME_UNRESPONSIVE naming the frame', async () => {
    stubBrowser({ 0: { url: 'https://news.example/', answer: 'ok' }, 9: { url: 'https://ads.example/slot', answer: 'never' } });
    const { c } = channel();
    // Frame 9 never answers: an answer at all is the deadline's doing (mocha's time-out guards a hang).
    const r = await c.sendToContent(1, { type: 'content.frameInfo', frameId: 9 }, { deadlineMs: 80 });
    expect(r).to.include({ ok: false, code: 'FRAME_UNRESPONSIVE' });
    expect(/** @type {any} */ (r).message).to.include('frame 9').and.to.include('https://ads.example/slot');
  });

  it('says the page itself did not answer when the top frame hangs', async () => {
    stubBrowser({ 0: { url: 'https://news.example/', answer: 'never' } });
    const r = await channel().c.sendToContent(1, { type: 'content.snapshot' }, { deadlineMs: 50 });
    expect(r).to.include({ ok: false, code: 'FRAME_UNRESPONSIVE' });
    expect(/** @type {any} */ (r).message).to.match(/^The page or one of its frames did not answer in time.* \(the page, within/);
  });

  it('never injects into a frame that cannot host scripts (javascript: URLs, error pages)', async () => {
    stubBrowser({ 0: { url: 'https://news.example/', answer: 'ok' }, 3: { url: 'javascript:false', answer: 'absent' }, 4: { url: 'chrome-error://chromewebdata/', answer: 'absent' } });
    const { c, injected } = channel({ inject: () => new Promise(() => {}) });
    for (const frameId of [3, 4]) {
      const r = await c.sendToContent(1, { type: 'content.frameInfo', frameId });
      expect(r).to.include({ ok: false, code: 'FRAME_NOT_SCRIPTABLE' });
    }
    expect(injected).to.deep.equal([]);
  });

  it('injects into the one frame that lacks its scripts, then asks again', async () => {
    const frames = { 0: { url: 'https://news.example/', answer: /** @type {'ok' | 'absent'} */ ('ok') }, 5: { url: 'https://widgets.example/', answer: /** @type {'ok' | 'absent'} */ ('absent') } };
    stubBrowser(frames);
    const { c, injected } = channel({ inject: async () => { frames[5].answer = 'ok'; } });
    const r = await c.sendToContent(1, { type: 'content.frameInfo', frameId: 5 });
    expect(r.ok).to.equal(true);
    expect(injected).to.deep.equal([5]);
  });

  it('remembers a frame whose document refused the scripts until the frame navigates', async () => {
    stubBrowser({ 0: { url: 'https://news.example/', answer: 'ok' }, 6: { url: 'https://news.example/', answer: 'absent' } });
    const ch = channel({ inject: async () => { throw new Error('Missing host permission for the tab'); } });
    expect(await ch.c.sendToContent(1, { type: 'content.frameInfo', frameId: 6 })).to.include({ code: 'FRAME_NOT_SCRIPTABLE' });
    expect(await ch.c.sendToContent(1, { type: 'content.frameInfo', frameId: 6 })).to.include({ code: 'FRAME_NOT_SCRIPTABLE' });
    expect(ch.injected).to.deep.equal([6]);
    expect((await ch.c.listFrames(1)).find((f) => f.frameId === 6)?.scriptable).to.equal(false);
    ch.navigate();
    await ch.c.sendToContent(1, { type: 'content.frameInfo', frameId: 6 });
    expect(ch.injected).to.deep.equal([6, 6]);
  });

  it('lists error frames as failed and never scriptable', async () => {
    stubBrowser({ 0: { url: 'https://news.example/', answer: 'ok' }, 2: { url: 'https://refused.example/', errorOccurred: true }, 3: { url: 'about:blank' } });
    const frames = await channel().c.listFrames(1);
    expect(frames.map((f) => [f.frameId, f.scriptable, f.failed])).to.deep.equal([[0, true, false], [2, false, true], [3, false, false]]);
  });
});
