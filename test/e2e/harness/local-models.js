// Stand-ins for the local model servers the first run probes (ui/detect-local.js: Ollama at
// localhost:11434, LM Studio at localhost:1234), on free ports this process chose. Every browser
// the harness launches reaches them at those real addresses (Chromium: host-resolver rules;
// Firefox: a proxy script in its profile), so a server of the machine, a developer's Ollama say,
// is never probed, and two test processes never compete for a port. The extension is unchanged:
// it probes the real addresses, and only the test browsers' network settings point them here.
import http from 'node:http';

/** The addresses the extension probes, as ui/detect-local.js names them. */
export const LOCAL_MODEL_ADDRESSES = Object.freeze({ ollama: 'localhost:11434', lmstudio: 'localhost:1234' });

/**
 * @typedef {keyof typeof LOCAL_MODEL_ADDRESSES} LocalModelId
 * @typedef {(req: http.IncomingMessage, res: http.ServerResponse, path: string) => void} LocalHandler
 * @typedef {object} LocalModels
 * @property {Record<LocalModelId, number>} ports where each stand-in listens on 127.0.0.1
 * @property {(id: LocalModelId, handler: LocalHandler) => void} serve answer at id's address with handler
 * @property {(id: LocalModelId) => void} off as if nothing listened there (the default)
 * @property {() => Promise<void>} close
 */

/** @type {Promise<LocalModels> | null} */
let standIn = null;

/** The process's stand-ins, started on first use. */
export function localModels() {
  standIn ??= start();
  return standIn;
}

export async function closeLocalModels() {
  const s = standIn;
  standIn = null;
  if (s) await (await s).close();
}

/** @returns {Promise<LocalModels>} */
async function start() {
  /** @type {Map<LocalModelId, LocalHandler>} */
  const handlers = new Map();
  /** @type {http.Server[]} */
  const servers = [];
  const ports = /** @type {Record<LocalModelId, number>} */ ({});
  for (const id of /** @type {LocalModelId[]} */ (Object.keys(LOCAL_MODEL_ADDRESSES))) {
    const server = http.createServer((req, res) => {
      const handler = handlers.get(id);
      // Off: the connection is dropped unanswered, which the probe sees as nothing listening.
      if (!handler) { req.socket.destroy(); return; }
      // Through Firefox's proxy the request line holds the whole address (http://localhost:11434/api/tags).
      handler(req, res, new URL(req.url ?? '/', 'http://stand-in').pathname);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
    ports[id] = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
    servers.push(server);
  }
  return {
    ports,
    serve: (id, handler) => { handlers.set(id, handler); },
    off: (id) => { handlers.delete(id); },
    close: () => Promise.all(servers.map((s) => new Promise((r) => { s.closeAllConnections(); s.close(() => r(undefined)); }))).then(() => {}),
  };
}

/** Chromium's host-resolver rules sending each local model address to its stand-in. @param {LocalModels} m */
export function chromiumLocalModelRules(m) {
  return Object.entries(LOCAL_MODEL_ADDRESSES).map(([id, addr]) => `MAP ${addr} 127.0.0.1:${m.ports[/** @type {LocalModelId} */ (id)]}`);
}

/**
 * Firefox preferences: a proxy script that sends each local model address to its stand-in and
 * everything else direct. Firefox never proxies localhost unless told it may, and must not fall
 * back to a direct connection (the machine's own server) when a stand-in drops a connection.
 * @param {LocalModels} m
 */
export function firefoxLocalModelPrefs(m) {
  const routes = Object.entries(LOCAL_MODEL_ADDRESSES)
    .map(([id, addr]) => `if (url.indexOf('http://${addr}/') === 0) return 'PROXY 127.0.0.1:${m.ports[/** @type {LocalModelId} */ (id)]}';`).join(' ');
  const pac = `function FindProxyForURL(url, host) { ${routes} return 'DIRECT'; }`;
  return {
    'network.proxy.type': 2,
    'network.proxy.autoconfig_url': `data:text/plain,${encodeURIComponent(pac)}`,
    'network.proxy.allow_hijacking_localhost': true,
    'network.proxy.failover_direct': false,
  };
}
