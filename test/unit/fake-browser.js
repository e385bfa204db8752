// A BrowserOps double: records what the tools asked of the browser and answers from a script.
/** @import { BrowserOps, ContentRequest, ToolResult } from '../../src/chrome/types/core' */

/** @param {(msg: ContentRequest) => ToolResult} [answer] */
export function fakeBrowser(answer) {
  /** @type {ContentRequest[]} */
  const sent = [];
  /** @type {BrowserOps & { sent: ContentRequest[], url: string }} */
  const ops = {
    sent,
    url: 'https://example.test/',
    async sendToContent(_tabId, msg) {
      sent.push(msg);
      if (answer) return answer(msg);
      if (msg.type === 'content.snapshot') return { ok: true, data: { text: '- button "Go" [ref=e1]', url: ops.url, title: 'Test', refs: 1, truncated: false } };
      return { ok: true, data: { done: msg.type } };
    },
    async navigate(_tabId, url) { ops.url = url; return { ok: true, data: { url, title: 'Navigated' } }; },
    async getTab() { return { url: ops.url, title: 'Test' }; },
    async settle() {},
    // Issue #4 (actions): no trusted input, so the tools take the synthetic path through sendToContent.
    trusted: null,
    async screenshot() { return { dataUrl: 'data:image/png;base64,AAAA', width: 1, height: 1 }; },
    setFilePaths: null,
    async history(_tabId, which) { return { ok: true, data: { url: ops.url, title: which } }; },
    async listTabs() { return [{ tabId: 1, url: ops.url, title: 'Test', active: true }]; },
    async openTab(url) { return { tabId: 2, url, title: 'New', active: true }; },
    async activateTab(tabId) { return { tabId, url: ops.url, title: 'Test', active: true }; },
    async closeTab() {},
    watchNewTabs() { return { async stop() { return []; } }; },
    async fetchUrl(url, opts) { return { ok: true, data: { url, status: 200, contentType: 'text/plain', text: `${opts.method ?? 'GET'} ok`, truncated: false } }; },
    async listDownloads() { return []; },
    async readPdf() { return { pages: 1, from: 1, to: 1, text: '--- page 1 ---\nHello', truncated: false }; },
    async listFrames() { return []; },
    async injectScripts() { return { ok: true, data: null }; },
  };
  return ops;
}
