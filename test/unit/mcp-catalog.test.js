// What MCP clients see and may use (src/chrome/mcp-protocol/catalog.js, grants.js), and the WebMCP tools'
// gate (agent/tools/webmcp.js through agent/safety/policy.js): every page-tool call asks, Ask mode
// refuses it.
import { expect } from 'chai';
import { clientTools, mcpToolList } from '../../src/chrome/mcp-protocol/catalog.js';
import { grantAllows, parseGrant } from '../../src/chrome/mcp-protocol/grants.js';
import { PAGE_TOOLS, callPageTool } from '../../src/chrome/agent/tools/webmcp.js';
import { createPolicy } from '../../src/chrome/agent/safety/policy.js';
import { createTaskScope } from '../../src/chrome/agent/safety/scope.js';
import { effectsOf } from '../../src/chrome/agent/safety/effects.js';

const PAGE = 'https://notes.test/list';

describe('MCP catalog: the tools clients see', () => {
  it('offers the page, acting and tab tools, never what belongs to a run, and WebMCP only when on', () => {
    const names = clientTools().map((t) => t.name);
    expect(names).to.include.members(['snapshot', 'read_page', 'click', 'type', 'navigate', 'tabs', 'fetch_url', 'screenshot']);
    expect(names).not.to.include.members(['done', 'clarify', 'scratchpad', 'schedule_task', 'schedule_resume', 'skills', 'save_skill', 'describe_ref', 'ask_user_which_element']);
    expect(names).not.to.include('call_page_tool');
    expect(clientTools({ webmcp: true }).map((t) => t.name)).to.include.members(['page_tools', 'call_page_tool']);
  });

  it('gives every tool an MCP schema with a tabId and says which only read', () => {
    const list = mcpToolList();
    expect(list.slice(0, 2).map((t) => t.name)).to.deep.equal(['list_tabs', 'run_task']);
    for (const t of list.slice(2)) {
      expect(t.inputSchema.type, t.name).to.equal('object');
      expect(t.inputSchema.properties.tabId, t.name).to.deep.include({ type: 'integer' });
    }
    expect(list.find((t) => t.name === 'snapshot')?.annotations).to.include({ readOnlyHint: true });
    expect(list.find((t) => t.name === 'click')?.annotations).to.include({ readOnlyHint: false, destructiveHint: true });
  });
});

describe('MCP grants: which tabs a client may use', () => {
  const tab = (/** @type {number} */ id, /** @type {string} */ url, groupId = -1) => ({ id, url, groupId });
  it('reads only well-formed grants', () => {
    expect(parseGrant({ kind: 'all' })).to.deep.equal({ kind: 'all' });
    expect(parseGrant({ kind: 'group', groupId: 4, label: 'Trip' })).to.deep.equal({ kind: 'group', groupId: 4, label: 'Trip' });
    for (const bad of [null, 'all', { kind: 'everything' }, { kind: 'group' }, { kind: 'group', groupId: -1 }]) expect(parseGrant(bad)).to.equal(null);
  });
  it('active: the tab the user looks at; group: its tabs; all: every web page; never a browser or extension page', () => {
    expect(grantAllows({ kind: 'active' }, tab(3, 'https://a.test/'), 3).ok).to.equal(true);
    expect(grantAllows({ kind: 'active' }, tab(4, 'https://a.test/'), 3)).to.include({ ok: false, code: 'TAB_NOT_GRANTED' });
    expect(grantAllows({ kind: 'group', groupId: 7 }, tab(4, 'https://a.test/', 7), 3).ok).to.equal(true);
    expect(grantAllows({ kind: 'group', groupId: 7 }, tab(5, 'https://a.test/', 8), 3).ok).to.equal(false);
    expect(grantAllows({ kind: 'all' }, tab(5, 'http://b.test/'), 3).ok).to.equal(true);
    for (const url of ['chrome://settings', 'about:config', 'chrome-extension://x/ui/options.html', 'moz-extension://x/ui/panel.html', 'file:///etc/passwd']) {
      expect(grantAllows({ kind: 'all' }, tab(6, url), 6).ok, url).to.equal(false);
    }
    expect(grantAllows({ kind: 'all' }, null, 1).ok).to.equal(false);
  });
});

describe('WebMCP tools and the policy', () => {
  const policy = () => createPolicy({ scope: createTaskScope(PAGE, ''), alwaysAllow: ['notes.test'] });
  const facts = (/** @type {'act' | 'ask'} */ mode) => ({ tool: callPageTool.name, args: { name: 'add_note', input: { text: 'Buy milk', password: 'hunter22' } }, effects: effectsOf(callPageTool), url: PAGE, target: null, mode });
  it('asks before every page-tool call, even on a site where acting needs no card, with the tool and its input', () => {
    const v = policy().checkCall(facts('act'));
    expect(v.action).to.equal('ask');
    if (v.action !== 'ask') return;
    expect(v.request).to.include({ rule: 'page_tool', site: 'notes.test' });
    expect(v.request.action).to.contain('add_note');
    expect(v.request.details).to.deep.include({ label: 'text', value: 'Buy milk' });
    expect(v.request.details.find((d) => d.label === 'password')?.value).not.to.contain('hunter22');
  });
  it('refuses it in Ask mode; listing the page tools only reads', () => {
    expect(policy().checkCall(facts('ask'))).to.include({ action: 'refuse', code: 'NOT_ALLOWED_IN_ASK_MODE' });
    expect(PAGE_TOOLS[0].effects).to.deep.equal(['reads_page']);
  });
});
