// The acting tools' browser-free logic: the per-tab queue, target arguments, the effects
// report, permission rules and argument checks, with a BrowserOps double.
import { expect } from 'chai';
import { queued, targetOf, act } from '../../src/chrome/agent/tools/act.js';
import { ALL_TOOLS, findTool, toolsForMode } from '../../src/chrome/agent/tools/index.js';
import { parseToolArgs } from '../../src/chrome/agent/tool-args.js';
import { fakeBrowser } from './fake-browser.js';

/** @import { ToolContext } from '../../src/chrome/types/core' */

/** @param {string} name @param {Record<string, unknown>} args @param {ToolContext} ctx */
async function runTool(name, args, ctx) {
  const tool = findTool(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const parsed = parseToolArgs(JSON.stringify(args), tool.parameters);
  if (!parsed.ok) return parsed;
  return tool.run(parsed.args, ctx);
}

describe('action tools', () => {
  it('never runs two actions on one tab at once, but lets other tabs go ahead', async () => {
    /** @type {string[]} */
    const log = [];
    const slow = (/** @type {string} */ id, /** @type {number} */ ms) => async () => { log.push(`${id}+`); await new Promise((r) => setTimeout(r, ms)); log.push(`${id}-`); return id; };
    const results = await Promise.all([queued(1, slow('a', 30)), queued(1, slow('b', 5)), queued(2, slow('c', 5))]);
    expect(results).to.deep.equal(['a', 'b', 'c']);
    expect(log.indexOf('b+')).to.be.greaterThan(log.indexOf('a-'));
    expect(log.indexOf('c+')).to.be.lessThan(log.indexOf('a-'));
  });

  it('keeps the queue going after a failed action', async () => {
    const failed = queued(3, async () => { throw new Error('boom'); });
    const next = queued(3, async () => 'ran');
    expect(await failed.catch((e) => e.message)).to.equal('boom');
    expect(await next).to.equal('ran');
  });

  it('reads one target from ref, text, selector or a point, in that order of preference', () => {
    expect(targetOf({ ref: 'e1', text: 'Go' })).to.deep.equal({ ref: 'e1' });
    expect(targetOf({ text: 'Go' })).to.deep.equal({ text: 'Go' });
    expect(targetOf({ selector: '#a' })).to.deep.equal({ selector: '#a' });
    expect(targetOf({ x: 1, y: 2 })).to.deep.equal({ x: 1, y: 2 });
    expect(targetOf({ x: 1 })).to.equal(null);
    expect(targetOf({ from_ref: 'e3', to_x: 5, to_y: 6 }, 'from')).to.deep.equal({ ref: 'e3' });
    expect(targetOf({ from_ref: 'e3', to_x: 5, to_y: 6 }, 'to')).to.deep.equal({ x: 5, y: 6 });
  });

  it('reports navigation, new tabs and page effects beside the action\'s result', async () => {
    const browser = fakeBrowser((msg) => (msg.type === 'content.effects' ? { ok: true, data: { appeared: ['Saved'] } } : { ok: true, data: { clicked: 'e1' } }));
    browser.watchNewTabs = () => ({ async stop() { return [{ tabId: 9, url: 'https://example.test/new', title: 'New' }]; } });
    const r = await act({ tabId: 1, browser }, () => browser.sendToContent(1, { type: 'content.click', target: { ref: 'e1' } }));
    expect(r).to.deep.equal({ ok: true, data: { clicked: 'e1', effects: { newTabs: [{ tabId: 9, url: 'https://example.test/new', title: 'New' }], appeared: ['Saved'] } } });
    let url = 'https://example.test/';
    const nav = fakeBrowser();
    nav.getTab = async () => ({ url, title: 'T' });
    const moved = await act({ tabId: 1, browser: nav }, async () => { url = 'https://example.test/next'; return { ok: false, code: 'PAGE_CHANGED', message: 'navigated' }; });
    expect(moved.ok).to.equal(true);
    expect(/** @type {any} */ (moved).data.effects.navigated).to.deep.equal({ url: 'https://example.test/next', title: 'T' });
  });

  it('refuses a missing target, a missing option and an empty file list with INVALID_ARGUMENTS', async () => {
    const ctx = { tabId: 1, browser: fakeBrowser() };
    for (const [name, args] of /** @type {[string, Record<string, unknown>][]} */ ([['click', {}], ['select_option', { ref: 'e1' }], ['upload_file', { ref: 'e1', files: [] }], ['drag_drop', { from_ref: 'e1' }], ['type', { text: 'x' }]])) {
      expect(await runTool(name, args, ctx), name).to.include({ ok: false, code: 'INVALID_ARGUMENTS' });
    }
    expect(ctx.browser.sent).to.deep.equal([]);
  });

  it('fetch_url reads with GET and declares any other method as writing (the loop gates it)', async () => {
    const ctx = { tabId: 1, browser: fakeBrowser() };
    expect(await runTool('fetch_url', { url: 'https://example.test/a' }, ctx)).to.deep.include({ ok: true });
    const fetchTool = /** @type {import('../../src/chrome/types/core').Tool} */ (ALL_TOOLS.find((t) => t.name === 'fetch_url'));
    expect(fetchTool.effectsFor?.({ url: 'https://example.test/a' })).to.not.include('writes_server');
    expect(fetchTool.effectsFor?.({ url: 'https://example.test/a', method: 'head' })).to.not.include('writes_server');
    expect(fetchTool.effectsFor?.({ url: 'https://example.test/a', method: 'DELETE' })).to.include('writes_server');
    expect(await runTool('fetch_url', { url: 'file:///etc/passwd' }, ctx)).to.include({ ok: false, code: 'INVALID_URL' });
  });

  it('refuses file paths where the browser cannot read them', async () => {
    const ctx = { tabId: 1, browser: fakeBrowser() };
    const r = await runTool('upload_file', { selector: 'input[type=file]', files: [{ path: '/tmp/a.txt' }] }, ctx);
    expect(r).to.include({ ok: false, code: 'UNSUPPORTED' });
  });

  it('moves the run to the tab it opens or switches to', async () => {
    /** @type {ToolContext} */
    const ctx = { tabId: 1, browser: fakeBrowser() };
    await runTool('tabs', { action: 'open', url: 'https://example.test/b' }, ctx);
    expect(ctx.tabId).to.equal(2);
    expect(await runTool('tabs', { action: 'close', tab_id: 2 }, ctx)).to.include({ ok: false, code: 'INVALID_ARGUMENTS' });
    expect(await runTool('tabs', { action: 'open', url: 'javascript:alert(1)' }, ctx)).to.include({ ok: false, code: 'INVALID_URL' });
  });

  it('offers Ask mode exactly the tools whose declared effects only read', () => {
    const readOnly = toolsForMode('ask').map((t) => t.name).sort();
    expect(readOnly).to.deep.equal(['ask_user_which_element', 'console_logs', 'extract_data', 'fetch_url', 'get_frames', 'get_html', 'list_downloads', 'page_capabilities', 'read_page', 'read_pdf', 'screenshot', 'skills', 'snapshot', 'wait_for']);
    // clarify and scratchpad steer the run, not the page: Act only.
    expect(toolsForMode('ask').map((t) => t.name)).to.not.include.members(['clarify', 'scratchpad']);
    expect(toolsForMode('ask').map((t) => t.name)).to.not.include.members(['click', 'type', 'handle_dialog', 'tabs', 'scroll']);
    for (const t of ALL_TOOLS) expect(t.parameters.type, t.name).to.equal('object');
  });
});
