// The developer tools in both browsers, through the tool runner (as the agent runs them)
// and through a real run in the panel: execute_js answers a value, a thrown error with its stack,
// a promise's result, and asks first unless the site is allowed; network_requests lists the page's
// fetches with their status and masks credentials; console_logs keeps an exception's stack;
// inspect_styles reads computed styles; inject_css changes one and New chat takes it away.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, sendFromPanel, transcript, useMockProvider, waitForIdle } from './harness/env.js';
import { ok, openFixture, tool } from './harness/tools.js';
import { lastToolResult } from '../fixtures/llm/conversation.js';

scenario('developer tools', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  before(async () => { f = await openFixture(ctx.env, 'devtools.html'); });
  after(async () => { await f?.page.close(); });

  it('execute_js: an expression, a function body, a promise, and a thrown error with its stack', async () => {
    const { env } = ctx;
    const title = await ok(env, f.tabId, 'execute_js', { code: 'document.title' });
    expect(title.data).to.deep.equal({ type: 'string', value: '"Developer tools fixture"' });
    // The page's own world: its variables are there.
    const cart = await ok(env, f.tabId, 'execute_js', { code: 'const c = window.appState.cart;\nreturn c.map((i) => i.sku + " x" + i.qty)' });
    expect(JSON.parse(cart.data.value)).to.deep.equal(['A-1 x2', 'B-7 x1']);
    const later = await ok(env, f.tabId, 'execute_js', { code: 'new Promise((r) => setTimeout(() => r({ user: window.appState.user }), 50))' });
    expect(JSON.parse(later.data.value)).to.deep.equal({ user: 'Ada' });
    const el = await ok(env, f.tabId, 'execute_js', { code: 'document.querySelector("#box")' });
    expect(JSON.parse(el.data.value)).to.equal('<div#box> "Status box"');
    const thrown = await tool(env, f.tabId, 'execute_js', { code: 'window.appState.orders.map((o) => o.id)' });
    expect(thrown).to.deep.include({ ok: false, code: 'JS_EXCEPTION' });
    // The stack follows the message (Chrome: "    at …", Firefox: "fn@url:line:col").
    expect(thrown.message).to.match(/TypeError/).and.match(/\n.*(\bat\b|@)/);
    const bad = await tool(env, f.tabId, 'execute_js', { code: 'return return' });
    expect(bad).to.deep.include({ ok: false, code: 'JS_SYNTAX_ERROR' });
    const never = await tool(env, f.tabId, 'execute_js', { code: 'new Promise(() => {})', timeout_ms: 300 });
    expect(never).to.deep.include({ ok: false, code: 'JS_TIMEOUT' });
  });

  it('network_requests: the page\'s fetches with method, status and type, credentials masked, and a body on request', async () => {
    const { env } = ctx;
    const first = await ok(env, f.tabId, 'network_requests');
    expect(first.data.list).to.match(/Watching this tab from now on|\[r\d+\]/);
    await f.page.click('#load');
    await f.page.waitFor(() => document.getElementById('out')?.textContent === 'Loaded Fixture API.');
    await f.page.click('#missing');
    await f.page.waitFor(() => document.getElementById('out')?.textContent === 'Archive: 404');
    const list = await ok(env, f.tabId, 'network_requests', { url: '/widgets/', headers: true });
    const lines = String(list.data.list).split('\n');
    const data = lines.find((l) => l.includes('/widgets/data.json'));
    expect(data, list.data.list).to.match(/^\[r\d+\] GET 200 (fetch|xhr) http:\/\/127\.0\.0\.1:\d+\/widgets\/data\.json/);
    expect(lines.find((l) => l.includes('archive-missing'))).to.match(/GET 404/);
    const failed = await ok(env, f.tabId, 'network_requests', { status: '4xx' });
    expect(failed.data.requests).to.equal(1);
    // The Authorization header the page sent is masked; the content type is not.
    const id = /^\[(r\d+)\]/.exec(String(data))?.[1];
    const headers = list.data.headers.find((/** @type {any} */ h) => h.id === id);
    expect(JSON.stringify(headers)).to.not.include('sk-live-0123456789');
    const auth = Object.entries(headers.request ?? {}).find(([k]) => k.toLowerCase() === 'authorization');
    expect(auth?.[1]).to.equal('••••••');
    const body = await ok(env, f.tabId, 'network_requests', { body_of: id });
    expect(JSON.parse(body.data.body).name).to.equal('Fixture API');
  });

  it('console_logs: an uncaught exception with its stack, at its own level and under error', async () => {
    const { env } = ctx;
    await f.page.click('#crash');
    const ex = await ctx.env.control.waitFor(async (/** @type {number} */ tabId) => {
      const r = await browser.runtime.sendMessage({ type: 'tool.run', tabId, name: 'console_logs', args: { level: 'exception' } });
      return r.ok && r.data.length ? r.data : null;
    }, f.tabId, { message: 'the exception in the console log' });
    expect(ex[0].text).to.match(/Uncaught TypeError: orders\.map is not a function/);
    expect(ex[0].stack).to.match(/explode/).and.match(/checkout/);
    const errors = await ok(env, f.tabId, 'console_logs', { level: 'error' });
    expect(errors.data.map((/** @type {any} */ m) => m.level)).to.include('exception');
  });

  it('inspect_styles reads computed styles; inject_css changes one, lists it, removes it, and New chat takes the rest away', async () => {
    const { env } = ctx;
    const st = await ok(env, f.tabId, 'inspect_styles', { selector: '#box', properties: ['color', 'width', 'padding-left'] });
    expect(st.data.styles).to.deep.equal({ color: 'rgb(20, 40, 60)', width: '120px', 'padding-left': '4px' });
    expect(st.data.element).to.equal('div#box');
    const color = () => f.page.evaluate(() => getComputedStyle(/** @type {Element} */ (document.querySelector('#box'))).color);
    const added = await ok(env, f.tabId, 'inject_css', { action: 'add', css: '#box { color: rgb(200, 0, 0) !important; }' });
    expect(await color()).to.equal('rgb(200, 0, 0)');
    expect((await ok(env, f.tabId, 'inject_css', { action: 'list' })).data.sheets).to.have.length(1);
    await ok(env, f.tabId, 'inject_css', { action: 'remove', id: added.data.id });
    expect(await color()).to.equal('rgb(20, 40, 60)');
    await ok(env, f.tabId, 'inject_css', { action: 'add', css: '#box { color: rgb(0, 128, 0) !important; }' });
    expect(await color()).to.equal('rgb(0, 128, 0)');
    const cleared = await ask(env.control, { type: 'chat.clear', tabId: f.tabId });
    expect(cleared.ok).to.equal(true);
    expect(await color()).to.equal('rgb(20, 40, 60)');
    expect((await ok(env, f.tabId, 'inject_css', { action: 'list' })).data.sheets).to.deep.equal([]);
  });
});

