// One chrome.debugger session per tab: attached on first use, detached after a quiet minute (so the
// "started debugging this browser" banner goes away), forgotten when Chrome detaches it (the user
// pressed Cancel on the banner, DevTools took over, the tab closed). The parts: attaching a tab
// (tab-attach.js), the page events it answers itself (page-events.js), targets attached by id
// (target-sessions.js), and its coded failures (cdp-error.js).
import { CdpError, commandFailure, reasonOf } from './cdp-error.js';
import { attachTab } from './tab-attach.js';
import { acceptsDialog, isMainFrameNavigation } from './page-events.js';
import { createTargetSessions } from './target-sessions.js';

const IDLE_DETACH_MS = 60_000;

/** @typedef {{ attached: Promise<void>, timer?: ReturnType<typeof setTimeout>, navigating: boolean, pins: number }} Attached */
/** @typedef {(tabId: number, method: string, params: any, sessionId?: string) => void} CdpListener sessionId: a child target's flat session (an out-of-process frame, a worker), absent for the tab's page */

export function createCdpSessions() {
  /** @type {Map<number, Attached>} */
  const tabs = new Map();
  /** The top frame's CDP id, by tab. @type {Map<number, string>} */
  const mainFrame = new Map();
  /** Other modules' event listeners (the request hold). @type {Set<CdpListener>} */
  const listeners = new Set();
  /** Called when a tab's session goes away (detached, closed). @type {Set<(tabId: number) => void>} */
  const detachListeners = new Set();
  const targets = createTargetSessions(chrome.debugger, (...args) => { for (const l of listeners) { try { l(...args); } catch { /* a listener's own failure */ } } });

  chrome.debugger.onDetach.addListener((source) => {
    if (source.tabId !== undefined) forget(source.tabId);
    else if (source.targetId && targets.has(source.targetId)) targets.gone(source.targetId);
  });
  chrome.debugger.onEvent.addListener((source, method, params) => {
    if (source.tabId === undefined && source.targetId) { targets.event(source.targetId, method, params); return; }
    const s = source.tabId !== undefined ? tabs.get(source.tabId) : undefined;
    if (!s) return;
    const sessionId = /** @type {{ sessionId?: string }} */ (source).sessionId;
    for (const l of listeners) { try { l(/** @type {number} */ (source.tabId), method, params, sessionId); } catch { /* a listener's own failure */ } }
    // Dialogs and navigations are the page's; a child target's events stop here.
    if (!sessionId) pageEvent(/** @type {number} */ (source.tabId), s, method, /** @type {any} */ (params), mainFrame.get(/** @type {number} */ (source.tabId)));
  });

  /** @param {number} tabId */
  function forget(tabId) {
    targets.forgetTab(tabId);
    const s = tabs.get(tabId);
    if (s?.timer) clearTimeout(s.timer);
    tabs.delete(tabId);
    mainFrame.delete(tabId);
    if (s) for (const l of detachListeners) { try { l(tabId); } catch { /* ignore */ } }
  }

  /** @param {number} tabId @returns {Promise<Attached>} */
  async function ensure(tabId) {
    let s = tabs.get(tabId);
    if (!s) {
      const attached = attachTab(chrome.debugger, tabId).then((frameId) => { if (frameId) mainFrame.set(tabId, frameId); }, (err) => { forget(tabId); throw err; });
      s = { attached, navigating: false, pins: 0 };
      tabs.set(tabId, s);
    }
    await s.attached;
    idle(tabId, s);
    return s;
  }

  /** Detach after a quiet minute, unless something (a request hold) keeps the session. @param {number} tabId @param {Attached} s */
  function idle(tabId, s) {
    if (s.timer) clearTimeout(s.timer);
    s.timer = undefined;
    if (s.pins > 0) return;
    s.timer = setTimeout(() => { chrome.debugger.detach({ tabId }).catch(() => {}); forget(tabId); }, IDLE_DETACH_MS);
  }

  /** @param {number} tabId @param {string} method @param {Record<string, unknown>} [params] @returns {Promise<any>} */
  async function send(tabId, method, params) {
    await ensure(tabId);
    try {
      return await chrome.debugger.sendCommand({ tabId }, method, params);
    } catch (err) {
      const failed = commandFailure(err, method);
      if (failed.gone) forget(tabId);
      throw failed.error;
    }
  }

  return { send, ...childCommands(ensure, send, targets), ...tabState(tabs, mainFrame, ensure, idle, forget), ...listening(listeners, detachListeners) };
}

