// Chrome's platform layer: what only Chrome does, or does its own way.
/** @import { Platform } from '../types/platform' */
import { readPdf } from './pdf.js';
import { createCdpSessions } from '../cdp/session.js';
import { createTrustedInput } from '../cdp/input.js';
import { captureScreenshot } from '../cdp/screenshot.js';

/** @returns {Platform} */
export function createPlatform() {
  const cdp = createCdpSessions();
  const trusted = createTrustedInput(cdp);
  return {
    name: 'chrome',
    async injectContent(tabId) {
      const scripts = chrome.runtime.getManifest().content_scripts ?? [];
      await chrome.scripting.executeScript({ target: { tabId }, files: scripts[0]?.js ?? [] });
      // The page-world hooks (dialogs, console) too, so a dialog never blocks a tab that predates the extension.
      const main = scripts.find((s) => /** @type {any} */ (s).world === 'MAIN');
      if (main?.js) await chrome.scripting.executeScript({ target: { tabId }, files: main.js, world: 'MAIN' }).catch(() => {});
    },
    setupPanel() {
      chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => {});
    },
    trusted,
    screenshot: (tabId, opts) => captureScreenshot(cdp, tabId, opts),
    setFilePaths: (tabId, selector, paths) => trusted.setFiles(tabId, selector, paths),
    readPdf,
  };
}
