// Tools that read the page: the outline (with cross-origin frames spliced in), its changes after
// an action, the readable content, the capability summary, data extraction, and describe_ref.
/** @import { Tool, ToolResult, ToolContext } from '../../types/core' */
import { spliceFrames } from '../frame-outline.js';
import { diffOutlines, renderDiff } from '../outline-diff.js';
import { RESULT_BUDGET_CHARS } from '../budget.js';
import { fail } from '../error-codes.js';

/** read_page's reader and its libraries (vendored by scripts/vendor.mjs), in load order. */
const READER_FILES = ['vendor/readability.js', 'vendor/turndown.js', 'content/reader.js'];

/** The last full outline per tab, the base for the next diff. Bounded: old tabs fall out. @type {Map<number, string>} */
const lastOutline = new Map();
const MAX_TABS = 50;

/** @param {number} tabId @param {string | null} text */
function remember(tabId, text) {
  lastOutline.delete(tabId);
  if (text === null) return;
  lastOutline.set(tabId, text);
  if (lastOutline.size > MAX_TABS) lastOutline.delete(/** @type {number} */ (lastOutline.keys().next().value));
}

/**
 * The whole outline of the tab: the top frame's, then every cross-origin frame's spliced in.
 * Frames are told their frameId first (content/frames.js) so the parent can mark where each goes.
 * @param {ToolContext} ctx
 * @param {{ maxChars?: number, interactiveOnly?: boolean, viewportOnly?: boolean, ref?: string, from?: number, to?: number }} [opts]
 * @returns {Promise<ToolResult<{ text: string, url: string, title: string, refs: number, truncated: boolean }>>}
 */
export async function pageOutline(ctx, opts = {}) {
  const nonce = Math.random().toString(36).slice(2) + Date.now().toString(36);
  const frames = await introduceFrames(ctx, nonce);
  // Each frame waits for its own children's introductions (postMessage may still be in flight).
  const childrenOf = (/** @type {number} */ id) => frames.filter((f) => f.parentFrameId === id).length;
  const top = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.snapshot', ...opts, nonce, frameId: opts.ref ? undefined : 0, expectFrames: opts.ref ? 0 : childrenOf(0) });
  if (!top.ok) return top;
  const o = /** @type {{ text: string, url: string, title: string, refs: number, truncated: boolean }} */ (top.data);
  if (typeof o?.text !== 'string') return fail('NO_OUTLINE', 'the page did not return an outline; it may still be loading, take a snapshot again', { retryable: true });
  // The frames share what the top frame's outline left of the budget (each at least a little).
  const budget = opts.maxChars ?? RESULT_BUDGET_CHARS;
  const share = Math.max(2_000, Math.floor((budget - o.text.length) / Math.max(1, frames.length)));
  const text = await spliceFrames(o.text, async (frameId) => {
    const r = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.snapshot', maxChars: share, interactiveOnly: opts.interactiveOnly, nonce, frameId, expectFrames: childrenOf(frameId) });
    return r.ok ? /** @type {{ text: string }} */ (r.data).text : null;
  });
  return { ok: true, data: { ...o, text, refs: (text.match(/\[(?:f\d+:)?e\d+\]/g) ?? []).length } };
}

/** How long a frame may take to introduce itself before the outline goes on without it. */
const HELLO_DEADLINE_MS = 1_500;

/**
 * Tells every frame that can host a content script its frameId (content/frames.js), so its parent
 * can mark where its outline goes. Frames that cannot (error pages, about:blank, javascript: URLs)
 * are never asked, and one that does not answer in time is left out rather than waited for: the
 * frames returned are the ones that introduced themselves.
 * @param {ToolContext} ctx @param {string} nonce
 */
async function introduceFrames(ctx, nonce) {
  const frames = (await ctx.browser.listFrames(ctx.tabId)).filter((f) => f.frameId !== 0 && f.scriptable !== false && !f.loading);
  const hellos = await Promise.all(frames.map((f) => ctx.browser.sendToContent(ctx.tabId, { type: 'content.frameHello', frameId: f.frameId, nonce }, { deadlineMs: HELLO_DEADLINE_MS })));
  return frames.filter((_, i) => hellos[i].ok);
}

/**
 * After an action: what changed in the outline since the last one, when that is smaller than the
 * whole; else the whole outline. null when there is no earlier outline to compare with.
 * @param {ToolContext} ctx
 * @returns {Promise<{ changes: string } | { outline: string } | null>}
 */
export async function outlineChanges(ctx) {
  const before = lastOutline.get(ctx.tabId);
  const now = await pageOutline(ctx);
  if (!now.ok) return null;
  remember(ctx.tabId, now.data.text);
  if (before === undefined) return null;
  const diff = renderDiff(diffOutlines(before, now.data.text));
  if (diff === null) return { changes: 'The outline did not change.' };
  return diff.length < now.data.text.length ? { changes: diff } : { outline: now.data.text };
}

/** Forget the base of the next diff (the tab navigated: a new page has no "before"). @param {number} tabId */
export function forgetOutline(tabId) { remember(tabId, null); }

