// The MCP bridge, in both browsers: the MCP SDK's own Client starts the bridge
// (src/bridge/main.js) over stdio; the user pairs it by typing the printed code into the real
// settings page; the client lists tools, snapshots a fixture page, fills and submits a form whose
// POST is held until the user allows it in the panel (exactly one POST arrives), runs a whole Ask
// task against the mock LLM with progress, calls a page's WebMCP tool behind a card; a bridge with
// a wrong secret and an unpaired one are refused; Revoke disconnects at once.
import { expect } from 'chai';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, useMockProvider } from './harness/env.js';
import { lastToolResult } from '../fixtures/llm/conversation.js';

/** @import { Driver } from './harness/driver.js' */
/** @import { TestEnv } from './harness/env.js' */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const BRIDGE = join(ROOT, 'src/bridge/main.js');

/**
 * Start an MCP client, which starts a bridge. Its stderr is collected (the pairing code is there).
 * @param {{ name: string, port: number, state: string }} o
 */
async function startClient(o) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BRIDGE, '--port', String(o.port), '--state', o.state], stderr: 'pipe', cwd: ROOT });
  const lines = /** @type {string[]} */ ([]);
  transport.stderr?.on('data', (/** @type {Buffer} */ d) => lines.push(...d.toString().split('\n').filter(Boolean)));
  const client = new Client({ name: o.name, version: '1.0.0' });
  await client.connect(transport);
  // The progress notes as they arrive on the wire. The SDK's client hands a progress note to its
  // handler a microtask later but drops the handler as soon as the answer is read: a note that
  // arrives in the same read as the answer (a loaded machine) never reaches `onprogress`.
  /** @type {{ progressToken: unknown, message?: string }[]} */
  const wire = [];
  const dispatch = transport.onmessage;
  transport.onmessage = (m) => {
    if ('method' in m && m.method === 'notifications/progress') wire.push(/** @type {any} */ (m.params));
    dispatch?.(m);
  };
  /** The latest pairing code the bridge printed. */
  const code = () => [...lines].reverse().map((l) => /pairing code (\S+)/.exec(l)?.[1]).find(Boolean) ?? '';
  /** @param {string} name @param {Record<string, unknown>} [args] @param {(p: any) => void} [onprogress] */
  const call = async (name, args = {}, onprogress) => /** @type {{ content: any[], isError?: boolean }} */ (await client.callTool({ name, arguments: args }, undefined, { timeout: 90_000, resetTimeoutOnProgress: true, ...(onprogress ? { onprogress } : {}) }));
  const text = (/** @type {{ content: any[] }} */ r) => r.content.map((c) => c.text ?? '').join('\n');
  return { client, transport, lines, wire, code, call, text, close: () => client.close().catch(() => {}) };
}

