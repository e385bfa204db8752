// The channel hold in a held tab's workers (Chrome; docs/SECURITY.md): cdp/targets.js attaches each
// dedicated, shared and service worker the tab owns, paused before its first line; this installs
// cdp/worker-hook.js in it through a CDP binding (Runtime.addBinding, whose global the hook removes
// at once) and judges each send it tells exactly as a page's frame is judged (service/channel-hold.js
// builds the HeldRequest; the run's wants/decide answer), then hands the answer back through the
// control function the hook returned, reachable only from this debugger session.
/** @import { HeldRequest, HoldHandlers } from '../types/safety' */
import { workerHook } from './worker-hook.js';
import { heldRequest, sendProblem } from '../service/channel-hold.js';
import { createKeptSends } from './kept-sends.js';

/**
 * What this needs of cdp/session.js (so Node tests can stand in for it).
 * @typedef {{ onEvent(l: (tabId: number, method: string, params: any, sessionId?: string) => void): unknown,
 *   onDetach(l: (tabId: number) => void): unknown,
 *   sendTo(tabId: number, sessionId: string | undefined, method: string, params?: Record<string, unknown>): Promise<any> }} CdpChannels
 */
/** @typedef {{ tabId: number, name: string, objectId: string, url: string, source: NonNullable<HeldRequest['source']> }} Hook */

/** How long a frame let go waits for its reply before it is forgotten. */
const REPLY_MS = 15_000;

/**
 * @param {CdpChannels} cdp
 * @param {(tabId: number) => HoldHandlers | undefined} handlersOf the run's handlers while the tab is held
 */
