// Issue 20, the tab recorder. Chrome: the model starts a recording, acts on a fixture page for a few
// seconds and stops it; the file in the downloads is a real WebM (EBML header, a duration, a video
// track). A recording whose service worker is stopped in the middle still comes out whole, and the
// panel's button and pill follow it. Firefox: record_tab answers the documented error, and the panel
// shows no record button.
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { openFixture, tool } from './harness/tools.js';
import { findRef, lastToolResult } from '../fixtures/llm/conversation.js';
import { children, readDurationMs, readElement } from '../../src/chrome/offscreen/webm-duration.js';

/** What a WebM file holds, read from its bytes. @param {Buffer} bytes */
function webmFacts(bytes) {
  const b = new Uint8Array(bytes);
  const ebml = readElement(b, 0);
  const header = bytes.subarray(0, 4).toString('hex');
  const docType = ebml ? Buffer.from(b.subarray(ebml.dataStart, ebml.dataStart + /** @type {number} */ (ebml.size))).toString('latin1') : '';
  const segment = ebml && ebml.size !== null ? readElement(b, ebml.dataStart + ebml.size) : null;
  const top = segment ? children(b, segment.dataStart, b.length) : [];
  const tracks = top.find((e) => e.id === 0x1654ae6b);
  // TrackType (0x83) 1 = video, in each TrackEntry (0xAE).
  const types = tracks && tracks.size !== null ? children(b, tracks.dataStart, tracks.dataStart + tracks.size).filter((e) => e.id === 0xae)
    .map((entry) => children(b, entry.dataStart, entry.dataStart + /** @type {number} */ (entry.size)).find((e) => e.id === 0x83))
    .map((t) => (t ? b[t.dataStart] : 0)) : [];
  return { header, webm: docType.includes('webm'), durationMs: readDurationMs(b.subarray(0, 65_536)), video: types.includes(1), clusters: top.filter((e) => e.id === 0x1f43b675).length };
}

/** The downloaded file of a download id, once it is complete. @param {import('./harness/env.js').TestEnv} env @param {number} id */
async function downloaded(env, id) {
  const path = /** @type {string} */ (await env.control.waitFor(async (/** @type {number} */ i) => {
    const [d] = await browser.downloads.search({ id: i });
    return d?.state === 'complete' ? d.filename : null;
  }, id, { timeout: 20_000, message: 'the recording\'s download to complete' }));
  return readFile(path);
}

/** @param {import('./harness/env.js').TestEnv} env */
async function stopWorker(env) {
  const c = env.browser.raw;
  const cdp = await c.newCDPSession(c.pages()[0]);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await cdp.detach().catch(() => {});
}

const pause = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

