// Firefox's platform layer: what only Firefox does, or does its own way.
/** @import { Platform } from '../types/platform' */
import { readPdf } from './pdf.js';
import { holdRequests } from './net-hold.js';
import { downloadBytes } from './download-bytes.js';
import { evaluate } from './evaluate.js';
import { createNetworkLog } from './network-log.js';
import { watchWorkerSockets } from './worker-sockets.js';

/** The listener removing the Origin header for local endpoints, so it can be replaced. @type {((details: browser.webRequest._OnBeforeSendHeadersDetails) => browser.webRequest.BlockingResponse) | null} */
let stripOrigin = null;

/** @returns {Platform} */
export function createPlatform() {
  // From the start: a run held later must know the worker sockets already open.
  watchWorkerSockets();
  return {
    name: 'firefox',
    async injectContent(tabId, frameId = 0) {
      // Every content_scripts entry, in manifest order, in the frames it declares. tabs.executeScript
      // (MV2) cannot reach the page's own world: "world": "MAIN" entries (page hooks, listener
      // tracker) start working in such a tab when it next loads. One frame at a time, as in Chrome.
      for (const entry of browser.runtime.getManifest().content_scripts ?? []) {
        if (/** @type {any} */ (entry).world === 'MAIN' || (frameId && !entry.all_frames)) continue;
        for (const file of entry.js ?? []) {
          await browser.tabs.executeScript(tabId, { file: `/${file}`, runAt: 'document_idle', frameId });
        }
      }
    },
    async injectFiles(tabId, files, frameId = 0) {
      for (const file of files) await browser.tabs.executeScript(tabId, { file: `/${file}`, frameId });
    },
    setupPanel() {
      browser.browserAction.onClicked.addListener(() => { browser.sidebarAction.toggle(); });
    },
    async setLocalEndpoints(origins) {
      if (stripOrigin) browser.webRequest.onBeforeSendHeaders.removeListener(stripOrigin);
      stripOrigin = null;
      if (!origins.length) return;
      const allowed = new Set(origins);
      const own = browser.runtime.getURL('').replace(/\/$/, '');
      /** @param {browser.webRequest._OnBeforeSendHeadersDetails} details */
      stripOrigin = (details) => {
        // Only the background's own requests (no tab), as Chrome's rule does.
        if (details.tabId !== -1 || !allowed.has(new URL(details.url).origin)) return {};
        // Only our own moz-extension:// Origin is dropped; a page's requests keep theirs.
        const requestHeaders = (details.requestHeaders ?? []).filter((h) => !(h.name.toLowerCase() === 'origin' && h.value === own));
        return { requestHeaders };
      };
      // Match patterns carry no port, so the listener checks the full origin itself.
      const urls = [...new Set(origins.map((o) => { const u = new URL(o); return `${u.protocol}//${u.hostname.includes(':') ? `[${u.hostname}]` : u.hostname}/*`; }))];
      browser.webRequest.onBeforeSendHeaders.addListener(stripOrigin, { urls }, ['blocking', 'requestHeaders']);
    },
    languageModel() {
      return null; // Firefox has no Prompt API
    },
    async groupTabs(tabIds, title, groupId) {
      // Tab groups reached Firefox's extension API late (tabs.group, tabGroups): older builds get a
      // labelled set in the runs overview instead.
      const api = /** @type {any} */ (browser);
      if (typeof api.tabs.group !== 'function') return null;
      const id = await api.tabs.group(groupId !== undefined ? { tabIds, groupId } : { tabIds }).catch(() => (groupId !== undefined ? api.tabs.group({ tabIds }) : Promise.reject(new Error('no group'))));
      await api.tabGroups?.update(id, { title, collapsed: false });
      return /** @type {number} */ (id);
    },
    readPdf,
    holdRequests,
    downloadBytes,
    evaluate,
    network: createNetworkLog(),
    async insertCss(tabId, css) { await browser.tabs.insertCSS(tabId, { code: css, cssOrigin: 'author' }); },
    async removeCss(tabId, css) { await browser.tabs.removeCSS(tabId, { code: css, cssOrigin: 'author' }); },
    // No recorder: Firefox gives extensions no tab capture (record_tab says so, docs/TOOLS.md).
    // Firefox has no chrome.debugger for extensions: no trusted input; the tools use synthetic events.
    async screenshot(tabId, opts) {
      const v = opts.viewport;
      // tabs.captureTab takes a rect in document CSS pixels, so full pages and elements need no scrolling.
      const rect = opts.clip ?? { x: v.scrollX, y: v.scrollY, width: v.width, height: v.height };
      const dataUrl = await browser.tabs.captureTab(tabId, { format: 'png', rect, scale: 1 });
      return { dataUrl, width: Math.round(rect.width), height: Math.round(rect.height) };
    },
  };
}
