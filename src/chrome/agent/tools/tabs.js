// History and tab tools: go_back, go_forward, reload, tabs (list, open, switch, close), wait_for.
/** @import { Tool, ToolContext } from '../../types/core' */
import { queued } from './act.js';
import { fail } from '../error-codes.js';

/**
 * @param {'go_back' | 'go_forward' | 'reload'} name @param {'back' | 'forward' | 'reload'} which @param {string} description
 * @param {Tool['says']} says its card's sentence
 * @param {Tool['compact']} [compact] its place in the compact tier (agent/tool-tiers.js)
 * @returns {Tool}
 */
function historyTool(name, which, description, says, compact) {
  return {
    name,
    description,
    ...(compact ? { compact } : {}),
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    effects: ['reads_page', 'navigates'],
    replay: 'page',
    says,
    async run(_args, ctx) {
      return queued(ctx.tabId, () => ctx.browser.history(ctx.tabId, which, ctx.signal));
    },
  };
}
export const goBack = historyTool('go_back', 'back', 'Go back one page in this tab\'s history and wait for it to load.', (t) => t('toolSays_go_back'), { description: 'Go back one page.' });
export const goForward = historyTool('go_forward', 'forward', 'Go forward one page in this tab\'s history.', (t) => t('toolSays_go_forward'));
export const reload = historyTool('reload', 'reload', 'Reload the current page and wait for it to load.', (t) => t('toolSays_reload'));

/** @type {Tool} */
export const tabs = {
  name: 'tabs',
  description: 'Browser tabs of this window. action "list"; "open" (url; the run then acts on the new tab); "switch" (tab_id: later actions act on that tab); "close" (tab_id; not the tab the run is acting on).',
  parameters: {
    type: 'object',
    properties: {
      action: { type: 'string', enum: ['list', 'open', 'switch', 'close'] },
      url: { type: 'string', description: 'For open: an absolute http(s) URL.' },
      tab_id: { type: 'integer', description: 'For switch and close: the tab id from list.' },
    },
    required: ['action'],
    additionalProperties: false,
  },
  effects: ['reads_page', 'navigates', 'acts_on_page'],
  says: (t) => t('toolSays_tabs'),
  // Switching makes the run act on another tab: that tab's site must be one of the task's, or the user is asked.
  effectsFor: (args) => args.action === 'list' ? ['reads_page'] : args.action === 'open' || args.action === 'switch' ? ['reads_page', 'navigates'] : ['reads_page', 'acts_on_page'],
  async destination(args, ctx) {
    if (args.action === 'open') return typeof args.url === 'string' ? args.url : null;
    if (args.action !== 'switch') return null;
    const t = (await ctx.browser.listTabs(ctx.tabId)).find((x) => x.tabId === Number(args.tab_id));
    return t?.url ?? null;
  },
  async run(args, ctx) {
    const b = ctx.browser;
    switch (args.action) {
      case 'list': {
        const list = await b.listTabs(ctx.tabId);
        return { ok: true, data: list.map((t) => ({ ...t, current: t.tabId === ctx.tabId })) };
      }
      case 'open': {
        let url;
        try { url = new URL(String(args.url)); } catch { return fail('INVALID_URL', 'open needs url: an absolute http(s) address'); }
        if (!/^https?:$/.test(url.protocol)) return fail('INVALID_URL', `not ${url.protocol}`);
        // Opened in the background: a run never takes the person's tab or window from them.
        const t = await b.openTab(url.href, { active: false, openerTabId: ctx.tabId, signal: ctx.signal });
        switchTo(ctx, t.tabId);
        return { ok: true, data: { opened: t, note: 'Later actions in this run act on the new tab.' } };
      }
      case 'switch': {
        const id = Number(args.tab_id);
        const list = await b.listTabs(ctx.tabId);
        if (!list.some((t) => t.tabId === id)) return fail('NO_SUCH_TAB', `tab ${args.tab_id}; call tabs with action "list"`);
        // The run moves to that tab without bringing it to the front: the person's view stays theirs.
        const t = list.find((x) => x.tabId === id);
        switchTo(ctx, id);
        return { ok: true, data: { switched: t, note: 'Later actions in this run act on this tab (it stays in the background).' } };
      }
      case 'close': {
        const id = Number(args.tab_id);
        if (id === ctx.tabId) return fail('INVALID_ARGUMENTS', 'that is the tab this run acts on; switch to another tab first');
        const list = await b.listTabs(ctx.tabId);
        if (!list.some((t) => t.tabId === id)) return fail('NO_SUCH_TAB', `tab ${args.tab_id}`);
        await b.closeTab(id);
        return { ok: true, data: { closed: id } };
      }
      default: return fail('INVALID_ARGUMENTS', 'action is one of list, open, switch, close');
    }
  },
};

/**
 * The run's tool context follows the tab the agent switched to (the router makes one context per run).
 * @param {ToolContext} ctx @param {number} tabId
 */
function switchTo(ctx, tabId) {
  /** @type {{ tabId: number }} */ (ctx).tabId = tabId;
}

/** @type {Tool} */
export const waitFor = {
  name: 'wait_for',
  compact: { description: "Wait until a text appears on the page.", parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false } },
  description: 'Wait for something before acting: time_ms (a fixed wait), selector or text to appear (gone: true to disappear), url_contains (the URL changes to include it), network_idle (no requests for 500 ms), or dom_stable_ms (no DOM changes for that long). timeout_ms caps it (default 10000).',
  parameters: {
    type: 'object',
    properties: {
      time_ms: { type: 'integer', minimum: 0, maximum: 30000 },
      selector: { type: 'string' },
      text: { type: 'string' },
      gone: { type: 'boolean' },
      url_contains: { type: 'string' },
      network_idle: { type: 'boolean' },
      dom_stable_ms: { type: 'integer', minimum: 50, maximum: 10000 },
      timeout_ms: { type: 'integer', minimum: 100, maximum: 60000 },
    },
    additionalProperties: false,
  },
  effects: ['reads_page'],
  replay: 'page',
  says: (t) => t('toolSays_wait_for'),
  async run(args, ctx) {
    const timeoutMs = Number(args.timeout_ms ?? 10_000);
    const started = Date.now();
    if (args.time_ms) await new Promise((r) => setTimeout(r, Math.min(Number(args.time_ms), timeoutMs)));
    if (args.url_contains) {
      const want = String(args.url_contains);
      for (;;) {
        const t = await ctx.browser.getTab(ctx.tabId);
        if (!t) return fail('TAB_GONE');
        if (t.url.includes(want) && t.status === 'complete') break;
        if (Date.now() - started > timeoutMs) return fail('TIMEOUT', `the URL did not come to contain "${want}" within ${timeoutMs} ms; it is ${t.url}`, { retryable: true });
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const left = Math.max(100, timeoutMs - (Date.now() - started));
    if (args.selector || args.text || args.dom_stable_ms || args.network_idle) {
      // Network idle is read from the page's resource timings: no entry started or ended in the last 500 ms.
      const r = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.waitFor', selector: args.selector, text: args.text, gone: args.gone === true, stableMs: args.dom_stable_ms ?? (args.network_idle ? 500 : undefined), networkIdle: args.network_idle === true, timeoutMs: left });
      if (!r.ok) return r;
    }
    return { ok: true, data: { waitedMs: Date.now() - started } };
  },
};
