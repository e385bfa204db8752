// Tools that read the page through the content script (the acting tools are in input.js and forms.js).
/** @import { Tool } from '../../types/core' */

/** @type {Tool} */
export const snapshot = {
  name: 'snapshot',
  description: 'Outline of the current page: headings, text and every actionable element with its ref. Call before acting and after the page changes.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  readOnly: true,
  async run(_args, ctx) {
    const r = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.snapshot' });
    if (!r.ok) return r;
    const o = /** @type {{text: string, url: string, title: string}} */ (r.data);
    return { ok: true, data: `Page: ${o.title} (${o.url})\n${o.text}` };
  },
};

/** @type {Tool} */
export const readPage = {
  name: 'read_page',
  description: 'The readable text of the current page, for answering questions about its content.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  readOnly: true,
  async run(_args, ctx) {
    return ctx.browser.sendToContent(ctx.tabId, { type: 'content.read' });
  },
};