/** @type {Tool} */
export const snapshot = {
  name: 'snapshot',
  looksAtPage: true,
  compact: { description: "Outline of the page: actionable elements carry refs like [e12]. Take one before acting and after the page changes.", parameters: { type: 'object', properties: { ref: { type: 'string', description: 'Only the part under this ref.' } }, additionalProperties: false } },
  description: 'Outline of the current page: headings, text and every actionable element with its ref. Call before acting and after the page changes. A big page comes summarised: a region line says what it holds and "snapshot ref=… [from=… to=…]" shows it. Options: interactiveOnly (only elements with refs), viewportOnly (only what is on screen), ref (only the part under that element), from and to (with ref: its children from one index up to another), maxChars.',
  parameters: {
    type: 'object',
    properties: {
      interactiveOnly: { type: 'boolean', description: 'Only actionable elements and their landmarks (default false).' },
      viewportOnly: { type: 'boolean', description: 'Only what is on screen; the rest is counted (default false).' },
      ref: { type: 'string', description: 'Outline only the subtree under this ref.' },
      from: { type: 'integer', minimum: 0, description: 'With ref: start at this child of it (as a "not outlined" line names it).' },
      to: { type: 'integer', minimum: 0, description: 'With from: stop before this child (as a "not outlined" line names it).' },
      maxChars: { type: 'integer', minimum: 500, maximum: 200000, description: `Fit the outline into this many characters, summarising regions (default ${RESULT_BUDGET_CHARS}).` },
    },
    additionalProperties: false,
  },
  effects: ['reads_page'],
  replay: 'silent',
  says: (t) => t('toolSays_snapshot'),
  resultChars: (args, budget) => (typeof args.maxChars === 'number' ? args.maxChars : budget),
  async run(args, ctx) {
    // The outline fits the run's budget (which follows the model's window) unless the call asks otherwise.
    const maxChars = typeof args.maxChars === 'number' ? args.maxChars : ctx.resultChars ?? RESULT_BUDGET_CHARS;
    const r = await pageOutline(ctx, { interactiveOnly: args.interactiveOnly === true, viewportOnly: args.viewportOnly === true, ref: args.ref, from: args.from, to: args.to, maxChars });
    if (!r.ok) return r;
    if (!args.ref) remember(ctx.tabId, r.data.text);
    return { ok: true, data: `Page: ${r.data.title} (${r.data.url})\n${r.data.text}` };
  },
};

/** @type {Tool} */
export const readPage = {
  name: 'read_page',
  looksAtPage: true,
  compact: { description: "The page's main text as markdown, for reading articles." },
  description: 'The readable main content of the current page as markdown (article text, tables, links), for answering questions about it.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  effects: ['reads_page'],
  replay: 'page',
  replayOutput: true,
  says: (t) => t('toolSays_read_page'),
  async run(_args, ctx) {
    // The reader (Readability + turndown, ~100 kB) is injected on first use, not into every page.
    const first = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.readable' });
    if (first.ok || first.code !== 'UNKNOWN_REQUEST') return first;
    const injected = await ctx.browser.injectScripts(ctx.tabId, READER_FILES);
    if (!injected.ok) return injected;
    return ctx.browser.sendToContent(ctx.tabId, { type: 'content.readable' });
  },
};

/** @type {Tool} */
export const pageCapabilities = {
  name: 'page_capabilities',
  description: 'A compact summary of what the page offers: main actions, forms (purpose, fields, submit) and collections of repeated items (with fields and counts) that extract_data can return as rows.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  effects: ['reads_page'],
  replay: 'page',
  replayOutput: true,
  says: (t) => t('toolSays_page_capabilities'),
  async run(_args, ctx) {
    return ctx.browser.sendToContent(ctx.tabId, { type: 'content.capabilities' });
  },
};

/** @type {Tool} */
export const extractData = {
  name: 'extract_data',
  description: 'Return the items of a collection from page_capabilities as JSON rows. fields: which fields to include (default all).',
  parameters: {
    type: 'object',
    properties: {
      collection: { type: 'string', description: 'The collection id from page_capabilities, e.g. "c1".' },
      fields: { type: 'array', items: { type: 'string' }, description: 'Field names to include, e.g. ["title", "price"].' },
      limit: { type: 'integer', minimum: 1, maximum: 500, description: 'At most this many rows (default 100).' },
    },
    required: ['collection'],
    additionalProperties: false,
  },
  effects: ['reads_page'],
  replay: 'page',
  replayOutput: true,
  says: (t, c) => t('toolSays_extract_data', c.quoted?.('collection') ?? ''),
  async run(args, ctx) {
    return ctx.browser.sendToContent(ctx.tabId, { type: 'content.extract', collection: String(args.collection), fields: args.fields, limit: args.limit });
  },
};

/** @type {Tool} */
export const describeRef = {
  name: 'describe_ref',
  description: 'What stands behind a ref: tag, id, XPath, bounding box and its outline line (tool runner only).',
  parameters: { type: 'object', properties: { ref: { type: 'string', description: 'A ref from the outline.' } }, required: ['ref'], additionalProperties: false },
  effects: ['reads_page'],
  replay: 'silent',
  says: (t, c) => t('toolSays_describe_ref', c.element()),
  runnerOnly: true,
  async run(args, ctx) {
    return ctx.browser.sendToContent(ctx.tabId, { type: 'content.describe', ref: String(args.ref) });
  },
};
