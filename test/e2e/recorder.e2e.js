// The tab recorder. Chrome, as a person uses it, in a headed Chromium (harness/headed.js) with no
// allow-listing or auto-accept flag: Chrome gives tabCapture a tab only when the person invokes
// Tabwright on it, and a click in the side panel does not count. So the side panel (opened with the
// toolbar key) records that tab at once; a worker stopped mid-recording loses nothing; the pill
// stops and saves, and ffprobe reads the WebM (a duration and frames). On a tab never invoked,
// "Record this tab" opens Chrome's share picker (newcomer.e2e.js picks a tab in it); closed without a
// pick, the status line names the record key, and the key, pressed on the tab through the X server,
// records; a tab picked in the picker records from the panel, and closing the panel ends and saves it.
// On the invoked tab the agent may record while it acts; a tab never invoked gets the key. Firefox: record_tab answers
// the documented error, and the panel shows no record button.
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, sendFromPanel, tabIdOf, useMockProvider, waitForIdle } from './harness/env.js';
import { openFixture, tool } from './harness/tools.js';
import { headedChromiumEnv, pickerKeys, pressKeys, sidePanel, xdotoolKeys } from './harness/headed.js';
import { probe } from './harness/ffprobe.js';
import { findRef, lastToolResult } from '../fixtures/llm/conversation.js';
import { children, readDurationMs, readElement } from '../../src/chrome/offscreen/webm-duration.js';

/** @import { TestEnv } from './harness/env.js' */
/** @import { Driver } from './harness/driver.js' */

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

/** The path of a download, once it is complete. @param {import('./harness/env.js').TestEnv} env @param {number} id */
async function downloaded(env, id) {
  const path = /** @type {string} */ (await env.control.waitFor(async (/** @type {number} */ i) => {
    const [d] = await browser.downloads.search({ id: i });
    return d?.state === 'complete' ? d.filename : null;
  }, id, { timeout: 20_000, message: 'the recording\'s download to complete' }));
  return path;
}

/** @param {import('./harness/env.js').TestEnv} env */
async function stopWorker(env) {
  const c = env.browser.raw;
  const cdp = await c.newCDPSession(c.pages()[0]);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await cdp.detach().catch(() => {});
}


/** The recorder's state, as the panel asks it. @param {TestEnv} env */
const recorderStatus = async (env) => (await ask(env.control, { type: 'recorder.status' })).data;

/** The text of the panel's nth "Recording saved" note, once it shows. @param {Driver} panel @param {number} n */
function savedNote(panel, n) {
  return panel.waitFor((i) => [...document.querySelectorAll('#log .notice')].map((e) => e.textContent ?? '').filter((t) => /Recording saved/.test(t))[i - 1] ?? null,
    n, { timeout: 20_000, message: `saved-recording note ${n}` });
}

/** The newest WebM download's id. @param {TestEnv} env */
async function newestWebm(env) {
  const [d] = await env.control.evaluate(() => browser.downloads.search({ mime: 'video/webm', orderBy: ['-startTime'], limit: 1 }));
  return /** @type {number} */ (d.id);
}

