// The targets a tab owns beyond its page, for the request hold: out-of-process (cross-site) frames,
// dedicated workers and the page's service worker. Target.setAutoAttach with flatten on the page,
// and again in each child, attaches every one of them, those already running and those started
// later, each paused before it runs (waitForDebuggerOnStart) until its own Fetch and Network are on:
// no request of a new frame or worker leaves before the hold sees it.
// Each worker also gets the channel hook (cdp/worker-channels.js) before it runs: its WebSocket
// frames wait for the policy as a page's do.
// Shared workers: the tab's session may neither discover nor auto-attach them ("Not allowed"), so
// one cannot be paused before it runs; while the tab is held the page-world helper refuses to start
// one (content/page-world.js). One already running when the hold begins is attached by its target id
// (cdp/shared-workers.js): its socket frames are held by the worker hook, but Fetch cannot pause its
// requests (Chrome never gives a running shared worker's loader the interception), so they are
// refused while held (Network.setBlockedURLs) and each refusal is told to the run.
/** @import { HeldRequest } from '../types/safety' */
/** @import { createCdpSessions } from './session.js' */
/** @import { createWorkerChannels } from './worker-channels.js' */
import { createSharedWorkers } from './shared-workers.js';

/** @typedef {{ sessionId: string, type: string, url: string, parent?: string }} Child */
/** @typedef {{ children: Map<string, Child>, holding: boolean, autoAttach: boolean }} TabTargets */

export const FETCH_PATTERNS = [{ urlPattern: '*', requestStage: 'Request' }];
export const NETWORK_BUFFERS = { maxTotalBufferSize: 20_000_000, maxResourceBufferSize: 5_000_000 };
const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: true, flatten: true };

const WORKERS = new Set(['worker', 'shared_worker', 'service_worker']);

/**
 * @param {ReturnType<typeof createCdpSessions>} cdp @param {ReturnType<typeof createWorkerChannels>} [workers]
 * @param {(tabId: number, what: { method: string, url: string, worker: string }) => void} [onRefused] a running shared worker's request, refused
 */
export function createTargets(cdp, workers, onRefused) {
  /** @type {Map<number, TabTargets>} */
  const tabs = new Map();
  const shared = createSharedWorkers(cdp, workers, onRefused);

  cdp.onEvent((tabId, method, p, sessionId) => {
    const t = tabs.get(tabId);
    if (method === 'Target.attachedToTarget') {
      const child = { sessionId: String(p.sessionId), type: String(p.targetInfo?.type ?? 'other'), url: String(p.targetInfo?.url ?? ''), parent: sessionId };
      if (!t?.autoAttach) { resume(tabId, child.sessionId); return; }
      t.children.set(child.sessionId, child);
      setUp(tabId, t, child);
    } else if (method === 'Target.detachedFromTarget') {
      t?.children.delete(String(p.sessionId));
      shared.gone(tabId, String(p.sessionId));
    } else if (method === 'Target.targetInfoChanged' && sessionId && t) {
      // A frame navigated: its URL names the sender on the card.
      for (const c of t.children.values()) if (c.sessionId === sessionId && p.targetInfo?.url) c.url = String(p.targetInfo.url);
    }
  });
  cdp.onDetach((tabId) => tabs.delete(tabId));

  /** @param {number} tabId @param {string} sessionId */
  function resume(tabId, sessionId) { cdp.sendTo(tabId, sessionId, 'Runtime.runIfWaitingForDebugger').catch(() => {}); }

  /** A new child: its own children, its requests, then let it run. @param {number} tabId @param {TabTargets} t @param {Child} child */
  async function setUp(tabId, t, child) {
    /** @param {string} method @param {Record<string, unknown>} [params] */
    const send = (method, params) => cdp.sendTo(tabId, child.sessionId, method, params).catch(() => null);
    await send('Target.setAutoAttach', AUTO_ATTACH);
    await send('Network.enable', NETWORK_BUFFERS);
    // Dedicated workers have no Fetch domain ("wasn't found"): their requests pause in the session
    // of the frame that started them, which is held already.
    if (t.holding) await send('Fetch.enable', { patterns: FETCH_PATTERNS });
    const hooked = t.holding && WORKERS.has(child.type);
    if (hooked) await workers?.install(tabId, child.sessionId, child);
    resume(tabId, child.sessionId);
    if (hooked) workers?.started(tabId, child.sessionId);
  }

  return {
    /** Attach every child target of the tab, now and later, and hold each one's requests. @param {number} tabId */
    async hold(tabId) {
      let t = tabs.get(tabId);
      if (!t) { t = { children: new Map(), holding: true, autoAttach: true }; tabs.set(tabId, t); }
      t.holding = true;
      t.autoAttach = true;
      await cdp.send(tabId, 'Target.setAutoAttach', AUTO_ATTACH);
      // Children attached under an earlier hold that was released but not yet detached.
      await Promise.all([...t.children.values()].map((c) => cdp.sendTo(tabId, c.sessionId, 'Fetch.enable', { patterns: FETCH_PATTERNS }).catch(() => {})));
      await Promise.all([...t.children.values()].filter((c) => WORKERS.has(c.type)).map((c) => workers?.install(tabId, c.sessionId, c)));
      await shared.hold(tabId, [...t.children.values()].map((c) => c.url));
    },
    /** Stop holding in every child (their paused requests go on); children stay attached for their answers. @param {number} tabId */
    async stopHolding(tabId) {
      const t = tabs.get(tabId);
      if (!t) return;
      t.holding = false;
      await workers?.setHeld(tabId, false);
      await shared.stopHolding(tabId);
      await Promise.all([...t.children.values()].map((c) => cdp.sendTo(tabId, c.sessionId, 'Fetch.disable').catch(() => {})));
    },
    /** Detach every child (unless a new hold began meanwhile). @param {number} tabId */
    async detach(tabId) {
      const t = tabs.get(tabId);
      if (!t || t.holding) return;
      t.autoAttach = false;
      t.children.clear();
      await shared.detach(tabId);
      await cdp.send(tabId, 'Target.setAutoAttach', { ...AUTO_ATTACH, autoAttach: false }).catch(() => {});
    },
    /**
     * Who sent a request paused or seen in this session, and from which document or script.
     * @param {number} tabId @param {string | undefined} sessionId
     * @returns {{ source: NonNullable<HeldRequest['source']>, url?: string }}
     */
    sender(tabId, sessionId) {
      const running = sessionId ? shared.worker(tabId, sessionId) : undefined;
      if (running) return { source: 'worker', url: running.url };
      const c = sessionId ? tabs.get(tabId)?.children.get(sessionId) : undefined;
      if (!c) return { source: 'page' };
      const source = c.type === 'iframe' || c.type === 'page' ? 'frame' : c.type === 'service_worker' ? 'service_worker' : 'worker';
      return { source, url: c.url || undefined };
    },
  };
}
