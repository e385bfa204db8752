// The MCP bridge in the background (docs/MCP.md): while Settings → MCP bridge is on, one link
// (service/mcp/link.js) per port from the configured one on, each dialing a bridge on 127.0.0.1
// and dialing again with backoff; an alarm wakes Chrome's worker to keep trying. Pairing,
// revoking and grants arrive from the settings page through the router (handlers/mcp.js); calls
// from signed-in bridges go to service/mcp/calls.js.
/** @import { Settings } from '../../types/messages' */
/** @import { Session } from '../session.js' */
/** @import { Grant } from '../../mcp-protocol/grants.js' */
import { createClientsStore } from './clients-store.js';
import { createLink } from './link.js';
import { createDrivers } from './drivers.js';
import { createGate } from './gate.js';
import { createCalls } from './calls.js';
import { fail } from '../../agent/error-codes.js';

/** The bridge's default port; a bridge that finds it taken tries the next ones (src/bridge/). */
export const DEFAULT_PORT = 17373;
/** How many ports from the configured one are dialed: one bridge per MCP client that runs at once. */
export const PORT_SPAN = 4;
const ALARM = 'tabwright-mcp';

/**
 * @param {object} deps
 * @param {ReturnType<typeof import('../settings.js').createSettingsStore>} deps.settings
 * @param {import('../../types/core').BrowserOps} deps.ops
 * @param {(tabId: number) => Promise<Session>} deps.session
 * @param {ReturnType<typeof import('../runs.js').createRuns>} deps.runs
 * @param {ReturnType<typeof import('../knowledge.js').createKnowledge>} [deps.knowledge]
 * @param {import('./calls.js').RunPlaces} [deps.places] the run slots and tab groups
 */
export function startMcp({ settings, ops, session, runs, knowledge, places }) {
  const clients = createClientsStore({ area: browser.storage.local });
  const drivers = createDrivers({ ops, session });
  const gate = createGate({ ops, session, settings, knowledge });
  const calls = createCalls({ clients, gate, drivers, session, runs, settings, places });
  /** @type {Map<number, import('./link.js').Link>} */
  const links = new Map();
  let webmcp = false;

  /** @param {Settings} conf */
  function apply(conf) {
    const on = conf.mcp?.enabled === true;
    const base = conf.mcp?.port ?? DEFAULT_PORT;
    const ports = on ? Array.from({ length: PORT_SPAN }, (_, i) => base + i) : [];
    for (const [port, link] of links) if (!ports.includes(port)) { link.stop(); links.delete(port); }
    for (const port of ports) {
      if (links.has(port)) continue;
      const link = createLink({ port, clients, onCall: (l, f, signal, progress) => calls.handle(l.info.bridgeId ?? '', f, signal, progress) });
      links.set(port, link);
      link.connect();
    }
    if (on) void browser.alarms.create(ALARM, { periodInMinutes: 0.5 });
    else void browser.alarms.clear(ALARM);
    if (webmcp !== (conf.webmcp === true)) {
      webmcp = conf.webmcp === true;
      for (const link of links.values()) link.notify({ type: 'tools_changed' });
    }
  }

  // Registered at start-up so a worker woken by the alarm has its listener in place.
  browser.alarms.onAlarm.addListener((/** @type {{ name: string }} */ a) => { if (a.name === ALARM) for (const l of links.values()) l.poke(); });
  browser.storage.onChanged.addListener((/** @type {Record<string, unknown>} */ changes, /** @type {string} */ area) => {
    // The organization's policy (storage.managed) may switch the bridge off while it runs.
    if ((area === 'local' && changes.settings) || area === 'managed') void settings.get().then(apply);
  });
  void settings.get().then((conf) => { webmcp = conf.webmcp === true; apply(conf); });

  return {
    /** What Settings shows: the links and the paired clients. Opening Settings also dials now. */
    async status() {
      const conf = await settings.get();
      for (const l of links.values()) l.poke();
      return { enabled: conf.mcp?.enabled === true, port: conf.mcp?.port ?? DEFAULT_PORT, links: [...links.values()].map((l) => ({ ...l.info })), clients: await clients.list() };
    },
    /**
     * The code the user typed, tried on every bridge waiting to be paired.
     * @param {string} code @param {Grant} grant
     * @returns {Promise<{ ok: true, data: { name: string } } | { ok: false, code: string, message: string }>}
     */
    async pair(code, grant) {
      const waiting = [...links.values()].filter((l) => l.info.state === 'pending');
      if (!waiting.length) return fail('MCP_NO_BRIDGE');
      /** @type {{ ok: false, code: string, message: string } | null} */
      let last = null;
      for (const l of waiting) {
        const r = await l.pair(code, grant);
        if (r.ok) return { ok: true, data: { name: r.name } };
        last = r;
        if (r.code === 'MCP_BAD_CODE') break;
      }
      return /** @type {{ ok: false, code: string, message: string }} */ (last);
    },
    /** Revoke: forgotten, and disconnected at once. @param {string} id */
    async revoke(id) {
      await clients.remove(id);
      gate.forget(id);
      for (const l of links.values()) if (l.info.bridgeId === id && l.info.state === 'ready') l.revoke();
      return true;
    },
    /** @param {string} id @param {Grant} grant */
    setGrant: (id, grant) => clients.update(id, { grant }),
    /** Stop in the panel or on the page: what clients do in this tab ends. @param {number} tabId */
    stopTab: (tabId) => drivers.stop(tabId),
    /** @param {number} tabId */
    driver: (tabId) => drivers.current(tabId),
  };
}
/** @typedef {ReturnType<typeof startMcp>} Mcp */
