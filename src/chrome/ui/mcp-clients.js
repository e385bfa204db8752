// Settings → MCP bridge: the lines of the bridge list and a paired client's row.
/** @import { RouterReply, RouterRequest } from '../types/messages' */
/** @import { Grant } from '../mcp-protocol/grants.js' */
/** @typedef {(key: string, subs?: string | string[]) => string} Translate */
import { fillGrants, chosenGrant } from './mcp-grants.js';

/** A line of the bridge list. @param {string} text @param {string} kind */
export function mcpLine(text, kind) {
  const li = document.createElement('li');
  li.className = `mcp-${kind}`;
  li.textContent = text;
  return li;
}

/**
 * A paired client: its name, whether it is connected and when it was last used, the tabs it may use
 * (changed at once) and Revoke.
 * @param {any} c @param {boolean} connected @param {[string, Grant, string][]} choices
 * @param {{ t: Translate, request: (req: RouterRequest) => Promise<RouterReply<any>>, say: (text: string, failed?: boolean) => void, refresh: (force?: boolean) => Promise<void> }} deps
 */
export function clientItem(c, connected, choices, { t, request, say, refresh }) {
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
  fillGrants(select, choices, t, c.grant);
  select.addEventListener('change', async () => {
    const r = await request({ type: 'mcp.grant', id: c.id, grant: chosenGrant(select) });
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
