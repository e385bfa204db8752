// Settings → MCP bridge: turn it on and choose its port, pair a client with the code its bridge
// printed (and the tabs it may use), and list the paired clients with their last use, their tabs
// (changeable) and Revoke. Saved at once through the router (settings.set, mcp.*); the list
// refreshes every 2 s while the page is open. docs/MCP.md.
/** @import { RouterReply, RouterRequest } from '../types/messages' */
/** @import { Grant } from '../mcp/grants.js' */

const REFRESH_MS = 2_000;

/**
 * @param {{ t: (key: string, subs?: string | string[]) => string, request: (req: RouterRequest) => Promise<RouterReply<any>> }} deps
 */
export async function setupMcp({ t, request }) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
  const enabled = $('mcp-enabled');
  const port = $('mcp-port');
  const webmcp = $('webmcp-enabled');
  const code = $('mcp-code');
  const grantSelect = /** @type {HTMLSelectElement} */ (/** @type {unknown} */ ($('mcp-grant')));
  const result = $('mcp-result');
  const linksEl = $('mcp-links');
  const clientsEl = $('mcp-clients');

  /** @param {string} text @param {boolean} [failed] */
  const say = (text, failed = false) => { result.textContent = text; result.classList.toggle('error', failed); };

  /** The grants to choose from: the active tab, all tabs, and each tab group open now. @returns {Promise<[string, Grant, string][]>} */
  async function grantChoices() {
    /** @type {[string, Grant, string][]} */
    const out = [['active', { kind: 'active' }, t('mcpGrantActive')], ['all', { kind: 'all' }, t('mcpGrantAll')]];
    const tabs = /** @type {any[]} */ (await browser.tabs.query({}).catch(() => []));
    /** @type {Map<number, string[]>} */
    const groups = new Map();
    for (const tab of tabs) if (typeof tab.groupId === 'number' && tab.groupId >= 0) groups.set(tab.groupId, [...(groups.get(tab.groupId) ?? []), String(tab.title ?? '')]);
    for (const [groupId, titles] of groups) {
      const label = `${titles[0].slice(0, 40)}${titles.length > 1 ? ` +${titles.length - 1}` : ''}`;
      out.push([`group:${groupId}`, { kind: 'group', groupId, label }, t('mcpGrantGroup', [label])]);
    }
    return out;
  }

  /** @param {HTMLSelectElement} select @param {[string, Grant, string][]} choices @param {Grant} [current] */
  function fillGrants(select, choices, current) {
    const value = current ? (current.kind === 'group' ? `group:${current.groupId}` : current.kind) : select.value || 'active';
    const list = current?.kind === 'group' && !choices.some(([v]) => v === value) ? [...choices, /** @type {[string, Grant, string]} */ ([value, current, t('mcpGrantGroup', [current.label ?? String(current.groupId)])])] : choices;
    select.replaceChildren(...list.map(([v, , label]) => Object.assign(document.createElement('option'), { value: v, textContent: label })));
    select.value = value;
    /** @type {any} */ (select).grants = new Map(list.map(([v, g]) => [v, g]));
  }

  /** @param {HTMLSelectElement} select @returns {Grant} */
  const chosen = (select) => /** @type {any} */ (select).grants?.get(select.value) ?? { kind: 'active' };

  async function saveSetting() {
    const p = Number(port.value);
    const reply = await request({ type: 'settings.set', settings: { mcp: { enabled: enabled.checked, port: Number.isInteger(p) ? p : 17373 }, webmcp: webmcp.checked } });
    if (!reply.ok) say(reply.message, true);
    else { say(''); void refresh(); }
  }

  /** What the client list shows now, to redraw it only when that changes. */
  let clientsDrawn = '';
  let linksDrawn = '';
  let grantsDrawn = '';

  /** @param {boolean} [force] redraw the client list even while one of its controls has focus */
  async function refresh(force = false) {
    const reply = await request({ type: 'mcp.status' });
    if (!reply.ok) return;
    const s = reply.data;
    document.body.dataset.mcpLinks = JSON.stringify(s.links.map((/** @type {any} */ l) => l.state));
    /** @type {HTMLLIElement[]} */
    const items = [];
    for (const l of s.links) {
      if (l.state === 'pending' || l.state === 'pairing') items.push(line(t('mcpWaiting', [l.name ?? '?', String(l.port)]), 'waiting'));
      else if (l.state === 'refused' && l.problem) items.push(line(t('mcpRefusedLink', [String(l.port), l.problem]), 'refused'));
    }
    if (s.enabled && !s.links.some((/** @type {any} */ l) => ['pending', 'pairing', 'ready', 'signing_in', 'refused'].includes(l.state))) items.push(line(t('mcpNoBridge'), 'none'));
    const linksText = items.map((li) => li.className + li.textContent).join('\n');
    if (linksText !== linksDrawn) { linksDrawn = linksText; linksEl.replaceChildren(...items); }
    const choices = await grantChoices();
    const grantsText = choices.map(([v, , label]) => v + label).join('\n');
    if (grantsText !== grantsDrawn && document.activeElement !== grantSelect) { grantsDrawn = grantsText; fillGrants(grantSelect, choices); }
    const connected = new Set(s.links.filter((/** @type {any} */ l) => l.state === 'ready').map((/** @type {any} */ l) => l.bridgeId));
    // Redrawn only when something changed, so a control is never replaced under the pointer.
    const drawn = JSON.stringify([s.clients, [...connected], choices.map(([v]) => v)]);
    if (drawn !== clientsDrawn && (force || !clientsEl.contains(document.activeElement))) {
      clientsDrawn = drawn;
      clientsEl.replaceChildren(...(s.clients.length ? s.clients.map((/** @type {any} */ c) => clientItem(c, connected.has(c.id), choices)) : [line(t('mcpNoClients'), 'empty')]));
    }
  }

  /** @param {string} text @param {string} kind */
  function line(text, kind) {
    const li = document.createElement('li');
    li.className = `mcp-${kind}`;
    li.textContent = text;
    return li;
  }

  /** @param {any} c @param {boolean} connected @param {[string, Grant, string][]} choices */
  function clientItem(c, connected, choices) {
    const li = document.createElement('li');
    li.className = 'mcp-client row';
    li.dataset.id = c.id;
    const name = Object.assign(document.createElement('strong'), { textContent: c.name });
    const meta = Object.assign(document.createElement('span'), {
      className: 'meta',
      textContent: [connected ? t('mcpConnectedNow') : '', c.lastUsed ? t('mcpLastUsed', [new Date(c.lastUsed).toLocaleString()]) : t('mcpNeverUsed')].filter(Boolean).join(' · '),
    });
    const select = document.createElement('select');
    select.className = 'mcp-client-grant';
    select.setAttribute('aria-label', t('mcpGrantLabel'));
    fillGrants(select, choices, c.grant);
    select.addEventListener('change', async () => {
      const r = await request({ type: 'mcp.grant', id: c.id, grant: chosen(select) });
      if (!r.ok) say(r.message, true);
    });
    const revoke = Object.assign(document.createElement('button'), { type: 'button', className: 'ghost small mcp-revoke', textContent: t('mcpRevoke') });
    revoke.addEventListener('click', async () => {
      const r = await request({ type: 'mcp.revoke', id: c.id });
      if (!r.ok) say(r.message, true);
      await refresh(true);
    });
    li.append(name, meta, select, revoke);
    return li;
  }

  $('mcp-pair').addEventListener('click', async () => {
    say('');
    const reply = await request({ type: 'mcp.pair', code: code.value, grant: chosen(grantSelect) });
    if (reply.ok) { code.value = ''; say(t('mcpPairedWith', [reply.data.name])); } else say(reply.message, true);
    await refresh(true);
  });
  enabled.addEventListener('change', saveSetting);
  webmcp.addEventListener('change', saveSetting);
  port.addEventListener('change', saveSetting);

  const conf = await request({ type: 'settings.get' });
  if (conf.ok) {
    enabled.checked = conf.data.mcp?.enabled === true;
    port.value = String(conf.data.mcp?.port ?? 17373);
    webmcp.checked = conf.data.webmcp === true;
  }
  await refresh();
  setInterval(() => { void refresh(); }, REFRESH_MS);
}