scenario('tab recorder', (ctx) => {
  /** The headed Chromium and what the Chrome tests share: the counter tab, its side panel, the record key. */
  /** @type {{ env: TestEnv & { close(): Promise<void> }, page: Driver, panel: Driver, tabId: number, key: string, second?: Driver, secondId?: number } | null} */
  let h = null;

  before(async function () {
    this.timeout(120_000);
    await useMockProvider(ctx.env);
    if (ctx.kind !== 'chromium') return;
    const env = await headedChromiumEnv();
    await useMockProvider(env);
    const url = `${env.site.url}/counter.html`;
    const page = await env.browser.openPage(url);
    await page.page.bringToFront();
    const tabId = await tabIdOf(env, url);
    const commands = await env.control.evaluate(() => browser.commands.getAll());
    const key = commands.find((/** @type {any} */ c) => c.name === 'record-tab')?.shortcut ?? '';
    // The side panel, opened the way a person opens it: the toolbar button's key on the tab.
    await pressKeys('alt+shift+y', '^Counter');
    const panel = await sidePanel(env);
    h = { env, page, panel, tabId, key };
  });
  after(async () => { await h?.panel.close(); await h?.env.close(); });

  it('a person opens the side panel with the toolbar key and records: Record this tab starts, a stopped worker loses nothing, the pill saves a WebM ffprobe reads (Chrome); no button (Firefox)', async () => {
    if (ctx.kind !== 'chromium') {
      const { page, panel } = await openPageWithPanel(ctx.env, 'counter.html');
      try {
        await panel.waitFor(() => document.body.dataset.tabId, undefined, { message: 'the panel' });
        expect((await ask(ctx.env.control, { type: 'recorder.status' })).data).to.deep.equal({ available: false, recording: false });
        expect(await panel.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#record')).hidden)).to.equal(true);
        expect(await panel.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#record-item')).hidden)).to.equal(true);
      } finally { await page.close(); await panel.close(); }
      return;
    }
    const { env, page, panel, tabId } = /** @type {NonNullable<typeof h>} */ (h);
    await panel.waitFor((t) => document.body.dataset.tabId === String(t) && !(/** @type {HTMLElement} */ (document.querySelector('#record-item')).hidden), tabId, { message: 'the side panel on the counter tab, with Record this tab' });
    await panel.click('#more');
    await panel.click('#record-item');
    await panel.waitFor(() => !(/** @type {HTMLElement} */ (document.querySelector('#rec-pill')).hidden), undefined, { message: 'the recording pill' });
    expect(await recorderStatus(env)).to.include({ available: true, recording: true, tabId });
    await page.click('#add');
    const before = /** @type {number} */ (await env.control.waitFor(async () => {
      const r = await browser.runtime.sendMessage({ type: 'recorder.status' });
      return r.data.bytes > 0 ? r.data.bytes : null;
    }, undefined, { message: 'the first second of video' }));
    await stopWorker(env);
    // A new worker asks the offscreen document, which kept recording.
    await env.control.waitFor(async (b) => {
      const r = await browser.runtime.sendMessage({ type: 'recorder.status' });
      return r.data.recording && r.data.bytes > b;
    }, before, { message: 'the recording to go on after the worker stopped' });
    await page.click('#add');
    await panel.click('#rec-pill');
    const note = await savedNote(panel, 1);
    expect(note).to.match(/Recording saved to your downloads as Tabwright\/127\.0\.0\.1 /);
    await panel.waitFor(() => /** @type {HTMLElement} */ (document.querySelector('#rec-pill')).hidden, undefined, { message: 'the pill to go' });
    const path = await downloaded(env, await newestWebm(env));
    expect(webmFacts(await readFile(path))).to.include({ header: '1a45dfa3', webm: true, video: true });
    const probed = await probe(path);
    expect(probed.format).to.contain('webm');
    expect(probed.codec).to.match(/^vp[89]$/);
    expect(probed.seconds).to.be.greaterThan(1);
    expect(probed.frames).to.be.greaterThan(0);
    expect(await page.text('#count')).to.match(/2/);
  });

  it('on a tab the person never invoked, Record this tab opens Chrome\'s share picker; closed without a pick, the status line names the record key, and the key records and stops (Chrome)', async () => {
    if (ctx.kind !== 'chromium') return;
    const { env, panel, key } = /** @type {NonNullable<typeof h>} */ (h);
    expect(key, 'Chrome gave the record command its suggested key').to.equal('Alt+Shift+V');
    const url = `${env.site.url}/counter.html?second`;
    const second = await env.browser.openPage(url);
    await second.page.bringToFront();
    const tabId = await tabIdOf(env, url);
    await panel.waitFor((t) => document.body.dataset.tabId === String(t), tabId, { message: 'the side panel to follow the active tab' });
    await panel.click('#more');
    await panel.click('#record-item');
    // Chrome's own picker: the person closes it without picking.
    await pickerKeys(['Escape']);
    const hint = await panel.waitFor(() => { const s = /** @type {HTMLElement} */ (document.querySelector('#status')); return !s.hidden && s.textContent ? s.textContent : null; }, undefined, { message: 'what to do, in the status line' });
    expect(hint).to.contain('Chrome\'s share picker closed without a tab picked');
    expect(hint).to.contain(`Press ${key} on the tab: recording starts at once, and ${key} again stops and saves it`);
    expect((await recorderStatus(env)).recording).to.equal(false);
    // The key, on the tab, as the panel says: recording starts, and the pill replaces the instruction.
    await pressKeys(xdotoolKeys(key), '^Counter');
    await panel.waitFor(() => !(/** @type {HTMLElement} */ (document.querySelector('#rec-pill')).hidden), undefined, { message: 'the recording pill' });
    expect(await panel.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#status')).hidden)).to.equal(true);
    expect(await recorderStatus(env)).to.include({ recording: true, tabId });
    await env.control.waitFor(async () => (await browser.runtime.sendMessage({ type: 'recorder.status' })).data.bytes > 0, undefined, { message: 'the first second of video' });
    await pressKeys(xdotoolKeys(key), '^Counter');
    await savedNote(panel, 1);
    expect((await recorderStatus(env)).recording).to.equal(false);
    const probed = await probe(await downloaded(env, await newestWebm(env)));
    expect(probed.seconds).to.be.greaterThan(0.5);
    expect(probed.frames).to.be.greaterThan(0);
    h = { ...(/** @type {NonNullable<typeof h>} */ (h)), second, secondId: tabId };
  });

  it('on a tab the person invoked, the agent records while it acts (Chrome); on a tab never invoked the agent is told the key; record_tab\'s documented error (Firefox)', async () => {
    if (ctx.kind !== 'chromium') {
      const f = await openFixture(ctx.env, 'counter.html');
      try {
        const r = await tool(ctx.env, f.tabId, 'record_tab');
        expect(r).to.deep.include({ ok: false, code: 'RECORDING_UNAVAILABLE' });
        expect(r.message).to.match(/Firefox gives extensions no tab capture/);
        expect(await tool(ctx.env, f.tabId, 'stop_recording')).to.deep.include({ ok: false, code: 'RECORDING_UNAVAILABLE' });
      } finally { await f.page.close(); }
      return;
    }
    const { env, panel, key } = /** @type {NonNullable<typeof h>} */ (h);
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
      // A slow turn (the answer streams over about 1.5 s), so the recording holds a few frames.
      { chunkDelayMs: 300, toolCalls: [{ name: 'stop_recording', args: {} }] },
      (req) => {
        saved = Number(/"bytes":(\d+)/.exec(lastToolResult(req.body))?.[1] ?? 0);
        return { toolCalls: [{ name: 'done', args: { summary: 'Added one: the counter shows Count: 1, and the recording is in your downloads.' } }] };
      },
    ]);
    await sendFromPanel(panel, 'Record yourself adding one to the counter', 'act');
    const items = await waitForIdle(panel, 60_000);
    expect(env.llm.problems).to.deep.equal([]);
    expect(items.find((i) => i.tool === 'record_tab')?.cls).to.not.contain('failed');
    expect(items.find((i) => i.tool === 'stop_recording')?.cls).to.not.contain('failed');
    await savedNote(panel, 2);
    const path = await downloaded(env, await newestWebm(env));
    expect((await readFile(path)).length).to.equal(saved);
    const probed = await probe(path);
    expect(probed.seconds).to.be.greaterThan(0.5);
    expect(probed.frames).to.be.greaterThan(0);
    // Another tab, where the person never pressed the key: the agent is told which key the person must press.
    const other = await env.browser.openPage(`${env.site.url}/counter.html?third`);
    try {
      const otherId = await tabIdOf(env, `${env.site.url}/counter.html?third`);
      const r = await tool(env, otherId, 'record_tab');
      expect(r).to.deep.include({ ok: false, code: 'RECORDING_NOT_ALLOWED' });
      expect(r.message).to.contain(`Press ${key} on the tab`);
    } finally { await other.close(); }
  });

  it('a recording stops by itself at the length cap and is saved, with a note in the tab\'s conversation (Chrome)', async () => {
    if (ctx.kind !== 'chromium') return;
    const { env, panel, second, secondId } = /** @type {NonNullable<typeof h>} */ (h);
    const tabId = /** @type {number} */ (secondId);
    await second?.page.bringToFront();
    await panel.waitFor((t) => document.body.dataset.tabId === String(t), tabId, { message: 'the side panel back on the second tab' });
    const set = await ask(env.control, { type: 'settings.set', settings: { recorder: { maxSeconds: 5, maxMB: 200, audio: false } } });
    expect(set.ok, set.message).to.equal(true);
    try {
      const before = await env.control.evaluate(() => browser.downloads.search({ mime: 'video/webm' }).then((l) => l.length));
      const started = await ask(env.control, { type: 'recorder.start', tabId });
      expect(started.ok, started.message).to.equal(true);
      const note = await savedNote(panel, 3);
      expect(note).to.match(/It stopped by itself \(the length cap\)/);
      expect(await panel.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#rec-pill')).hidden)).to.equal(true);
      const list = await env.control.evaluate(() => browser.downloads.search({ mime: 'video/webm', orderBy: ['-startTime'] }));
      expect(list.length).to.equal(before + 1);
      const path = await downloaded(env, list[0].id);
      const facts = webmFacts(await readFile(path));
      expect(facts).to.include({ header: '1a45dfa3', webm: true, video: true });
      expect(facts.durationMs).to.be.within(4000, 8000);
      expect((await probe(path)).frames).to.be.greaterThan(0);
      expect((await recorderStatus(env)).recording).to.equal(false);
    } finally {
      await ask(env.control, { type: 'settings.set', settings: { recorder: { maxSeconds: 300, maxMB: 200, audio: false } } });
    }
  });

  it('a tab picked in Chrome\'s share picker records from the panel; the toolbar key closes the panel, and the recording ends and is saved (Chrome)', async () => {
    if (ctx.kind !== 'chromium') return;
    const { env, panel } = /** @type {NonNullable<typeof h>} */ (h);
    const panels = () => env.control.evaluate(() => (/** @type {any} */ (globalThis)).chrome.runtime.getContexts({ contextTypes: ['SIDE_PANEL'] }).then((l) => l.length));
    expect(await panels()).to.equal(1);
    const url = `${env.site.url}/counter.html?picked`;
    const picked = await env.browser.openPage(url);
    await picked.page.bringToFront();
    const tabId = await tabIdOf(env, url);
    await panel.waitFor((t) => document.body.dataset.tabId === String(t), tabId, { message: 'the side panel on the new tab' });
    const before = await env.control.evaluate(() => browser.downloads.search({ mime: 'video/webm' }).then((l) => l.length));
    await panel.click('#more');
    await panel.click('#record-item');
    // Never invoked here: Chrome's picker, the tab in front first in its list; Shift+Tab, Down, Enter shares it.
    await pickerKeys(['shift+Tab', 'Down', 'Return']);
    await panel.waitFor(() => !(/** @type {HTMLElement} */ (document.querySelector('#rec-pill')).hidden), undefined, { message: 'the recording pill' });
    expect(await recorderStatus(env)).to.include({ recording: true, tabId });
    // (Which tab was picked is checked in newcomer.e2e.js, where the page's height shows Chrome's
    // sharing bar; Playwright's fixed viewport here hides it.)
    await env.control.waitFor(async () => (await browser.runtime.sendMessage({ type: 'recorder.status' })).data.bytes > 0, undefined, { message: 'the first second of video, sent by the panel' });
    // The toolbar key on the tab closes the side panel it opened: the panel's stream goes with it.
    await pressKeys('alt+shift+y', '^Counter');
    await env.control.waitFor(() => (/** @type {any} */ (globalThis)).chrome.runtime.getContexts({ contextTypes: ['SIDE_PANEL'] }).then((/** @type {unknown[]} */ l) => l.length === 0), undefined, { message: 'the side panel to close' });
    const id = /** @type {number} */ (await env.control.waitFor(async (n) => {
      const list = await browser.downloads.search({ mime: 'video/webm', orderBy: ['-startTime'] });
      return list.length > n ? list[0].id : null;
    }, before, { timeout: 30_000, message: 'the recording saved once the panel closed' }));
    const probed = await probe(await downloaded(env, id));
    expect(probed.format).to.contain('webm');
    expect(probed.frames).to.be.greaterThan(0);
    expect((await recorderStatus(env)).recording).to.equal(false);
    await picked.close();
  });
});
