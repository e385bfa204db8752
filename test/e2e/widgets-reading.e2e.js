// Reading and the rest of the tool set: screenshots (viewport, element, full page),
// get_html without secrets, console logs, fetch_url (GET only without permission), downloads,
// the element picker driven by a real pointer and keyboard, upload by path (Chrome), and Chrome's
// fallback to synthetic events when another debugger holds the tab.
import { expect } from 'chai';
import { writeFile, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { scenario } from './harness/scenario.js';
import { ok, openFixture, tool } from './harness/tools.js';

/** Width and height from a PNG's IHDR chunk. @param {string} base64 */
function pngSize(base64) {
  const b = Buffer.from(base64, 'base64');
  expect(b.subarray(1, 4).toString()).to.equal('PNG');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

scenario('widgets: reading', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  before(async () => { f = await openFixture(ctx.env, 'widgets/reading.html'); });
  after(async () => { await f?.page.close(); });

  it('takes viewport, element and full-page screenshots', async () => {
    const { env } = ctx;
    if (ctx.kind === 'chromium') await /** @type {any} */ (f.page.page).bringToFront();
    const vp = await ok(env, f.tabId, 'screenshot');
    const vpSize = pngSize(vp.image.data);
    const inner = await f.page.evaluate(() => ({ w: innerWidth, h: innerHeight, dpr: devicePixelRatio }));
    expect(vpSize.width).to.equal(Math.round(inner.w * inner.dpr));
    const el = await ok(env, f.tabId, 'screenshot', { selector: '#swatch' });
    expect(el.data).to.include({ width: 120, height: 80, what: 'element' });
    expect(pngSize(el.image.data)).to.deep.equal({ width: Math.round(120 * inner.dpr), height: Math.round(80 * inner.dpr) });
    const full = await ok(env, f.tabId, 'screenshot', { full_page: true });
    expect(full.data.what).to.equal('full page');
    expect(pngSize(full.image.data).height).to.be.greaterThan(0);
  });

  it('returns an element\'s HTML without password values', async () => {
    const r = await ok(ctx.env, f.tabId, 'get_html', { selector: '#card' });
    expect(r.data).to.contain('<h2>Price list</h2>');
    expect(r.data).to.not.contain('s3cret-pass');
    const capped = await ok(ctx.env, f.tabId, 'get_html', { max_chars: 200 });
    expect(capped.data).to.contain('truncated');
  });

  it('reads the page\'s console, filtered by level, including messages caused by an action', async () => {
    const { env } = ctx;
    const all = await ok(env, f.tabId, 'console_logs');
    expect(all.data.map((/** @type {any} */ m) => m.text)).to.include.members(['page ready {"items":3}', 'low stock']);
    await ok(env, f.tabId, 'click', { text: 'Break something' });
    const errors = await ok(env, f.tabId, 'console_logs', { level: 'error' });
    expect(errors.data.map((/** @type {any} */ m) => m.text)).to.deep.equal(['checkout failed: 502']);
  });

  it('fetches a URL with GET; a POST through the tool runner is sent as asked (the agent gates it)', async () => {
    const { env } = ctx;
    const r = await ok(env, f.tabId, 'fetch_url', { url: `${env.site.url}/widgets/data.json` });
    expect(r.data).to.include({ status: 200, contentType: 'application/json' });
    expect(JSON.parse(r.data.text).name).to.equal('Fixture API');
    const post = await tool(env, f.tabId, 'fetch_url', { url: `${env.site.url}/widgets/data.json`, method: 'POST', body: '{}' });
    // The tool runner is the developer's tool: no confirmation gate (the agent's gate: test/unit/loop-control.test.js).
    expect(post).to.deep.include({ ok: true });
    expect(post.data.status).to.equal(200);
  });

  it('reads a PDF\'s text, by page range', async () => {
    const { env } = ctx;
    const all = await ok(env, f.tabId, 'read_pdf', { url: `${env.site.url}/widgets/sample.pdf` });
    expect(all.data).to.include({ pages: 3, from: 1, to: 3, truncated: false });
    expect(all.data.text).to.contain('Revenue rose 12 percent.');
    expect(all.data.text).to.contain('--- page 3 ---');
    const two = await ok(env, f.tabId, 'read_pdf', { url: `${env.site.url}/widgets/sample.pdf`, from_page: 2, to_page: 2 });
    expect(two.data.text).to.equal('--- page 2 ---\nPage two: outlook\nSteady growth expected.');
    const notPdf = await tool(env, f.tabId, 'read_pdf', { url: `${env.site.url}/widgets/data.json` });
    expect(notPdf.ok).to.equal(false);
  });

  it('waits for text, a URL change, network idle and a stable DOM', async () => {
    const { env } = ctx;
    await ok(env, f.tabId, 'click', { text: 'Prepare report' });
    const t = await ok(env, f.tabId, 'wait_for', { text: 'Report ready', timeout_ms: 5000 });
    // It waited for the text (the page shows it a moment after the click) and said how long; a wait
    // that ran out would have answered TIMEOUT, not ok.
    expect(t.data.waitedMs).to.be.a('number').and.at.least(0);
    await ok(env, f.tabId, 'wait_for', { url_contains: 'report=1', timeout_ms: 5000 });
    await ok(env, f.tabId, 'wait_for', { network_idle: true, dom_stable_ms: 200, timeout_ms: 5000 });
    const never = await tool(env, f.tabId, 'wait_for', { selector: '#never-there', timeout_ms: 300 });
    expect(never).to.include({ ok: false, code: 'TIMEOUT' });
  });

  it('lists a download the page started', async () => {
    const { env } = ctx;
    await ok(env, f.tabId, 'click', { text: 'Download prices' });
    const found = await env.control.waitFor(async (/** @type {number} */ tabId) => {
      const r = await browser.runtime.sendMessage({ type: 'tool.run', tabId, name: 'list_downloads', args: { query: 'prices' } });
      return r.ok && r.data.find((/** @type {any} */ d) => d.url.endsWith('/widgets/prices.csv')) ? r.data : null;
    }, f.tabId, { message: 'the download to be listed' });
    expect(found[0].state).to.be.oneOf(['in_progress', 'complete']);
  });

  it('lets the user pick an element with the pointer, move to its parent with ArrowUp, and choose it', async () => {
    const { env } = ctx;
    const pending = tool(env, f.tabId, 'ask_user_which_element', { message: 'Pick the sentence' });
    const raw = /** @type {any} */ (f.page.page);
    await f.page.waitFor(() => document.querySelector('tabwright-picker') !== null, undefined, { message: 'the picker overlay' });
    const box = await f.page.evaluate(() => { const r = /** @type {Element} */ (document.querySelector('#inner')).getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; });
    await raw.mouse.move(box.x, box.y);
    await raw.mouse.move(box.x + 1, box.y + 1);
    await raw.keyboard.press('ArrowUp');
    await raw.keyboard.press('Enter');
    const r = await pending;
    expect(r.ok, r.message).to.equal(true);
    expect(r.data).to.include({ selector: '#pick-me', tag: 'p', text: 'Choose this sentence please' });
    expect(r.data.box.width).to.be.greaterThan(100);
    expect(await f.page.evaluate(() => document.querySelector('tabwright-picker'))).to.equal(null);
    // Esc cancels.
    const cancelled = tool(env, f.tabId, 'ask_user_which_element', {});
    await f.page.waitFor(() => document.querySelector('tabwright-picker') !== null, undefined, { message: 'the picker overlay' });
    await raw.keyboard.press('Escape');
    expect(await cancelled).to.include({ ok: false, code: 'CANCELLED' });
  });

  it('uploads a file by path in Chrome (CDP) and explains why Firefox cannot', async () => {
    const { env } = ctx;
    const dir = await mkdtemp(join(tmpdir(), 'tw-up-'));
    const path = join(dir, 'report.txt');
    await writeFile(path, 'from disk');
    const u = await openFixture(env, 'widgets/forms.html');
    try {
      const r = await tool(env, u.tabId, 'upload_file', { selector: 'input[type=file]', files: [{ path }] });
      if (ctx.kind === 'chromium') {
        expect(r.ok, r.message).to.equal(true);
        await u.page.waitFor(() => document.querySelector('#file-out')?.textContent, undefined, { message: 'the file to be read' });
        expect(await u.page.text('#file-out')).to.equal('report.txt:from disk');
      } else {
        expect(r).to.include({ ok: false, code: 'UNSUPPORTED' });
      }
    } finally { await u.page.close(); }
  });

  if (ctx.kind === 'chromium') {
    it('falls back to synthetic events while another debugger holds the tab, then recovers trusted input', async () => {
      const { env } = ctx;
      const p = await openFixture(env, 'widgets/pointer.html');
      try {
        // The control page attaches first: the service worker's attach then fails ("another debugger").
        await env.control.evaluate((tabId) => /** @type {any} */ (globalThis).chrome.debugger.attach({ tabId }, '1.3'), p.tabId);
        const r = await ok(env, p.tabId, 'click', { text: 'Closed shadow button' });
        expect(r.data.trusted).to.equal(undefined);
        expect(await p.page.text('#shadow-out')).to.equal('closed;');
        await env.control.evaluate((tabId) => /** @type {any} */ (globalThis).chrome.debugger.detach({ tabId }), p.tabId);
        const again = await ok(env, p.tabId, 'click', { text: 'Closed shadow button' });
        expect(again.data.trusted).to.equal(true);
        expect(await p.page.text('#shadow-out')).to.equal('closed;closed(trusted);');
      } finally { await p.page.close(); }
    });
  }
});
