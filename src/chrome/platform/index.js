// Chrome's platform layer: what only Chrome does, or does its own way.
/** @import { Platform } from '../types/platform' */
import { readPdf } from './pdf.js';
import { createCdpSessions } from '../cdp/session.js';
import { createTrustedInput } from '../cdp/input.js';
import { captureScreenshot } from '../cdp/screenshot.js';
import { createNetHold } from '../cdp/net-hold.js';
import { createEvaluate } from '../cdp/evaluate.js';
import { createNetworkLog } from '../cdp/network-log.js';
import { createRecorder } from './recorder.js';
import { setupPanelToggle } from './panel-toggle.js';

/** Ids of the declarativeNetRequest session rules for local model endpoints. */
const LOCAL_RULE_BASE = 7000;

/** @returns {Platform} */
export function createPlatform() {
  const cdp = createCdpSessions();
  const trusted = createTrustedInput(cdp);
  const netHold = createNetHold(cdp);
  return {
    name: 'chrome',
    async injectContent(tabId, frameId = 0) {
      // Every content_scripts entry, in manifest order and the world it declares, into this one
      // frame: allFrames would wait on frames no script can enter (javascript: URLs), for ever.
      for (const entry of chrome.runtime.getManifest().content_scripts ?? []) {
        const files = entry.js ?? [];
        if (!files.length || (frameId && !entry.all_frames)) continue;
        const world = /** @type {any} */ (entry).world === 'MAIN' ? 'MAIN' : 'ISOLATED';
        // A page may refuse the main world (CSP of about:blank frames): the isolated scripts still count.
        const run = chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files, world: /** @type {any} */ (world) });
        await (world === 'MAIN' ? run.catch(() => {}) : run);
      }
    },
    async injectFiles(tabId, files, frameId = 0) {
      await chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files });
    },
    setupPanel() {
      setupPanelToggle();
    },
    async setLocalEndpoints(origins) {
      // Session rules (cleared on browser restart; the router sets them again at start-up) that
      // drop the Origin header only on the extension's own requests (no tab) to these origins.
      const old = await chrome.declarativeNetRequest.getSessionRules();
      const removeRuleIds = old.filter((r) => r.id >= LOCAL_RULE_BASE && r.id < LOCAL_RULE_BASE + 1000).map((r) => r.id);
      /** @type {chrome.declarativeNetRequest.Rule[]} */
      const addRules = origins.map((origin, i) => ({
        id: LOCAL_RULE_BASE + i,
        priority: 1,
        action: {
          type: chrome.declarativeNetRequest.RuleActionType.MODIFY_HEADERS,
          requestHeaders: [{ header: 'origin', operation: chrome.declarativeNetRequest.HeaderOperation.REMOVE }],
        },
        condition: {
          urlFilter: `|${origin}/`,
          tabIds: [chrome.tabs.TAB_ID_NONE],
          resourceTypes: [chrome.declarativeNetRequest.ResourceType.XMLHTTPREQUEST, chrome.declarativeNetRequest.ResourceType.OTHER],
        },
      }));
      await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds, addRules });
    },
    languageModel() {
      // The Prompt API global, in extension service workers since Chrome 138.
      return /** @type {any} */ (globalThis).LanguageModel ?? null;
    },
    trusted,
    async groupTabs(tabIds, title, groupId) {
      // A group made in another window cannot take a tab (tabs.group refuses it): a new group then.
      const ids = /** @type {[number, ...number[]]} */ (tabIds);
      const id = await chrome.tabs.group(groupId !== undefined ? { tabIds: ids, groupId } : { tabIds: ids }).catch(() => (groupId !== undefined ? chrome.tabs.group({ tabIds: ids }) : Promise.reject(new Error('no group'))));
      await chrome.tabGroups.update(id, { title, collapsed: false });
      return id;
    },
    screenshot: (tabId, opts) => captureScreenshot(cdp, tabId, opts),
    setFilePaths: (tabId, selector, paths) => trusted.setFiles(tabId, selector, paths),
    readPdf,
    holdRequests: (tabId, handlers) => netHold.hold(tabId, handlers),
    downloadBytes: (url) => netHold.downloadBytes(url),
    evaluate: createEvaluate(cdp),
    network: createNetworkLog(cdp),
    async insertCss(tabId, css) { await chrome.scripting.insertCSS({ target: { tabId }, css }); },
    async removeCss(tabId, css) { await chrome.scripting.removeCSS({ target: { tabId }, css }); },
    recorder: createRecorder(),
  };
}
