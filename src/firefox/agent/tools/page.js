// Tools that read or act on the page through the content script.
/** @import { Tool, ToolResult, ToolContext, ContentRequest } from '../../types/core' */

const REF = { type: 'string', description: 'The ref of the element, as shown in the snapshot, e.g. "e12".' };

/**
 * Runs a content request, then waits for any navigation it started and reports it.
 * @param {ToolContext} ctx
 * @param {ContentRequest} message
 * @returns {Promise<ToolResult>}
 */
async function actAndSettle(ctx, message) {
  const before = await ctx.browser.getTab(ctx.tabId);
  const result = await ctx.browser.sendToContent(ctx.tabId, message);
  await ctx.browser.settle(ctx.tabId, ctx.signal);
  const after = await ctx.browser.getTab(ctx.tabId);
  if (!result.ok) return result;
  if (before && after && (before.url !== after.url || before.title !== after.title)) {
    const data = /** @type {Record<string, unknown>} */ (typeof result.data === 'object' && result.data ? result.data : {});
    return { ok: true, data: { ...data, navigated: { url: after.url, title: after.title } } };
  }
  return result;
}

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

/** @type {Tool} */
export const click = {
  name: 'click',
  description: 'Click the element with this ref.',
  parameters: { type: 'object', properties: { ref: REF }, required: ['ref'], additionalProperties: false },
  readOnly: false,
  async run(args, ctx) {
    return actAndSettle(ctx, { type: 'content.click', ref: String(args.ref) });
  },
};

/** @type {Tool} */
export const type = {
  name: 'type',
  description: 'Type text into the field with this ref (replaces its current value unless clear is false). submit: press Enter afterwards.',
  parameters: {
    type: 'object',
    properties: {
      ref: REF,
      text: { type: 'string', description: 'The text to type.' },
      clear: { type: 'boolean', description: 'Clear the field first (default true).' },
      submit: { type: 'boolean', description: 'Press Enter after typing (default false).' },
    },
    required: ['ref', 'text'],
    additionalProperties: false,
  },
  readOnly: false,
  async run(args, ctx) {
    return actAndSettle(ctx, { type: 'content.type', ref: String(args.ref), text: String(args.text), clear: args.clear !== false, submit: args.submit === true });
  },
};
