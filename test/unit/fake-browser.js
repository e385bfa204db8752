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
    async listFrames() { return []; },
    async injectScripts() { return { ok: true, data: null }; },
  };
  return ops;
}
