// Chrome's platform layer: what only Chrome does, or does its own way.
/** @import { Platform } from '../types/platform' */

/** @returns {Platform} */
export function createPlatform() {
  return {
    name: 'chrome',
    async injectContent(tabId) {
      // Every content_scripts entry, in manifest order, in the frames and world it declares.
      for (const entry of chrome.runtime.getManifest().content_scripts ?? []) {
        const files = entry.js ?? [];
        if (!files.length) continue;
        const world = /** @type {any} */ (entry).world === 'MAIN' ? 'MAIN' : 'ISOLATED';
        await chrome.scripting.executeScript({ target: { tabId, allFrames: !!entry.all_frames }, files, world: /** @type {any} */ (world) });
      }
    },
    async injectFiles(tabId, files, frameId = 0) {
      await chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files });
    },
    setupPanel() {
      chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => {});
    },
  };
}