/**
 * The page's own event the session answers itself: a native dialog, a main-frame navigation.
 * @param {number} tabId @param {Attached} s @param {string} method @param {any} p @param {string | undefined} mainFrame
 */
function pageEvent(tabId, s, method, p, mainFrame) {
  if (method === 'Page.javascriptDialogOpening') {
    chrome.debugger.sendCommand({ tabId }, 'Page.handleJavaScriptDialog', { accept: acceptsDialog(p) }).catch(() => {});
  } else if (isMainFrameNavigation(method, p, mainFrame)) s.navigating = true;
}

/**
 * Commands to a tab's child targets, and targets attached by id.
 * @param {(tabId: number) => Promise<unknown>} ensure @param {(tabId: number, method: string, params?: Record<string, unknown>) => Promise<any>} send
 * @param {ReturnType<typeof createTargetSessions>} targets
 */
function childCommands(ensure, send, targets) {
  return {
    /**
     * A command to a child target's flat session (Target.setAutoAttach with flatten), or to the page
     * when sessionId is absent. A child that went away answers CDP_FAILED.
     * @param {number} tabId @param {string | undefined} sessionId @param {string} method @param {Record<string, unknown>} [params]
     * @returns {Promise<any>}
     */
    async sendTo(tabId, sessionId, method, params) {
      if (!sessionId) return send(tabId, method, params);
      await ensure(tabId);
      const targetId = targets.targetIdOf(sessionId);
      try {
        if (targetId) return await chrome.debugger.sendCommand({ targetId }, method, params);
        return await chrome.debugger.sendCommand(/** @type {chrome.debugger.DebuggerSession} */ ({ tabId, sessionId }), method, params);
      } catch (err) {
        throw new CdpError('CDP_FAILED', `${method}: ${reasonOf(err)}`);
      }
    },
    /**
     * The targets (other than the tab's own) chrome.debugger lists: shared workers among them.
     * @returns {Promise<chrome.debugger.TargetInfo[]>}
     */
    async targets() { return chrome.debugger.getTargets().catch(() => []); },
    /**
     * Attach a target by its id on behalf of a tab (a shared worker the tab's session may not
     * auto-attach); its session id is `target:<id>` for sendTo and the listeners. Null when it
     * cannot be attached (gone, or another debugger holds it).
     * @param {number} tabId @param {string} targetId @returns {Promise<string | null>}
     */
    async attachTarget(tabId, targetId) { await ensure(tabId); return targets.attach(tabId, targetId); },
    /** @param {string} sessionId a `target:<id>` session from attachTarget */
    detachTarget(sessionId) { return targets.detach(sessionId); },
  };
}

/**
 * A tab's session as the tools see it: kept attached, navigating or not, its top frame, detached.
 * @param {Map<number, Attached>} tabs @param {Map<number, string>} mainFrame @param {(tabId: number) => Promise<Attached>} ensure
 * @param {(tabId: number, s: Attached) => void} idle @param {(tabId: number) => void} forget
 */
function tabState(tabs, mainFrame, ensure, idle, forget) {
  return {
    /** Clear, then later read, whether the tab started a main-frame navigation. @param {number} tabId */
    resetNavigation(tabId) { const s = tabs.get(tabId); if (s) s.navigating = false; },
    /** @param {number} tabId */
    navigating(tabId) { return tabs.get(tabId)?.navigating ?? false; },
    /** Keep the tab's session attached until unpin (a request hold needs it). @param {number} tabId */
    async pin(tabId) { const s = await ensure(tabId); s.pins++; idle(tabId, s); },
    /** @param {number} tabId */
    unpin(tabId) { const s = tabs.get(tabId); if (s) { s.pins = Math.max(0, s.pins - 1); idle(tabId, s); } },
    /** The top frame's CDP id, when known. @param {number} tabId */
    mainFrameId(tabId) { return mainFrame.get(tabId) ?? null; },
    /** @param {number} tabId */
    async detach(tabId) { if (tabs.has(tabId)) { forget(tabId); await chrome.debugger.detach({ tabId }).catch(() => {}); } },
  };
}

/** @param {Set<CdpListener>} listeners @param {Set<(tabId: number) => void>} detachListeners */
function listening(listeners, detachListeners) {
  return {
    /** @param {CdpListener} l */
    onEvent(l) { listeners.add(l); return () => listeners.delete(l); },
    /** @param {(tabId: number) => void} l */
    onDetach(l) { detachListeners.add(l); return () => detachListeners.delete(l); },
  };
}