export function createWorkerChannels(cdp, handlersOf) {
  /** @type {Map<string, Hook>} by session */
  const hooks = new Map();
  /** Installs under way, by session. @type {Map<string, Promise<void>>} */
  const installing = new Map();
  /** Frames let go, waiting for their reply. @type {Map<string, { req: HeldRequest, handlers: HoldHandlers, timer: ReturnType<typeof setTimeout> }>} */
  const sent = new Map();
  const kept = createKeptSends();

  cdp.onEvent((tabId, method, p, sessionId) => {
    if (method === 'Target.detachedFromTarget') { forget(String(p.sessionId)); return; }
    if (method === 'Network.webSocketCreated' && sessionId && hooks.has(sessionId)) { kept.created(sessionId, String(p.requestId), String(p.url ?? '')); return; }
    if (method === 'Network.webSocketFrameSent' && sessionId) { frameSent(tabId, sessionId, p); return; }
    if (method !== 'Runtime.bindingCalled' || !sessionId) return;
    const hook = hooks.get(sessionId);
    if (!hook || hook.tabId !== tabId || p.name !== hook.name) return;
    let m;
    try { m = JSON.parse(String(p.payload)); } catch { return; }
    if (m?.op === 'send') judge(sessionId, hook, m);
    else if (m?.op === 'reply') replied(sessionId, m);
  });
  cdp.onDetach((tabId) => { for (const [s, h] of hooks) if (h.tabId === tabId) forget(s); });

  /** @param {string} sessionId */
  function forget(sessionId) { hooks.delete(sessionId); kept.forget(sessionId); }

  /** A frame that went around the hook (a send kept from before it) is told to the run. @param {number} tabId @param {string} sessionId @param {any} p */
  function frameSent(tabId, sessionId, p) {
    const hook = hooks.get(sessionId);
    const what = hook ? kept.sent(sessionId, p) : null;
    const handlers = what ? handlersOf(tabId) : undefined;
    if (!hook || !what || !handlers?.unseen) return;
    handlers.unseen({ ...heldRequest(what, { tabId, frameId: 0, url: hook.url }), source: hook.source, initiator: hook.url.slice(0, 2048) });
  }

  /** @param {string} sessionId @param {Hook} hook @param {any} m */
  async function judge(sessionId, hook, m) {
    const problem = sendProblem({ doc: '0000000000000000', id: m.id, what: m.what });
    let allow = false;
    const frame = m.what?.channel === 'websocket_frame';
    if (!problem) {
      const handlers = handlersOf(hook.tabId);
      const req = { ...heldRequest(m.what, { tabId: hook.tabId, frameId: 0, url: hook.url }), source: hook.source, initiator: hook.url.slice(0, 2048) };
      if (!handlers || !wanted(handlers, req)) allow = true;
      else {
        allow = await handlers.decide(req).catch(() => false);
        if (allow && req.channel === 'websocket_frame' && handlers.settled) {
          const key = `${sessionId}/${m.id}`;
          sent.set(key, { req, handlers, timer: setTimeout(() => sent.delete(key), REPLY_MS) });
        }
      }
    }
    if (allow && frame) kept.letGo(sessionId, m.what);
    await control(hook.tabId, sessionId, hook.objectId, ['answer', m.id, allow]);
  }

  /** @param {string} sessionId @param {any} m */
  function replied(sessionId, m) {
    const key = `${sessionId}/${m.id}`;
    const waiting = sent.get(key);
    if (!waiting) return;
    sent.delete(key);
    clearTimeout(waiting.timer);
    const r = m.reply ?? {};
    if (typeof r.error === 'string') waiting.handlers.settled?.(waiting.req, { error: `the socket closed before the frame could leave (${r.error.slice(0, 100)})` });
    else waiting.handlers.settled?.(waiting.req, { status: 101, reply: typeof r.text === 'string' ? r.text.slice(0, 64 * 1024) : `(binary, ${Number(r.bytes) || 0} bytes)` });
  }

  /** @param {number} tabId @param {string} sessionId @param {string} objectId @param {unknown[]} args */
  function control(tabId, sessionId, objectId, args) {
    return cdp.sendTo(tabId, sessionId, 'Runtime.callFunctionOn', {
      objectId, functionDeclaration: 'function (op, a, b) { this(op, a, b); }', arguments: args.map((value) => ({ value })), silent: true,
    }).catch(() => {});
  }

  /**
   * Installs the hook in a worker (before it runs, when it is paused), held from now.
   * @param {number} tabId @param {string} sessionId @param {{ url: string, type: string }} worker
   */
  async function install(tabId, sessionId, worker) {
    // A worker attached as the hold begins is set up twice at once (its attach, the hold's sweep): one hook.
    const pending = installing.get(sessionId);
    if (pending) { await pending; return; }
    const existing = hooks.get(sessionId);
    if (existing) { await control(tabId, sessionId, existing.objectId, ['held', true]); kept.watch(sessionId, true); return; }
    const done = hookUp(tabId, sessionId, worker).finally(() => installing.delete(sessionId));
    installing.set(sessionId, done);
    await done;
    if (hooks.has(sessionId)) kept.watch(sessionId, true);
  }

  /** @param {number} tabId @param {string} sessionId @param {{ url: string, type: string }} worker */
  async function hookUp(tabId, sessionId, worker) {
    const name = `__tw${Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => b.toString(16).padStart(2, '0')).join('')}`;
    /** @param {string} method @param {Record<string, unknown>} [params] */
    const send = (method, params) => cdp.sendTo(tabId, sessionId, method, params);
    try {
      // bindingCalled is told only with Runtime on.
      await send('Runtime.enable');
      await send('Runtime.addBinding', { name });
      const r = await send('Runtime.evaluate', { expression: `(${workerHook.toString()})(${JSON.stringify(name)}, true)`, silent: true });
      const objectId = r?.result?.objectId;
      if (r?.exceptionDetails || r?.result?.type !== 'function' || typeof objectId !== 'string') return;
      hooks.set(sessionId, { tabId, name, objectId, url: worker.url, source: worker.type === 'service_worker' ? 'service_worker' : 'worker' });
    } catch { /* the worker is gone */ }
  }

  return {
    install,
    /** After a worker paused at its start runs: guards what it only now has (WebTransport). @param {number} tabId @param {string} sessionId */
    started(tabId, sessionId) {
      const h = hooks.get(sessionId);
      if (h) control(tabId, sessionId, h.objectId, ['late']);
    },
    /** Holds (or lets go) every hooked worker of the tab. @param {number} tabId @param {boolean} held */
    async setHeld(tabId, held) {
      for (const [s, h] of hooks) if (h.tabId === tabId && !held) kept.watch(s, false);
      await Promise.all([...hooks].filter(([, h]) => h.tabId === tabId).map(([s, h]) => control(tabId, s, h.objectId, ['held', held])));
    },
    /** Is this worker hooked? @param {string} sessionId */
    has(sessionId) { return hooks.has(sessionId); },
  };
}

/** @param {HoldHandlers} handlers @param {HeldRequest} req */
function wanted(handlers, req) { try { return handlers.wants(req); } catch { return true; } }

