// Tools that move the tab to another page.
/** @import { Tool } from '../../types/core' */

/** @type {Tool} */
export const navigate = {
  name: 'navigate',
  description: 'Open a URL in the current tab and wait for it to load.',
  parameters: {
    type: 'object',
    properties: { url: { type: 'string', description: 'An absolute http(s) URL.' } },
    required: ['url'],
    additionalProperties: false,
  },
  readOnly: false,
  async run(args, ctx) {
    let url;
    try { url = new URL(String(args.url)); } catch {
      return { ok: false, code: 'INVALID_URL', message: `"${args.url}" is not an absolute URL. Give a full address such as https://example.com/.` };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return { ok: false, code: 'INVALID_URL', message: `Only http and https URLs can be opened, not ${url.protocol}` };
    }
    return ctx.browser.navigate(ctx.tabId, url.href, ctx.signal);
  },
};
