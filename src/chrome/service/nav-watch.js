// Whether a tab's own document is still loading. The tab's status says "loading" while any of its
// frames loads, and a page with a frame that never finishes (an ad server that never answers) stays
// "loading" for good: waiting on the status cost every step of such a page up to 15 s. The main
// frame's navigation events say what matters: a navigation started and its document not yet
// usable. A document is usable at its load event, or a short grace after DOMContentLoaded (what
// still loads then is subresources and frames, which the outline reads as they come).

/** After DOMContentLoaded, how long to wait for the load event before treating the page as ready. */
const GRACE_AFTER_DOM_MS = 1_000;
/** Never wait longer than this for one navigation. */
const MAX_WAIT_MS = 15_000;

/**
 * @typedef {object} FrameLoad
 * @property {number} started when the navigation began (Date.now())
 * @property {number | null} dom when its DOMContentLoaded fired
 * @property {boolean} done load event, error or abort
 * @property {boolean} [failed] the navigation ended in an error (refused, unreachable, blocked)
 */

export function createNavWatch() {
  /** Per tab, per frame. @type {Map<number, Map<number, FrameLoad>>} */
  const loads = new Map();
  const nav = browser.webNavigation;
  /** @param {{ tabId: number, frameId: number }} d */
  const of = (d) => loads.get(d.tabId)?.get(d.frameId);
  nav.onBeforeNavigate.addListener((d) => {
    let tab = loads.get(d.tabId);
    // A new document in the main frame replaces every frame of the old one.
    if (!tab || d.frameId === 0) loads.set(d.tabId, tab = new Map());
    tab.set(d.frameId, { started: Date.now(), dom: null, done: false });
  });
  nav.onDOMContentLoaded.addListener((d) => { const l = of(d); if (l) l.dom = Date.now(); });
  nav.onCompleted.addListener((d) => { const l = of(d); if (l) l.done = true; });
  nav.onErrorOccurred.addListener((d) => { const l = of(d); if (l) { l.done = true; l.failed = true; } });
  browser.tabs.onRemoved.addListener((tabId) => { loads.delete(tabId); });

  /**
   * Whether a frame's document is still on its way: true, false, or null when no navigation of it
   * was seen (it loaded before the worker started): then only the tab's status can tell.
   * @param {number} tabId @param {number} [frameId]
   */
  function frameLoading(tabId, frameId = 0) {
    const l = loads.get(tabId)?.get(frameId);
    if (!l) return null;
    const now = Date.now();
    if (l.done || now - l.started > MAX_WAIT_MS) return false;
    return l.dom === null || now - l.dom < GRACE_AFTER_DOM_MS;
  }

  /**
   * Whether a frame has no parsed document yet (its navigation started, DOMContentLoaded has not
   * come): no content script can answer there yet. false when unknown.
   * @param {number} tabId @param {number} frameId
   */
  function noDocumentYet(tabId, frameId) {
    const l = loads.get(tabId)?.get(frameId);
    return !!l && !l.done && l.dom === null;
  }

  /**
   * Until the tab's document is usable (at most 15 s, or until the signal aborts).
   * @param {number} tabId @param {AbortSignal} [signal]
   */
  async function untilLoaded(tabId, signal) {
    const deadline = Date.now() + MAX_WAIT_MS;
    for (;;) {
      if (signal?.aborted || Date.now() > deadline) return;
      const known = frameLoading(tabId);
      if (known === false) return;
      if (known === null) {
        let tab;
        try { tab = await browser.tabs.get(tabId); } catch { return; }
        if (tab.status !== 'loading') return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * Which document a frame holds, as far as its navigations tell: changes when it navigates
   * (0 when none was seen).
   * @param {number} tabId @param {number} frameId
   */
  function generation(tabId, frameId) {
    return loads.get(tabId)?.get(frameId)?.started ?? 0;
  }

  /** Whether the frame's last navigation ended in an error. @param {number} tabId @param {number} frameId */
  function failed(tabId, frameId) {
    return !!loads.get(tabId)?.get(frameId)?.failed;
  }

  return { untilLoaded, frameLoading, noDocumentYet, failed, generation };
}
