// One chrome.debugger session per tab: attached on first use, detached after a quiet minute (so the
// "started debugging this browser" banner goes away), forgotten when Chrome detaches it (the user
// pressed Cancel on the banner, DevTools took over, the tab closed).

const IDLE_DETACH_MS = 60_000;
const VERSION = '1.3';
/** The session id prefix of a target attached by id (attachTarget). */
const TARGET = 'target:';

/** A coded failure the tools turn into a fallback or an error value. */
export class CdpError extends Error {
  /** @param {'DEBUGGER_UNAVAILABLE' | 'TAB_GONE' | 'CDP_FAILED'} code @param {string} message */
  constructor(code, message) { super(message); this.code = code; }
}

/** @typedef {{ attached: Promise<void>, timer?: ReturnType<typeof setTimeout>, navigating: boolean, pins: number }} Attached */
/** @typedef {(tabId: number, method: string, params: any, sessionId?: string) => void} CdpListener sessionId: a child target's flat session (an out-of-process frame, a worker), absent for the tab's page */

export function createCdpSessions() {
  /** @type {Map<number, Attached>} */
  const tabs = new Map();

  /** Other modules' event listeners (the request hold). @type {Set<CdpListener>} */
  const listeners = new Set();
  /** Called when a tab's session goes away (detached, closed). @type {Set<(tabId: number) => void>} */
  const detachListeners = new Set();

  /**
   * Targets attached by id on behalf of a tab (a shared worker, which the tab's session cannot
   * auto-attach): their events reach the listeners as the tab's, under the session id
   * `target:<id>`, and their detach as Target.detachedFromTarget. @type {Map<string, number>}
   */
  const byTarget = new Map();

  chrome.debugger.onDetach.addListener((source) => {
    if (source.tabId !== undefined) forget(source.tabId);
    else if (source.targetId && byTarget.has(source.targetId)) targetGone(source.targetId);
  });
  chrome.debugger.onEvent.addListener((source, method, params) => {
    if (source.tabId === undefined && source.targetId) {
      const owner = byTarget.get(source.targetId);
      if (owner === undefined) return;
      for (const l of listeners) { try { l(owner, method, params, `${TARGET}${source.targetId}`); } catch { /* a listener's own failure */ } }
      return;
    }
    const s = source.tabId !== undefined ? tabs.get(source.tabId) : undefined;
    if (!s) return;
    const p = /** @type {any} */ (params);
    const sessionId = /** @type {{ sessionId?: string }} */ (source).sessionId;
    for (const l of listeners) { try { l(/** @type {number} */ (source.tabId), method, p, sessionId); } catch { /* a listener's own failure */ } }
    // Dialogs and navigations below are the page's; a child target's events stop here.
    if (sessionId) return;
    // A native dialog the page-world hooks did not catch. "Leave site?" (beforeunload) appears because
    // trusted clicks give the page user activation; the agent chose to leave, so leave. Others: OK for an
    // alert, Cancel for the rest (the safe answer), so the tab never hangs.
    if (method === 'Page.javascriptDialogOpening') {
      const accept = p?.type === 'beforeunload' || p?.type === 'alert';
      chrome.debugger.sendCommand({ tabId: source.tabId }, 'Page.handleJavaScriptDialog', { accept }).catch(() => {});
      return;
    }
    // A main-frame navigation: typing must stop so no keystroke lands in the next page.
    if (/^Page\.frame(RequestedNavigation|StartedLoading|StartedNavigating|Navigated)$/.test(method)) {
      const frameId = p?.frameId ?? p?.frame?.id;
      if (frameId && frameId === mainFrame.get(/** @type {number} */ (source.tabId))) s.navigating = true;
    }
  });
  /** @type {Map<number, string>} */
  const mainFrame = new Map();

  /** A target attached by id went away (it ended, or Chrome detached it). @param {string} targetId */
  function targetGone(targetId) {
    const owner = byTarget.get(targetId);
    byTarget.delete(targetId);
    if (owner === undefined) return;
    for (const l of listeners) { try { l(owner, 'Target.detachedFromTarget', { sessionId: `${TARGET}${targetId}` }, undefined); } catch { /* ignore */ } }
  }

  /** @param {number} tabId */
  function forget(tabId) {
    for (const [id, owner] of byTarget) if (owner === tabId) { byTarget.delete(id); chrome.debugger.detach({ targetId: id }).catch(() => {}); }
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
      const attached = (async () => {
        try {
          await chrome.debugger.attach({ tabId }, VERSION);
        } catch (err) {
          forget(tabId);
          const why = err instanceof Error ? err.message : String(err);
          if (/no tab with/i.test(why)) throw new CdpError('TAB_GONE', 'The tab was closed.');
          // "Another debugger is already attached" (DevTools open, another extension), or policy forbids it.
          throw new CdpError('DEBUGGER_UNAVAILABLE', why);
        }
        // A hold left by an earlier service worker must not freeze the tab's requests.
        await chrome.debugger.sendCommand({ tabId }, 'Fetch.disable').catch(() => {});
        await chrome.debugger.sendCommand({ tabId }, 'Page.enable').catch(() => {});
        // A tab Tabwright acts in stays in the background: it must behave as focused (focus and blur
        // handlers, :focus, document.hasFocus) and never be frozen, without being brought to the front.
        await chrome.debugger.sendCommand({ tabId }, 'Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => {});
        await chrome.debugger.sendCommand({ tabId }, 'Page.setWebLifecycleState', { state: 'active' }).catch(() => {});
        const tree = /** @type {any} */ (await chrome.debugger.sendCommand({ tabId }, 'Page.getFrameTree').catch(() => null));
        if (tree?.frameTree?.frame?.id) mainFrame.set(tabId, tree.frameTree.frame.id);
      })();
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

  /**
   * @param {number} tabId @param {string} method @param {Record<string, unknown>} [params]
   * @returns {Promise<any>}
   */
  async function send(tabId, method, params) {
    await ensure(tabId);
    try {
      return await chrome.debugger.sendCommand({ tabId }, method, params);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      if (/not attached|detached/i.test(why)) { forget(tabId); throw new CdpError('DEBUGGER_UNAVAILABLE', why); }
      if (/no tab with/i.test(why)) { forget(tabId); throw new CdpError('TAB_GONE', 'The tab was closed.'); }
      throw new CdpError('CDP_FAILED', `${method}: ${why}`);
    }
  }

  return {
    send,
    /**
     * A command to a child target's flat session (Target.setAutoAttach with flatten), or to the page
     * when sessionId is absent. A child that went away answers CDP_FAILED.
     * @param {number} tabId @param {string | undefined} sessionId @param {string} method @param {Record<string, unknown>} [params]
     * @returns {Promise<any>}
     */
    async sendTo(tabId, sessionId, method, params) {
      if (!sessionId) return send(tabId, method, params);
      await ensure(tabId);
      const targetId = sessionId.startsWith(TARGET) ? sessionId.slice(TARGET.length) : null;
      try {
        if (targetId) return await chrome.debugger.sendCommand({ targetId }, method, params);
        return await chrome.debugger.sendCommand(/** @type {chrome.debugger.DebuggerSession} */ ({ tabId, sessionId }), method, params);
      } catch (err) {
        throw new CdpError('CDP_FAILED', `${method}: ${err instanceof Error ? err.message : String(err)}`);
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
    async attachTarget(tabId, targetId) {
      await ensure(tabId);
      if (byTarget.has(targetId)) return `${TARGET}${targetId}`;
      try { await chrome.debugger.attach({ targetId }, VERSION); } catch { return null; }
      byTarget.set(targetId, tabId);
      return `${TARGET}${targetId}`;
    },
    /** @param {string} sessionId a `target:<id>` session from attachTarget */
    async detachTarget(sessionId) {
      if (!sessionId.startsWith(TARGET)) return;
      const targetId = sessionId.slice(TARGET.length);
      if (!byTarget.has(targetId)) return;
      // Told as a detach, so what was kept for the session (a worker's hook) is forgotten: attached
      // again later, the target gets the same session id and must be set up anew.
      targetGone(targetId);
      await chrome.debugger.detach({ targetId }).catch(() => {});
    },
    /** Clear, then later read, whether the tab started a main-frame navigation. @param {number} tabId */
    resetNavigation(tabId) { const s = tabs.get(tabId); if (s) s.navigating = false; },
    /** @param {number} tabId */
    navigating(tabId) { return tabs.get(tabId)?.navigating ?? false; },
    /** Keep the tab's session attached until unpin (a request hold needs it). @param {number} tabId */
    async pin(tabId) { const s = await ensure(tabId); s.pins++; idle(tabId, s); },
    /** @param {number} tabId */
    unpin(tabId) { const s = tabs.get(tabId); if (s) { s.pins = Math.max(0, s.pins - 1); idle(tabId, s); } },
    /** @param {CdpListener} l */
    onEvent(l) { listeners.add(l); return () => listeners.delete(l); },
    /** @param {(tabId: number) => void} l */
    onDetach(l) { detachListeners.add(l); return () => detachListeners.delete(l); },
    /** The top frame's CDP id, when known. @param {number} tabId */
    mainFrameId(tabId) { return mainFrame.get(tabId) ?? null; },
    /** @param {number} tabId */
    async detach(tabId) { if (tabs.has(tabId)) { forget(tabId); await chrome.debugger.detach({ tabId }).catch(() => {}); } },
  };
}