scenario('tab recorder', (ctx) => {
  before(async () => { await useMockProvider(ctx.env); });

  it('the model records while it acts and the download is a valid WebM with a duration and a video track (Chrome); record_tab\'s documented error (Firefox)', async () => {
    if (ctx.kind !== 'chromium') {
      const f = await openFixture(ctx.env, 'counter.html');
      try {
        const r = await tool(ctx.env, f.tabId, 'record_tab');
        expect(r).to.deep.include({ ok: false, code: 'RECORDING_UNAVAILABLE' });
        expect(r.message).to.match(/Firefox gives extensions no tab capture/);
        expect(await tool(ctx.env, f.tabId, 'stop_recording')).to.deep.include({ ok: false, code: 'RECORDING_UNAVAILABLE' });
        const status = await ask(ctx.env.control, { type: 'recorder.status' });
        expect(status).to.deep.equal({ ok: true, data: { available: false, recording: false } });
      } finally { await f.page.close(); }
      return;
    }
    const { env } = ctx;
    /** @type {number | null} */
    let saved = null;
    env.llm.script([
      (req) => {
        const names = (req.body.tools ?? []).map((/** @type {any} */ t) => t.function?.name ?? t.name);
        if (!names.includes('record_tab')) throw new Error('record_tab not offered in Chrome');
        return { toolCalls: [{ name: 'record_tab', args: {} }] };
      },
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (req) => ({ toolCalls: [{ name: 'click', args: { ref: findRef(lastToolResult(req.body), 'button', 'Add one') } }] }),
      // Slow turns (the answer streams over about 1.5 s), so the recording lasts a few seconds.
      { chunkDelayMs: 300, toolCalls: [{ name: 'click', args: { text: 'Add one' } }] },
      { chunkDelayMs: 300, toolCalls: [{ name: 'stop_recording', args: {} }] },
      (req) => {
        const r = lastToolResult(req.body);
        saved = Number(/"bytes":(\d+)/.exec(r)?.[1] ?? 0);
        return { toolCalls: [{ name: 'done', args: { summary: 'Added two: the counter shows Count: 2, and the recording is in your downloads.' } }] };
      },
    ]);
    const { page, panel, tabId } = await openPageWithPanel(env, 'counter.html');
    try {
      await sendFromPanel(panel, 'Record yourself adding two to the counter', 'act');
      // While it records: the pill in the panel and the badge on the page.
      await panel.waitFor(() => !(/** @type {HTMLElement} */ (document.querySelector('#rec-pill')).hidden), undefined, { message: 'the recording pill in the panel' });
      const badge = await env.control.waitFor(async (/** @type {number} */ t) => {
        const r = await browser.tabs.sendMessage(t, { type: 'content.recordingBadgeState' }).catch(() => null);
        return r?.ok && r.data.shown ? true : null;
      }, tabId, { message: 'the badge on the page' });
      expect(badge).to.equal(true);
      const items = await waitForIdle(panel, 60_000);
      expect(env.llm.problems).to.deep.equal([]);
      expect(await page.text('#count')).to.match(/2/);
      expect(items.find((i) => i.tool === 'stop_recording')?.cls).to.not.contain('failed');
      expect(items.some((i) => i.cls.includes('notice') && /Recording saved to your downloads as Tabwright\//.test(i.text))).to.equal(true);
      await panel.waitFor(() => /** @type {HTMLElement} */ (document.querySelector('#rec-pill')).hidden, undefined, { message: 'the pill to go' });
      const [download] = await env.control.evaluate(() => browser.downloads.search({ mime: 'video/webm', orderBy: ['-startTime'], limit: 1 }));
      expect(download).to.exist;
      const bytes = await downloaded(env, download.id);
      expect(bytes.length).to.equal(saved);
      const facts = webmFacts(bytes);
      expect(facts.header).to.equal('1a45dfa3');
      expect(facts.webm).to.equal(true);
      expect(facts.video).to.equal(true);
      expect(facts.durationMs).to.be.greaterThan(2500);
      expect(facts.clusters).to.be.greaterThan(0);
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('the panel\'s button records, a worker stopped mid-recording loses nothing, Stop saves the whole file (Chrome); no button (Firefox)', async () => {
    if (ctx.kind !== 'chromium') {
      const { page, panel } = await openPageWithPanel(ctx.env, 'counter.html');
      try {
        await panel.waitFor(() => document.body.dataset.ready === 'true' || document.body.dataset.tabId, undefined, { message: 'the panel' });
        await pause(300);
        expect(await panel.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#record')).hidden)).to.equal(true);
      } finally { await page.close(); await panel.close(); }
      return;
    }
    const { env } = ctx;
    const { page, panel, tabId } = await openPageWithPanel(env, 'counter.html');
    try {
      await panel.waitFor(() => !(/** @type {HTMLElement} */ (document.querySelector('#record')).hidden), undefined, { message: 'the record button' });
      await panel.click('#record');
      await panel.waitFor(() => !(/** @type {HTMLElement} */ (document.querySelector('#rec-pill')).hidden), undefined, { message: 'the recording pill' });
      const started = await ask(env.control, { type: 'recorder.status' });
      expect(started.data).to.include({ available: true, recording: true, tabId });
      await page.click('#add');
      await pause(1200);
      await stopWorker(env);
      await pause(1500);
      await page.click('#add');
      // A new worker asks the offscreen document, which kept recording.
      const still = await ask(env.control, { type: 'recorder.status' });
      expect(still.data).to.include({ recording: true, tabId });
      const stopped = await tool(env, tabId, 'stop_recording');
      expect(stopped.ok, stopped.message).to.equal(true);
      expect(stopped.data.seconds).to.be.greaterThan(2.5);
      const [download] = await env.control.evaluate(() => browser.downloads.search({ mime: 'video/webm', orderBy: ['-startTime'], limit: 1 }));
      const facts = webmFacts(await downloaded(env, download.id));
      expect(facts).to.include({ header: '1a45dfa3', webm: true, video: true });
      expect(facts.durationMs).to.be.greaterThan(2500);
      expect(await tool(env, tabId, 'stop_recording')).to.deep.include({ ok: false, code: 'NOT_RECORDING' });
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('a recording stops by itself at the length cap and is saved, with a note in the tab\'s conversation (Chrome)', async () => {
    if (ctx.kind !== 'chromium') return;
    const { env } = ctx;
    const set = await ask(env.control, { type: 'settings.set', settings: { recorder: { maxSeconds: 5, maxMB: 200, audio: false } } });
    expect(set.ok, set.message).to.equal(true);
    const { page, panel, tabId } = await openPageWithPanel(env, 'counter.html');
    try {
      const before = await env.control.evaluate(() => browser.downloads.search({ mime: 'video/webm' }).then((l) => l.length));
      const started = await ask(env.control, { type: 'recorder.start', tabId });
      expect(started.ok, started.message).to.equal(true);
      const note = await panel.waitFor(() => [...document.querySelectorAll('#log .notice')].map((n) => n.textContent).find((t) => /Recording saved/.test(t ?? '')) ?? null,
        undefined, { timeout: 20_000, message: 'the saved-recording note' });
      expect(note).to.match(/It stopped by itself \(the length cap\)/);
      expect(await panel.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#rec-pill')).hidden)).to.equal(true);
      const list = await env.control.evaluate(() => browser.downloads.search({ mime: 'video/webm', orderBy: ['-startTime'] }));
      expect(list.length).to.equal(before + 1);
      const facts = webmFacts(await downloaded(env, list[0].id));
      expect(facts).to.include({ header: '1a45dfa3', webm: true, video: true });
      expect(facts.durationMs).to.be.within(4000, 8000);
      expect((await ask(env.control, { type: 'recorder.status' })).data.recording).to.equal(false);
    } finally {
      await ask(env.control, { type: 'settings.set', settings: { recorder: { maxSeconds: 300, maxMB: 200, audio: false } } });
      await page.close();
      await panel.close();
    }
  });
});