/** @param {() => Promise<unknown>} fn @param {string} what */
async function until(fn, what, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Answer the pending confirmation card in a panel. @param {Driver} panel @param {'yes' | 'no'} answer */
async function answerCard(panel, answer) {
  const card = /** @type {{ rule: string, text: string }} */ (await panel.waitFor(() => {
    const c = /** @type {HTMLElement | null} */ (document.querySelector('.card.confirm.pending'));
    return c && { rule: c.dataset.rule ?? '', text: c.textContent ?? '' };
  }, undefined, { timeout: 30_000, message: 'a confirmation card' }));
  await panel.click(`.card.confirm.pending .confirm-${answer}`);
  return card;
}

/** @param {TestEnv} env @param {number} tabId */
function indicatorState(env, tabId) {
  return env.control.evaluate((id) => browser.tabs.sendMessage(id, { type: 'content.indicatorState' }, { frameId: 0 }).then((r) => r.data), tabId);
}

scenario('MCP bridge', (ctx) => {
  /** @type {Awaited<ReturnType<typeof startClient>>[]} */
  const clients = [];
  after(async () => {
    for (const c of clients.splice(0)) await c.close();
    if (ctx.env) await ask(ctx.env.control, { type: 'settings.set', settings: { mcp: { enabled: false, port: 17373 }, webmcp: false } });
  });

  it('pairs through Settings, snapshots, submits a held form, runs an Ask task and a WebMCP tool; refuses wrong and unpaired bridges; Revoke disconnects', async function () {
    this.timeout(240_000);
    const { env } = ctx;
    const dir = await mkdtemp(join(tmpdir(), 'tw-mcp-e2e-'));
    // A port range of this run's own, per browser, so parallel runs and the other browser's extension never meet.
    const port = 21000 + Math.floor(Math.random() * 400) * 10 + (ctx.kind === 'chromium' ? 0 : 5000);
    await useMockProvider(env);
    expect(await ask(env.control, { type: 'settings.set', settings: { mcp: { enabled: true, port }, webmcp: false } })).to.include({ ok: true });

    // 1. The client starts the bridge; unpaired, it offers only its status, and calls are refused.
    const agent = await startClient({ name: 'e2e-agent', port, state: join(dir, 'agent.json') });
    clients.push(agent);
    await until(async () => agent.code(), 'the pairing code on stderr');
    expect((await agent.client.listTools()).tools.map((t) => t.name)).to.deep.equal(['tabwright_status']);
    const early = await agent.call('snapshot');
    expect(early.isError).to.equal(true);
    expect(agent.text(early)).to.match(/MCP_NOT_PAIRED|not paired/);

    // 2. Pairing through the real settings page: a wrong code is refused, the printed one pairs.
    const options = await env.browser.openExtensionPage('ui/options.html');
    const { page, panel, tabId } = await openPageWithPanel(env, 'mcp-form.html');
    try {
      await options.waitFor(() => document.body.dataset.ready === 'true', undefined, { message: 'the settings page' });
      expect(await options.evaluate(() => /** @type {HTMLInputElement} */ (document.getElementById('mcp-enabled')).checked)).to.equal(true);
      await options.waitFor(() => [...document.querySelectorAll('#mcp-links .mcp-waiting')].some((li) => li.textContent?.includes('e2e-agent')), undefined, { timeout: 30_000, message: 'the bridge waiting to be paired' });
      await options.fill('#mcp-code', 'ZZZZZ-ZZZZZ');
      await options.click('#mcp-pair');
      await options.waitFor(() => document.getElementById('mcp-result')?.classList.contains('error'), undefined, { message: 'the wrong code refused' });
      expect(await options.text('#mcp-result')).to.contain('not the one');
      await options.fill('#mcp-code', agent.code().toLowerCase());
      await options.evaluate(() => { const s = /** @type {HTMLSelectElement} */ (document.getElementById('mcp-grant')); s.value = 'all'; });
      await options.click('#mcp-pair');
      await options.waitFor(() => document.getElementById('mcp-result')?.textContent === 'Paired with e2e-agent.', undefined, { message: 'paired' });
      await options.waitFor(() => document.querySelector('#mcp-clients .mcp-client strong')?.textContent === 'e2e-agent', undefined, { message: 'the paired client listed' });

      // 3. Tabwright's tools appear: page tools with a tabId, list_tabs, run_task; nothing that belongs to a run.
      const names = /** @type {string[]} */ (await until(async () => { const t = (await agent.client.listTools()).tools.map((x) => x.name); return t.includes('snapshot') && t; }, 'the tools'));
      expect(names).to.include.members(['list_tabs', 'run_task', 'snapshot', 'read_page', 'click', 'type', 'navigate', 'tabs']);
      expect(names).not.to.include.members(['done', 'clarify', 'schedule_task', 'save_skill', 'describe_ref']);
      const tabs = JSON.parse(agent.text(await agent.call('list_tabs')));
      expect(tabs.map((/** @type {any} */ t) => t.id)).to.include(tabId);
      expect(tabs.every((/** @type {any} */ t) => /^https?:/.test(t.url))).to.equal(true);

      // 4. A snapshot of the fixture page, fenced as page content.
      const snap = agent.text(await agent.call('snapshot', { tabId }));
      expect(snap).to.contain('<untrusted_page_content id=');
      const ref = (/** @type {string} */ role, /** @type {string} */ name) => new RegExp(`- ${role} "${name}"[^\\n]*\\[(e\\d+)\\]`).exec(snap)?.[1];
      const nameRef = ref('textbox', 'Your name');
      const messageRef = ref('textbox', 'Message');
      const sendRef = ref('button', 'Send message');
      expect([nameRef, messageRef, sendRef].every(Boolean), snap).to.equal(true);

      // 5. Fill the form and submit it: the POST is held, the card shows in the panel while the
      //    client waits, "Driven by" shows in the panel and on the page; Allow sends it once.
      expect((await agent.call('type', { tabId, ref: nameRef, text: 'Ada Lovelace' })).isError).not.to.equal(true);
      expect((await agent.call('type', { tabId, ref: messageRef, text: 'Please call me back' })).isError).not.to.equal(true);
      const before = env.site.writes.length;
      /** @type {any[]} */
      const waitNotes = [];
      const submitting = agent.call('click', { tabId, ref: sendRef }, (p) => waitNotes.push(p));
      const card = await answerCardAfterChecks(panel, env, tabId);
      expect(card.rule).to.equal('server_write');
      expect(card.text).to.contain(`POST to ${env.site.url}/api/contact`).and.contain('Ada Lovelace');
      const submitted = await submitting;
      expect(submitted.isError, agent.text(submitted)).not.to.equal(true);
      await page.waitFor(() => document.getElementById('status')?.textContent === 'Message sent', undefined, { message: 'the page to say sent' });
      await new Promise((r) => setTimeout(r, 1000));
      const posts = env.site.writes.slice(before);
      expect(posts.map((w) => `${w.method} ${w.path} ${w.body}`)).to.deep.equal(['POST /api/contact name=Ada+Lovelace&message=Please+call+me+back']);
      expect(waitNotes.some((p) => /confirmation/.test(String(p.message)))).to.equal(true);
      const steps = await panel.evaluate(() => [...document.querySelectorAll('#log > *')].map((e) => /** @type {HTMLElement} */ (e).dataset.tool).filter(Boolean));
      expect(steps).to.include.members(['snapshot', 'type', 'click']);

      // 5b. Stop in the panel's "Driven by" bar: the waiting call ends at once, and what it held never leaves.
      const stopping = agent.call('click', { tabId, ref: sendRef });
      await panel.waitFor(() => document.querySelector('.card.confirm.pending') !== null, undefined, { timeout: 30_000, message: 'the second card' });
      await panel.click('#driver-bar .driver-stop');
      const stoppedCall = await stopping;
      expect(stoppedCall.isError).to.equal(true);
      expect(agent.text(stoppedCall)).to.contain('STOPPED_BY_USER');
      await page.waitFor(() => document.getElementById('status')?.textContent === 'Not sent', undefined, { message: 'the page to see its request fail' });
      expect(env.site.writes.slice(before)).to.have.length(1);
      await panel.waitFor(() => document.getElementById('driver-bar')?.hidden === true, undefined, { message: 'the bar to go' });

      // 6. A whole Ask run through the panel's own path, its steps streamed as progress.
      env.llm.script([
        { toolCalls: [{ name: 'read_page', args: {} }] },
        (req) => {
          if (!lastToolResult(req.body).includes('Leave your name')) throw new Error('read_page lacks the page text');
          return { text: 'The page asks for your name and a message, and answers within a day.' };
        },
      ]);
      const notesBefore = agent.wire.length;
      // A progress handler makes the client ask for progress; the notes are read on the wire (startClient).
      const task = await agent.call('run_task', { task: 'What does this page ask for?', mode: 'ask', tabId }, () => {});
      expect(task.isError, agent.text(task)).not.to.equal(true);
      expect(agent.text(task)).to.contain('answers within a day');
      expect(agent.wire.slice(notesBefore).map((p) => p.message).join('\n')).to.contain('Step 1: read_page');
      expect(env.llm.problems).to.deep.equal([]);
      expect(await panel.evaluate(() => document.querySelector('#log .final')?.textContent ?? '')).to.contain('answers within a day');
      // The client's run went in a tab group of the client's own (Firefox ESR 153 and Chromium both have them).
      expect(await env.control.evaluate(async (id) => {
        const t = /** @type {any} */ (await browser.tabs.get(id));
        return t.groupId >= 0 ? (await /** @type {any} */ (browser).tabGroups.get(t.groupId)).title : null;
      }, tabId)).to.match(/^MCP · /);

      // 7. WebMCP (Settings): the page's own tool is listed and called behind a page_tool card.
      await ask(env.control, { type: 'settings.set', settings: { webmcp: true } });
      await until(async () => (await agent.client.listTools()).tools.some((t) => t.name === 'call_page_tool'), 'the WebMCP tools');
      const notes = await openPageWithPanel(env, 'webmcp.html');
      try {
        const listed = agent.text(await agent.call('page_tools', { tabId: notes.tabId }));
        expect(listed).to.contain('add_note').and.contain('Add a note to the list.');
        const calling = agent.call('call_page_tool', { tabId: notes.tabId, name: 'add_note', input: { text: 'Buy milk' } });
        const pageCard = await answerCard(notes.panel, 'yes');
        expect(pageCard.rule).to.equal('page_tool');
        expect(pageCard.text).to.contain('add_note').and.contain('Buy milk');
        const called = await calling;
        expect(agent.text(called)).to.contain('Added note 1: Buy milk');
        expect(await notes.page.evaluate(() => document.getElementById('notes')?.textContent)).to.equal('Buy milk');
      } finally {
        await notes.page.close();
        await notes.panel.close();
      }

      // 7b. The background restarts (Chrome stops its worker; Firefox's page reloads): it dials
      //     again and signs in with the stored, non-extractable key; no new pairing.
      if (ctx.kind === 'chromium') {
        const cdp = await env.browser.raw.newCDPSession(/** @type {any} */ (options.page));
        await cdp.send('ServiceWorker.enable');
        await cdp.send('ServiceWorker.stopAllWorkers');
        await cdp.detach().catch(() => {});
      } else {
        await env.control.evaluate(async () => { const bg = /** @type {any} */ (await browser.runtime.getBackgroundPage()); bg.location.reload(); });
      }
      const codes = agent.lines.filter((l) => /pairing code/.test(l)).length;
      await until(async () => agent.lines.filter((l) => /Tabwright is connected/.test(l)).length >= 2, 'the background to sign in again');
      await until(async () => !(await agent.call('list_tabs')).isError, 'calls to work again');
      expect(agent.lines.filter((l) => /pairing code/.test(l)).length).to.equal(codes);

      // 8. A bridge holding this pairing's id with a wrong secret is refused (it gets the next port).
      const stored = JSON.parse(await readFile(join(dir, 'agent.json'), 'utf8'));
      await writeFile(join(dir, 'forged.json'), JSON.stringify({ bridgeId: stored.bridgeId, secret: 'ab'.repeat(32) }));
      const forged = await startClient({ name: 'forger', port, state: join(dir, 'forged.json') });
      clients.push(forged);
      const refused = /** @type {string} */ (await until(async () => { const t = forged.text(await forged.call('tabwright_status')); return /MCP_REFUSED/.test(t) && t; }, 'the forged bridge to be refused'));
      expect(refused).to.contain('MCP_BAD_SIGNATURE');
      const forgedCall = await forged.call('snapshot', { tabId });
      expect(forgedCall.isError).to.equal(true);
      expect(forged.text(forgedCall)).to.match(/refused/);
      expect((await forged.client.listTools()).tools.map((t) => t.name)).to.deep.equal(['tabwright_status']);

      // 9. A client that never paired waits as a request in Settings and can do nothing.
      const stranger = await startClient({ name: 'stranger', port, state: join(dir, 'stranger.json') });
      clients.push(stranger);
      await options.waitFor(() => [...document.querySelectorAll('#mcp-links .mcp-waiting')].some((li) => li.textContent?.includes('stranger')), undefined, { timeout: 60_000, message: 'the stranger waiting' });
      const strangerCall = await stranger.call('list_tabs');
      expect(strangerCall.isError).to.equal(true);
      expect(stranger.text(strangerCall)).to.match(/MCP_NOT_PAIRED/);
      const status = await ask(env.control, { type: 'mcp.status' });
      expect(status.data.clients.map((/** @type {any} */ c) => c.name)).to.deep.equal(['e2e-agent']);
      expect(status.data.clients[0].lastUsed).to.be.a('number');

      // 10. Revoke in Settings: the client is disconnected at once; its bridge offers a new code.
      const codesBefore = agent.lines.filter((l) => /pairing code/.test(l)).length;
      await options.click('#mcp-clients .mcp-client .mcp-revoke');
      await until(async () => agent.lines.filter((l) => /pairing code/.test(l)).length > codesBefore, 'a new code after revoke', 10_000);
      // The bridge dials again with its new code: once it waits to be paired, its call is refused as
      // unpaired (before that it is only not connected, which proves less).
      await options.waitFor(() => [...document.querySelectorAll('#mcp-links .mcp-waiting')].some((li) => li.textContent?.includes('e2e-agent')), undefined, { timeout: 60_000, message: 'the revoked bridge waiting to be paired again' });
      const afterRevoke = await agent.call('list_tabs');
      expect(afterRevoke.isError).to.equal(true);
      expect(agent.text(afterRevoke)).to.match(/MCP_REFUSED|MCP_NOT_PAIRED/);
      expect((await agent.client.listTools()).tools.map((t) => t.name)).to.deep.equal(['tabwright_status']);
      await options.waitFor(() => document.querySelector('#mcp-clients .mcp-client') === null, undefined, { message: 'the client gone from the list' });
    } catch (err) {
      console.log(JSON.stringify(await panel.evaluate(() => [...document.querySelectorAll('#log > *')].map((e) => `${e.className}: ${(e.textContent ?? '').slice(0, 300)}`)), null, 1));
      console.log(clients.map((c) => c.lines.join('\n')).join('\n---\n'));
      throw err;
    } finally {
      await page.close();
      await panel.close();
      await options.close();
    }
  });
});

/**
 * While the client's click waits: the panel says who drives and so does the page; then Allow.
 * @param {Driver} panel @param {TestEnv} env @param {number} tabId
 */
async function answerCardAfterChecks(panel, env, tabId) {
  await panel.waitFor(() => document.querySelector('.card.confirm.pending') !== null, undefined, { timeout: 30_000, message: 'the card' });
  expect(await panel.evaluate(() => document.getElementById('driver-bar')?.textContent ?? '')).to.contain('Driven by e2e-agent');
  const state = await indicatorState(env, tabId);
  expect(state.shown).to.equal(true);
  expect(state.label).to.equal('Driven by e2e-agent');
  return answerCard(panel, 'yes');
}
