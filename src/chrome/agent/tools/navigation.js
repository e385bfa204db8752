import { fail } from '../error-codes.js';
// Tools that move the tab to another page.
/** @import { Tool } from '../../types/core' */

/** @type {Tool} */
export const navigate = {
  name: 'navigate',
  compact: { description: "Open an absolute http(s) URL in this tab." },
  description: 'Open a URL in the current tab and wait for it to load.',
  parameters: {
    type: 'object',
    properties: { url: { type: 'string', description: 'An absolute http(s) URL.' } },
    required: ['url'],
    additionalProperties: false,
  },
  effects: ['reads_page', 'navigates'],
  replay: 'page',
  says: (t, c) => t('toolSays_navigate', c.url()),
  async run(args, ctx) {
    let url;
    try { url = new URL(String(args.url)); } catch {
      return fail('INVALID_URL', `"${args.url}" is not an absolute URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return fail('INVALID_URL', `not ${url.protocol}`);
    }
    const r = await ctx.browser.navigate(ctx.tabId, url.href, ctx.signal);
    if (!r.ok) return r;
    // The HTTP status, from the page's own navigation timing entry.
    const info = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.pageInfo' });
    const status = info.ok ? /** @type {{ status: number | null }} */ (info.data).status : null;
    return { ok: true, data: { ...r.data, status } };
  },
};
