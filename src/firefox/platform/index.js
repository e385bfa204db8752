// Firefox's platform layer: what only Firefox does, or does its own way.
/** @import { Platform } from '../types/platform' */
import { readPdf } from './pdf.js';

/** @returns {Platform} */
export function createPlatform() {
  return {
    name: 'firefox',
    async injectContent(tabId) {
      const files = browser.runtime.getManifest().content_scripts?.[0]?.js ?? [];
      for (const file of files) await browser.tabs.executeScript(tabId, { file: `/${file}`, runAt: 'document_idle' });
    },
    setupPanel() {
      browser.browserAction.onClicked.addListener(() => { browser.sidebarAction.toggle(); });
    },
    readPdf,
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
