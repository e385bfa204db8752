// A BrowserOps double: records what the tools asked of the browser and answers from a script.
/** @import { BrowserOps, ContentRequest, ToolResult } from '../../src/chrome/types/core' */
/** @import { HeldRequest, HoldHandlers } from '../../src/chrome/types/safety' */

/**
 * @typedef {object} HoldLog
 * @property {Record<string, HeldRequest[] | (() => HeldRequest[])>} causes requests the page makes when a content request of this type arrives (content.click, content.keys, …); a function gives each call its own
 * @property {(req: HeldRequest) => import('../../src/chrome/types/safety').WriteOutcome | null} [answers] how the server answers a write that left (default 200; null: no answer yet)
 * @property {{ req: HeldRequest, wanted: boolean, allowed: boolean }[]} held what went through the hold, and what left
 * @property {HoldHandlers | null} handlers the armed hold, if any
 * @property {boolean} noHold the platform cannot hold (Chrome's debugger taken)
 */

/** @param {(msg: ContentRequest) => ToolResult} [answer] */
export function fakeBrowser(answer) {
  /** @type {ContentRequest[]} */
  const sent = [];
  /** @type {BrowserOps & HoldLog & { sent: ContentRequest[], url: string }} */
  const ops = {
    sent,
    url: 'https://example.test/',
    causes: {},
    held: [],
    handlers: null,
    noHold: false,
    async sendToContent(_tabId, msg) {
      sent.push(msg);
      /** @type {ToolResult} */
      const reply = answer ? answer(msg) : msg.type === 'content.snapshot'
        ? { ok: true, data: { text: '- button "Go" [e1]', url: ops.url, title: 'Test', refs: 1, truncated: false } }
        : { ok: true, data: { done: msg.type } };
      // The page reacts to the action: its requests pass through the hold, as the browser's would.
      const caused = ops.causes[msg.type];
      for (const req of (typeof caused === 'function' ? caused() : caused) ?? []) {
        const h = ops.handlers;
        const wanted = Boolean(h?.wants(req));
        const allowed = wanted && h ? await h.decide(req) : true;
        ops.held.push({ req, wanted, allowed });
        // The server answers a write that left.
        const answer = ops.answers ? ops.answers(req) : { status: 200 };
        if (wanted && allowed && h && req.method !== 'GET' && answer) h.settled?.(req, answer);
      }
      return reply;
    },
    async holdEffects(_tabId, handlers) {
      if (ops.noHold) return null;
      ops.handlers = handlers;
      return { async release() { ops.handlers = null; } };
    },
    async navigate(_tabId, url) { ops.url = url; return { ok: true, data: { url, title: 'Navigated' } }; },
    async getTab() { return { url: ops.url, title: 'Test' }; },
    async settle() {},
    // Actions: no trusted input, so the tools take the synthetic path through sendToContent.
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
    devtools: {
      async evaluate() { return { reply: JSON.stringify({ ok: true, type: 'undefined', value: '[undefined]' }) }; },
      network: { async watch() {}, async unwatch() {}, watching: () => false, list: () => [], async body() { return null; } },
      async addCss() { return 'css1'; },
      async removeCss() { return 0; },
      listCss: () => [],
    },
    recorder: null,
  };
  return ops;
}
