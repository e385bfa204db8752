// Tools that read or act on the page through the content script.
/** @import { Tool, ToolResult, ToolContext, ContentRequest } from '../../types/core' */
import { outlineChanges, forgetOutline } from './perception.js';

const REF = { type: 'string', description: 'The ref of the element, as shown in the snapshot, e.g. "e12" (or "f3:e7" inside a frame).' };

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
    forgetOutline(ctx.tabId);
    return { ok: true, data: { ...data, navigated: { url: after.url, title: after.title } } };
  }
  // What the action changed, in a few lines when that is smaller than the whole outline.
  const changes = await outlineChanges(ctx);
  if (changes) return { ok: true, data: { .../** @type {Record<string, unknown>} */ (typeof result.data === 'object' && result.data ? result.data : { result: result.data }), ...changes } };
  return result;
}

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
