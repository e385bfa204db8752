// The BrowserOps the tools use, built on the WebExtension tabs API (the same in both browsers
// through webextension-polyfill); what differs (script injection) comes from the platform.
/** @import { BrowserOps, ContentRequest, ToolResult } from '../types/core' */
/** @import { Platform } from '../types/platform' */
import { parseRef } from '../agent/refs.js';

const NAV_TIMEOUT_MS = 30_000;

/** @param {Platform} platform @returns {BrowserOps} */
export function createBrowserOps(platform) {
  return {
    async sendToContent(tabId, message) {
      try {
        return await send(tabId, message);
      } catch (err) {
        const why = errText(err);
        if (await tabGone(tabId)) return { ok: false, code: 'TAB_GONE', message: 'The tab was closed. Open the page again and retry.' };
        if (/receiving end does not exist|could not establish connection/i.test(why)) {
          // The page loaded before the extension, or is still loading: inject, then try once more.
          try { await settleTab(tabId); await platform.injectContent(tabId); } catch (e) {
            return { ok: false, code: 'PAGE_NOT_SCRIPTABLE', message: `Tabwright cannot work on this page (${errText(e)}). Browser pages and the extension stores are off limits; open a web page.` };
          }
          try { return await send(tabId, message); } catch (e) { return channelError(e, message); }
        }
        return channelError(err, message);
      }
    },

    async navigate(tabId, url, signal) {
      try {
        const loaded = waitForLoad(tabId, signal);
        await browser.tabs.update(tabId, { url });
        await loaded;
        const tab = await browser.tabs.get(tabId);
        return { ok: true, data: { url: tab.url ?? url, title: tab.title ?? '' } };
      } catch (err) {
        if (await tabGone(tabId)) return { ok: false, code: 'TAB_GONE', message: 'The tab was closed during navigation.' };
        const timeout = /timeout/i.test(errText(err));
        return { ok: false, code: timeout ? 'NAVIGATION_TIMEOUT' : 'NAVIGATION_FAILED', message: timeout ? `${url} did not finish loading within ${NAV_TIMEOUT_MS / 1000} s. Take a snapshot to see what loaded.` : `Could not open ${url}: ${errText(err)}`, retryable: true };
      }
    },

    async getTab(tabId) {
      try {
        const t = await browser.tabs.get(tabId);
        return { url: t.url ?? '', title: t.title ?? '', status: t.status };
      } catch { return null; }
    },

    settle: settleTab,

    async injectScripts(tabId, files, frameId = 0) {
      try { await platform.injectFiles(tabId, files, frameId); return { ok: true, data: null }; } catch (e) {
        return { ok: false, code: 'PAGE_NOT_SCRIPTABLE', message: `Tabwright cannot run its reader on this page (${errText(e)}).` };
      }
    },

    async listFrames(tabId) {
      try {
        const frames = await browser.webNavigation.getAllFrames({ tabId });
        return (frames ?? []).map((f) => ({ frameId: f.frameId, parentFrameId: f.parentFrameId, url: f.url }));
      } catch { return []; }
    },
  };
}

/**
 * The frame a request goes to: the one its ref names ("f7:e3" → frame 7), else its frameId, else the top frame.
 * @param {ContentRequest} message
 */
export function frameOf(message) {
  if ('ref' in message && typeof message.ref === 'string') {
    const parsed = parseRef(message.ref);
    if (parsed) return parsed.frameId;
  }
  return 'frameId' in message && typeof message.frameId === 'number' ? message.frameId : 0;
}

/** @param {number} tabId @param {ContentRequest} message @returns {Promise<ToolResult>} */
async function send(tabId, message) {
  const reply = await browser.tabs.sendMessage(tabId, message, { frameId: frameOf(message) });
  if (!reply || typeof reply !== 'object' || !('ok' in reply)) {
    return { ok: false, code: 'NO_CONTENT_REPLY', message: 'The page did not answer. It may still be loading; take a snapshot again.', retryable: true };
  }
  return /** @type {ToolResult} */ (reply);
}

/**
 * The message channel closed before the reply: the page navigated or was unloaded mid-action.
 * @param {unknown} err @param {ContentRequest} message @returns {ToolResult}
 */
function channelError(err, message) {
  const why = errText(err);
  if (/message channel closed|message manager disconnected|back\/forward cache|page unloaded|receiving end/i.test(why)) {
    if (message.type === 'content.click' || message.type === 'content.type') {
      return { ok: true, data: { note: 'The page navigated during the action. Take a snapshot to see the new page.' } };
    }
    return { ok: false, code: 'PAGE_CHANGED', message: 'The page navigated while it was being read. Take a snapshot again.', retryable: true };
  }
  return { ok: false, code: 'CONTENT_ERROR', message: `The page script failed: ${why}` };
}

/** @param {number} tabId */
async function tabGone(tabId) {
  try { await browser.tabs.get(tabId); return false; } catch { return true; }
}

/** @param {unknown} err */
function errText(err) {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Waits briefly for a navigation an action may have started, then for it to finish.
 * @param {number} tabId @param {AbortSignal} [signal]
 */
async function settleTab(tabId, signal) {
  await sleep(120);
  let tab;
  try { tab = await browser.tabs.get(tabId); } catch { return; }
  if (tab.status === 'loading') {
    try { await waitForLoad(tabId, signal, 15_000); } catch { /* reported by the next read */ }
  }
}

/**
 * Resolves when the tab reports status "complete".
 * @param {number} tabId @param {AbortSignal} [signal] @param {number} [timeoutMs]
 * @returns {Promise<void>}
 */
function waitForLoad(tabId, signal, timeoutMs = NAV_TIMEOUT_MS) {
  return new Promise((resolve, reject) => {
    let sawLoading = false;
    const timer = setTimeout(() => finish(new Error('timeout')), timeoutMs);
    /** @param {number} id @param {{status?: string}} change */
    const onUpdated = (id, change) => {
      if (id !== tabId) return;
      if (change.status === 'loading') sawLoading = true;
      if (change.status === 'complete' && sawLoading) finish();
    };
    const onRemoved = (/** @type {number} */ id) => { if (id === tabId) finish(new Error('tab closed')); };
    const onAbort = () => finish(new Error('aborted'));
    /** @param {Error} [err] */
    function finish(err) {
      clearTimeout(timer);
      browser.tabs.onUpdated.removeListener(onUpdated);
      browser.tabs.onRemoved.removeListener(onRemoved);
      signal?.removeEventListener('abort', onAbort);
      if (err) reject(err); else resolve();
    }
    browser.tabs.onUpdated.addListener(onUpdated);
    browser.tabs.onRemoved.addListener(onRemoved);
    signal?.addEventListener('abort', onAbort);
    // Already loading when we started listening: a later "complete" is enough.
    browser.tabs.get(tabId).then((t) => { if (t.status === 'loading') sawLoading = true; }, () => {});
  });
}

/** @param {number} ms */
function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }
