// Shared workers already running when a tab's hold begins (Chrome; docs/SECURITY.md). The tab's
// session cannot auto-attach a shared worker, but chrome.debugger can attach one by its target id:
// each running shared worker of an origin the tab shows is attached when the hold begins. Its
// WebSocket frames are then held by the worker hook (cdp/worker-channels.js), as a dedicated
// worker's. Its HTTP requests cannot be held: Chrome never gives a running shared worker's loader
// to Fetch (the interception applies only to loaders made after Fetch.enable, and a shared worker
// makes its loader when it starts), so while the tab is held every request it starts is refused in
// its renderer (Network.setBlockedURLs, which stops fetch, XMLHttpRequest, EventSource and
// importScripts before anything leaves) and each refusal is told to the run (onRefused).
/** @import { createCdpSessions } from './session.js' */
/** @import { createWorkerChannels } from './worker-channels.js' */

/** @typedef {{ url: string, held: boolean, requests: Map<string, { method: string, url: string }> }} Running */

const MAX_REQUESTS = 200;

/**
 * @param {ReturnType<typeof createCdpSessions>} cdp
 * @param {ReturnType<typeof createWorkerChannels> | undefined} workers
 * @param {((tabId: number, what: { method: string, url: string, worker: string }) => void) | undefined} onRefused
 */
export function createSharedWorkers(cdp, workers, onRefused) {
  /** The shared workers attached for each tab, by session (`target:<id>`). @type {Map<number, Map<string, Running>>} */
  const tabs = new Map();

  cdp.onEvent((tabId, method, p, sessionId) => {
    const w = sessionId ? tabs.get(tabId)?.get(sessionId) : undefined;
    if (!w) return;
    if (method === 'Network.requestWillBeSent') {
      w.requests.set(String(p.requestId), { method: String(p.request?.method ?? 'GET'), url: String(p.request?.url ?? '') });
      if (w.requests.size > MAX_REQUESTS) w.requests.delete(/** @type {string} */ (w.requests.keys().next().value));
    } else if (method === 'Network.loadingFailed') {
      const r = w.requests.get(String(p.requestId));
      w.requests.delete(String(p.requestId));
      // 'inspector': refused by the blocked URLs set below, before it left the worker.
      if (r && p.blockedReason === 'inspector') onRefused?.(tabId, { ...r, worker: w.url });
    } else if (method === 'Network.loadingFinished') {
      w.requests.delete(String(p.requestId));
    }
  });
  cdp.onDetach((tabId) => tabs.delete(tabId));

  /** @param {number} tabId @param {string} sessionId @param {boolean} on */
  function block(tabId, sessionId, on) {
    return cdp.sendTo(tabId, sessionId, 'Network.setBlockedURLs', { urls: on ? ['*'] : [] }).catch(() => null);
  }

  /** @param {number} tabId @param {string} sessionId @param {Running} w */
  async function holdOne(tabId, sessionId, w) {
    w.held = true;
    await block(tabId, sessionId, true);
    await workers?.install(tabId, sessionId, { url: w.url, type: 'shared_worker' });
    workers?.started(tabId, sessionId);
  }

  /**
   * The origins of the tab's documents: its frames (Page.getFrameTree) and its out-of-process
   * frames (their URLs, from cdp/targets.js).
   * @param {number} tabId @param {string[]} childUrls
   */
  async function originsOf(tabId, childUrls) {
    const origins = new Set(childUrls.map(originOf));
    const tree = await cdp.send(tabId, 'Page.getFrameTree').catch(() => null);
    /** @param {any} node */
    const walk = (node) => {
      if (!node) return;
      origins.add(originOf(String(node.frame?.url ?? '')));
      for (const c of node.childFrames ?? []) walk(c);
    };
    walk(tree?.frameTree);
    origins.delete('');
    return origins;
  }

  return {
    /**
     * Attach and hold every running shared worker of the tab's origins (those attached under an
     * earlier hold are held again). @param {number} tabId @param {string[]} childUrls
     */
    async hold(tabId, childUrls) {
      const mine = tabs.get(tabId) ?? new Map();
      tabs.set(tabId, mine);
      for (const [sessionId, w] of mine) await holdOne(tabId, sessionId, w);
      const origins = await originsOf(tabId, childUrls);
      for (const t of await cdp.targets()) {
        // Attached already: by this tab (above), or by another debugger (DevTools), which Chrome
        // lets only one client hold; the page-world helper still refuses new ones.
        if (t.type !== 'worker' || t.attached || !origins.has(originOf(t.url))) continue;
        const sessionId = await cdp.attachTarget(tabId, t.id);
        if (!sessionId) continue;
        const info = await cdp.sendTo(tabId, sessionId, 'Target.getTargetInfo').catch(() => null);
        // A service worker of the origin that this tab does not use is not the tab's sender.
        if (info?.targetInfo?.type !== 'shared_worker') { await cdp.detachTarget(sessionId); continue; }
        /** @type {Running} */
        const w = { url: t.url, held: true, requests: new Map() };
        mine.set(sessionId, w);
        await cdp.sendTo(tabId, sessionId, 'Network.enable', {}).catch(() => null);
        await holdOne(tabId, sessionId, w);
      }
    },
    /** Its requests go again (the hook lets frames go through cdp/worker-channels.js). @param {number} tabId */
    async stopHolding(tabId) {
      const mine = tabs.get(tabId);
      if (!mine) return;
      await Promise.all([...mine].map(([sessionId, w]) => { w.held = false; return block(tabId, sessionId, false); }));
    },
    /** @param {number} tabId */
    async detach(tabId) {
      const mine = tabs.get(tabId);
      tabs.delete(tabId);
      if (mine) await Promise.all([...mine.keys()].map((s) => cdp.detachTarget(s)));
    },
    /** @param {number} tabId @param {string} sessionId */
    gone(tabId, sessionId) { tabs.get(tabId)?.delete(sessionId); },
    /** The running shared worker behind a session, if it is one. @param {number} tabId @param {string} sessionId */
    worker(tabId, sessionId) { return tabs.get(tabId)?.get(sessionId); },
  };
}

/** @param {string} url */
function originOf(url) {
  try { const o = new URL(url).origin; return o === 'null' ? '' : o; } catch { return ''; }
}
