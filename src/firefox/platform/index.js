// Firefox's platform layer: what only Firefox does, or does its own way.
/** @import { Platform } from '../types/platform' */

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
  };
}
