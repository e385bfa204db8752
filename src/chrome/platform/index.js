// Chrome's platform layer: what only Chrome does, or does its own way.
/** @import { Platform } from '../types/platform' */

/** @returns {Platform} */
export function createPlatform() {
  return {
    name: 'chrome',
    async injectContent(tabId) {
      const files = chrome.runtime.getManifest().content_scripts?.[0]?.js ?? [];
      await chrome.scripting.executeScript({ target: { tabId }, files });
    },
    setupPanel() {
      chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => {});
    },
  };
}
