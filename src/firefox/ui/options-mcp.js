// Settings → MCP bridge: turn it on and choose its port, pair a client with the code its bridge
// printed (and the tabs it may use), and list the paired clients with their last use, their tabs
// (changeable) and Revoke. Saved at once through the router (settings.set, mcp.*); the list
// refreshes every 2 s while the page is open. docs/MCP.md.
/** @import { RouterReply, RouterRequest } from '../types/messages' */
import { grantChoices, fillGrants, chosenGrant } from './mcp-grants.js';
import { clientItem, mcpLine } from './mcp-clients.js';

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
      if (l.state === 'pending' || l.state === 'pairing') items.push(mcpLine(t('mcpWaiting', [l.name ?? '?', String(l.port)]), 'waiting'));
      else if (l.state === 'refused' && l.problem) items.push(mcpLine(t('mcpRefusedLink', [String(l.port), l.problem]), 'refused'));
    }
    if (s.enabled && !s.links.some((/** @type {any} */ l) => ['pending', 'pairing', 'ready', 'signing_in', 'refused'].includes(l.state))) items.push(mcpLine(t('mcpNoBridge'), 'none'));
    const linksText = items.map((li) => li.className + li.textContent).join('\n');
    if (linksText !== linksDrawn) { linksDrawn = linksText; linksEl.replaceChildren(...items); }
    const choices = await grantChoices(t);
    const grantsText = choices.map(([v, , label]) => v + label).join('\n');
    if (grantsText !== grantsDrawn && document.activeElement !== grantSelect) { grantsDrawn = grantsText; fillGrants(grantSelect, choices, t); }
    const connected = new Set(s.links.filter((/** @type {any} */ l) => l.state === 'ready').map((/** @type {any} */ l) => l.bridgeId));
    // Redrawn only when something changed, so a control is never replaced under the pointer.
    const drawn = JSON.stringify([s.clients, [...connected], choices.map(([v]) => v)]);
    if (drawn !== clientsDrawn && (force || !clientsEl.contains(document.activeElement))) {
      clientsDrawn = drawn;
      clientsEl.replaceChildren(...(s.clients.length ? s.clients.map((/** @type {any} */ c) => clientItem(c, connected.has(c.id), choices, { t, request, say, refresh })) : [mcpLine(t('mcpNoClients'), 'empty')]));
    }
  }

  $('mcp-pair').addEventListener('click', async () => {
    say('');
    const reply = await request({ type: 'mcp.pair', code: code.value, grant: chosenGrant(grantSelect) });
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