scenario('developer tools on a strict page and in settings', (ctx) => {
  it('execute_js under a CSP without eval: Chrome runs it through the debugger, Firefox says the page forbids it', async () => {
    const { env } = ctx;
    const f = await openFixture(env, 'csp/devtools.html');
    try {
      const r = await tool(env, f.tabId, 'execute_js', { code: 'document.title' });
      if (ctx.kind === 'chromium') expect(r).to.deep.equal({ ok: true, data: { type: 'string', value: '"Developer tools fixture"' } });
      else {
        expect(r).to.deep.include({ ok: false, code: 'JS_BLOCKED' });
        expect(r.message).to.match(/Content-Security-Policy forbids running code/);
      }
    } finally { await f.page.close(); }
  });

  it('the Settings switch turns them on and off; the recorder\'s caps show only where the browser records', async () => {
    const { env } = ctx;
    const page = await env.browser.openExtensionPage('ui/options.html');
    try {
      await page.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: 'the settings page' });
      expect(await page.evaluate(() => /** @type {HTMLInputElement} */ (document.getElementById('devTools')).checked)).to.equal(false);
      expect(await page.evaluate(() => /** @type {HTMLElement} */ (document.getElementById('recorder-fields')).hidden)).to.equal(ctx.kind !== 'chromium');
      await page.click('#devTools');
      if (ctx.kind === 'chromium') await page.fill('#recMaxMinutes', '2');
      await page.click('#save');
      const saved = await page.waitFor(async () => {
        const r = await browser.runtime.sendMessage({ type: 'settings.get' });
        return r.ok && r.data.devTools === true ? r.data : null;
      }, undefined, { message: 'devTools saved' });
      if (ctx.kind === 'chromium') expect(saved.recorder).to.deep.equal({ maxSeconds: 120, maxMB: 200, audio: false });
      await page.click('#devTools');
      await page.click('#save');
      await page.waitFor(async () => (await browser.runtime.sendMessage({ type: 'settings.get' })).data.devTools === false, undefined, { message: 'devTools off again' });
    } finally { await page.close(); }
  });
});

