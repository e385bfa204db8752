// Chrome's platform layer: what only Chrome does, or does its own way.
/** @import { Platform } from '../types/platform' */

/** Ids of the declarativeNetRequest session rules for local model endpoints. */
const LOCAL_RULE_BASE = 7000;

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
  };
}
