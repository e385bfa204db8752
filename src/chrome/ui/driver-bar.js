// "Driven by <client>" above the panel's transcript while an MCP client acts in this tab
// (service/mcp/drivers.js), with Stop: what the client does in the tab ends at once.
/** @import { RouterReply, RouterRequest } from '../types/messages' */

/**
 * @param {{ before: HTMLElement, t: (key: string, subs?: string | string[]) => string, request: (req: RouterRequest) => Promise<RouterReply<any>>, tabId: () => number | null }} deps
 */
export function createDriverBar({ before, t, request, tabId }) {
  const bar = document.createElement('div');
  bar.id = 'driver-bar';
  bar.setAttribute('role', 'status');
  bar.hidden = true;
  const label = document.createElement('span');
  const stop = Object.assign(document.createElement('button'), { type: 'button', className: 'driver-stop', textContent: t('stop') });
  stop.addEventListener('click', () => { const id = tabId(); if (id !== null) void request({ type: 'mcp.stop', tabId: id }); });
  bar.append(label, stop);
  before.before(bar);

  /** @param {string | null} name */
  function show(name) {
    bar.hidden = !name;
    label.textContent = name ? t('mcpDrivenBy', [name]) : '';
    document.body.dataset.driver = name ?? '';
  }

  return {
    show,
    /** The panel attached to a tab: who drives it now. @param {number} id */
    async attach(id) {
      const r = await request({ type: 'mcp.driver', tabId: id });
      if (tabId() === id) show(r.ok ? r.data.name : null);
    },
  };
}
