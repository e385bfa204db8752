// "Driven by <client>": while an MCP client acts in a tab, its panel shows who, with Stop
// (ui/driver-bar.js), and so does the page's indicator (content/indicator.js). Stop aborts what
// the client is doing in that tab. The mark stays a moment after the last call, so a client's
// steps read as one stretch rather than a flicker.
/** @import { Session } from '../session.js' */
/** @import { BrowserOps } from '../../types/core' */

/** How long the mark stays after a client's last call in a tab. */
const LINGER_MS = 3_000;

/**
 * @param {{ ops: BrowserOps, session: (tabId: number) => Promise<Session> }} deps
 */
export function createDrivers({ ops, session }) {
  /** @type {Map<number, { name: string, active: number, controllers: Set<AbortController>, timer: ReturnType<typeof setTimeout> | null }>} */
  const tabs = new Map();

  /** @param {number} tabId @param {string | null} name */
  async function announce(tabId, name) {
    const s = await session(tabId).catch(() => null);
    s?.broadcast({ type: 'driver', name });
    // Ask mode's runs show no indicator, but a client is someone else at the wheel: always say so.
    const running = s?.running && s.mode !== 'ask';
    ops.sendToContent(tabId, { type: 'content.indicator', show: Boolean(name) || Boolean(running), ...(name ? { driver: name } : {}) }).catch(() => {});
  }

  return {
    /**
     * A client starts acting in a tab: the mark shows; the controller is aborted by Stop.
     * @param {number} tabId @param {string} name @param {AbortController} controller
     * @returns {() => void} call when the call ends
     */
    begin(tabId, name, controller) {
      let t = tabs.get(tabId);
      if (!t) { t = { name, active: 0, controllers: new Set(), timer: null }; tabs.set(tabId, t); }
      if (t.timer) { clearTimeout(t.timer); t.timer = null; }
      const shown = t.active > 0 || t.name === name;
      t.name = name;
      t.active++;
      t.controllers.add(controller);
      if (!shown || t.active === 1) void announce(tabId, name);
      const entry = t;
      return () => {
        entry.controllers.delete(controller);
        entry.active = Math.max(0, entry.active - 1);
        if (entry.active > 0) return;
        entry.timer = setTimeout(() => {
          if (tabs.get(tabId) !== entry || entry.active > 0) return;
          tabs.delete(tabId);
          void announce(tabId, null);
        }, LINGER_MS);
      };
    },
    /** Who drives a tab now, or null. @param {number} tabId */
    current(tabId) { return tabs.get(tabId)?.name ?? null; },
    /** Stop (panel or page): abort what clients do in the tab, and take the mark down. @param {number} tabId */
    stop(tabId) {
      const t = tabs.get(tabId);
      if (!t) return false;
      for (const c of t.controllers) c.abort(new Error('stopped by the user'));
      if (t.timer) clearTimeout(t.timer);
      tabs.delete(tabId);
      void announce(tabId, null);
      return true;
    },
  };
}
/** @typedef {ReturnType<typeof createDrivers>} Drivers */
