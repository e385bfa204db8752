// Firefox's platform layer: what only Firefox does, or does its own way.
/** @import { Platform } from '../types/platform' */

/** @returns {Platform} */
export function createPlatform() {
  return {
    name: 'firefox',
    async injectContent(tabId) {
      // Every content_scripts entry, in manifest order, in the frames it declares.
      for (const entry of browser.runtime.getManifest().content_scripts ?? []) {
        for (const file of entry.js ?? []) {
          await browser.tabs.executeScript(tabId, { file: `/${file}`, runAt: 'document_idle', allFrames: !!entry.all_frames });
        }
      }
    },
    async injectFiles(tabId, files, frameId = 0) {
      for (const file of files) await browser.tabs.executeScript(tabId, { file: `/${file}`, frameId });
    },
    setupPanel() {
      browser.browserAction.onClicked.addListener(() => { browser.sidebarAction.toggle(); });
    },
  };
}
