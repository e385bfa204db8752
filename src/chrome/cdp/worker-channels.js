// The channel hold in a held tab's workers (Chrome; docs/SECURITY.md): cdp/targets.js attaches each
// dedicated, shared and service worker the tab owns, paused before its first line; this installs
// cdp/worker-hook.js in it through a CDP binding (Runtime.addBinding, whose global the hook removes
// at once) and judges each send it tells exactly as a page's frame is judged (service/channel-hold.js
// builds the HeldRequest; the run's wants/decide answer), then hands the answer back through the
// control function the hook returned, reachable only from this debugger session (cdp/hook-up.js).
// A frame let go waits for its reply in cdp/frame-replies.js.
/** @import { HoldHandlers, HeldRequest } from '../types/safety' */
/** @import { Hook } from './hook-up.js' */
import { heldRequest, sendProblem } from '../service/channel-hold.js';
import { createKeptSends } from './kept-sends.js';
import { createFrameReplies } from './frame-replies.js';
import { hookUp, controlHook } from './hook-up.js';

/**
 * What this needs of cdp/session.js (so Node tests can stand in for it).
 * @typedef {{ onEvent(l: (tabId: number, method: string, params: any, sessionId?: string) => void): unknown,
 *   onDetach(l: (tabId: number) => void): unknown,
 *   sendTo(tabId: number, sessionId: string | undefined, method: string, params?: Record<string, unknown>): Promise<any> }} CdpChannels
 * @typedef {{ cdp: CdpChannels, handlersOf: (tabId: number) => HoldHandlers | undefined,
 *   replies: ReturnType<typeof createFrameReplies>, kept: ReturnType<typeof createKeptSends> }} JudgeDeps
 */

/**
 * @param {CdpChannels} cdp
 * @param {(tabId: number) => HoldHandlers | undefined} handlersOf the run's handlers while the tab is held
 */
export function createWorkerChannels(cdp, handlersOf) {
  /** @type {Map<string, Hook>} by session */
  const hooks = new Map();
  /** Installs under way, by session. @type {Map<string, Promise<void>>} */
  const installing = new Map();
  const replies = createFrameReplies();
  const kept = createKeptSends();
  const deps = { cdp, handlersOf, replies, kept };

  cdp.onEvent((tabId, method, p, sessionId) => {
    if (method === 'Target.detachedFromTarget') { forget(String(p.sessionId)); return; }
    if (method === 'Network.webSocketCreated' && sessionId && hooks.has(sessionId)) { kept.created(sessionId, String(p.requestId), String(p.url ?? '')); return; }
    if (method === 'Network.webSocketFrameSent' && sessionId) { frameSent(deps, tabId, hooks.get(sessionId), sessionId, p); return; }
    if (method !== 'Runtime.bindingCalled' || !sessionId) return;
    const hook = hooks.get(sessionId);
    if (!hook || hook.tabId !== tabId || p.name !== hook.name) return;
    let m;
    try { m = JSON.parse(String(p.payload)); } catch { return; }
    if (m?.op === 'send') judge(deps, sessionId, hook, m);
    else if (m?.op === 'reply') replies.replied(sessionId, m);
  });
  cdp.onDetach((tabId) => { for (const [s, h] of hooks) if (h.tabId === tabId) forget(s); });

  /** @param {string} sessionId */
  function forget(sessionId) { hooks.delete(sessionId); kept.forget(sessionId); }

  /**
   * Installs the hook in a worker (before it runs, when it is paused), held from now.
   * @param {number} tabId @param {string} sessionId @param {{ url: string, type: string }} worker
   */
  async function install(tabId, sessionId, worker) {
    // A worker attached as the hold begins is set up twice at once (its attach, the hold's sweep): one hook.
    const pending = installing.get(sessionId);
    if (pending) { await pending; return; }
    const existing = hooks.get(sessionId);
    if (existing) { await controlHook(cdp, tabId, sessionId, existing.objectId, ['held', true]); kept.watch(sessionId, true); return; }
    const done = hookUp(cdp, tabId, sessionId, worker).then((hook) => { if (hook) hooks.set(sessionId, hook); }).finally(() => installing.delete(sessionId));
    installing.set(sessionId, done);
    await done;
    if (hooks.has(sessionId)) kept.watch(sessionId, true);
  }

  return {
    install,
    /** After a worker paused at its start runs: guards what it only now has (WebTransport). @param {number} tabId @param {string} sessionId */
    started(tabId, sessionId) {
      const h = hooks.get(sessionId);
      if (h) controlHook(cdp, tabId, sessionId, h.objectId, ['late']);
    },
    /** Holds (or lets go) every hooked worker of the tab. @param {number} tabId @param {boolean} held */
    async setHeld(tabId, held) {
      for (const [s, h] of hooks) if (h.tabId === tabId && !held) kept.watch(s, false);
      await Promise.all([...hooks].filter(([, h]) => h.tabId === tabId).map(([s, h]) => controlHook(cdp, tabId, s, h.objectId, ['held', held])));
    },
    /** Is this worker hooked? @param {string} sessionId */
    has(sessionId) { return hooks.has(sessionId); },
  };
}

/** The request a worker's send stands for, named for its card. @param {Hook} hook @param {any} what @returns {HeldRequest} */
function requestOf(hook, what) {
  return { ...heldRequest(what, { tabId: hook.tabId, frameId: 0, url: hook.url }), source: hook.source, initiator: hook.url.slice(0, 2048) };
}

/**
 * A frame that went around the hook (a send kept from before it) is told to the run.
 * @param {JudgeDeps} deps @param {number} tabId @param {Hook | undefined} hook @param {string} sessionId @param {any} p
 */
function frameSent({ handlersOf, kept }, tabId, hook, sessionId, p) {
  const what = hook ? kept.sent(sessionId, p) : null;
  const handlers = what ? handlersOf(tabId) : undefined;
  if (!hook || !what || !handlers?.unseen) return;
  handlers.unseen(requestOf({ ...hook, tabId }, what));
}

/**
 * A send the hook holds, judged as a page's is; the answer goes back to the hook.
 * @param {JudgeDeps} deps @param {string} sessionId @param {Hook} hook @param {any} m
 */
async function judge({ cdp, handlersOf, replies, kept }, sessionId, hook, m) {
  const problem = sendProblem({ doc: '0000000000000000', id: m.id, what: m.what });
  let allow = false;
  const frame = m.what?.channel === 'websocket_frame';
  if (!problem) {
    const handlers = handlersOf(hook.tabId);
    const req = requestOf(hook, m.what);
    if (!handlers || !wanted(handlers, req)) allow = true;
    else {
      allow = await handlers.decide(req).catch(() => false);
      if (allow && req.channel === 'websocket_frame' && handlers.settled) replies.expect(sessionId, m.id, req, handlers);
    }
  }
  if (allow && frame) kept.letGo(sessionId, m.what);
  await controlHook(cdp, hook.tabId, sessionId, hook.objectId, ['answer', m.id, allow]);
}

/** @param {HoldHandlers} handlers @param {HeldRequest} req */
function wanted(handlers, req) { try { return handlers.wants(req); } catch { return true; } }