scenario('developer tools in a run', (ctx) => {
  before(async () => { await useMockProvider(ctx.env); });
  after(async () => { await ask(ctx.env.control, { type: 'settings.set', settings: { devTools: false, sites: { allow: [], confirm: [] } } }); });

  it('are offered only when turned on, and execute_js waits for the user\'s Allow; on an allowed site it runs unasked', async () => {
    const { env } = ctx;
    await ask(env.control, { type: 'settings.set', settings: { devTools: false } });
    env.llm.script([{ text: 'Nothing to run.' }]);
    let opened = await openPageWithPanel(env, 'devtools.html');
    try {
      await sendFromPanel(opened.panel, 'What is in the cart?', 'act');
      await waitForIdle(opened.panel);
      const offered = (env.llm.requests.at(-1)?.body.tools ?? []).map((/** @type {any} */ t) => t.function?.name ?? t.name);
      expect(offered).to.not.include('execute_js');
    } finally { await opened.page.close(); await opened.panel.close(); }

    await ask(env.control, { type: 'settings.set', settings: { devTools: true } });
    env.llm.script([
      (req) => {
        const names = (req.body.tools ?? []).map((/** @type {any} */ t) => t.function?.name ?? t.name);
        if (!names.includes('execute_js') || !names.includes('network_requests')) throw new Error(`developer tools not offered: ${names.join(', ')}`);
        return { toolCalls: [{ name: 'execute_js', args: { code: 'window.appState.cart.length' } }] };
      },
      (req) => ({ text: `The cart holds: ${lastToolResult(req.body)}` }),
    ]);
    opened = await openPageWithPanel(env, 'devtools.html');
    try {
      await sendFromPanel(opened.panel, 'How many items are in the cart?', 'act');
      const card = /** @type {{ rule: string, text: string }} */ (await opened.panel.waitFor(() => {
        const c = /** @type {HTMLElement | null} */ (document.querySelector('.card.confirm.pending'));
        return c && { rule: c.dataset.rule, text: c.textContent };
      }, undefined, { message: 'the confirmation card for execute_js' }));
      expect(card.rule).to.equal('run_code');
      expect(card.text).to.contain('window.appState.cart.length');
      await opened.panel.click('.card.confirm .confirm-yes');
      const items = await waitForIdle(opened.panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(items.at(-1)?.text).to.match(/The cart holds: .*2/);
    } finally { await opened.page.close(); await opened.panel.close(); }

    // On a site the user always allows, the same call runs without a card.
    const allowed = await ask(env.control, { type: 'settings.set', settings: { sites: { allow: [new URL(env.site.url).host], confirm: [] } } });
    expect(allowed.ok, allowed.message).to.equal(true);
    env.llm.script([
      { toolCalls: [{ name: 'execute_js', args: { code: 'document.title' } }] },
      (req) => ({ text: `Title: ${lastToolResult(req.body)}` }),
    ]);
    opened = await openPageWithPanel(env, 'devtools.html');
    try {
      await sendFromPanel(opened.panel, 'What is the title?', 'act');
      const items = await waitForIdle(opened.panel).catch(async (err) => { throw new Error(`${err.message}: ${JSON.stringify(await transcript(opened.panel))} ${env.llm.problems}`); });
      expect(env.llm.problems).to.deep.equal([]);
      expect(items.some((i) => i.cls.includes('confirm'))).to.equal(false);
      expect(items.at(-1)?.text).to.contain('Developer tools fixture');
    } finally { await opened.page.close(); await opened.panel.close(); }
  });
});
