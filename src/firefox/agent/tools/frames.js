// Frames: the get_frames tool, the frame an action target names, and where a frame's viewport sits
// in the top page's (for Chrome's trusted input, which CDP dispatches at top-viewport coordinates).
/** @import { Tool, ToolContext, ActionTarget, FrameInfo } from '../../types/core' */
import { parseRef } from '../refs.js';
import { fail } from '../error-codes.js';

/** The frame an action target lives in: its ref's ("f7:e3" → 7), else its frame_id, else the top frame. @param {ActionTarget | undefined} t */
export function frameOfTarget(t) {
  const parsed = t?.ref ? parseRef(t.ref) : null;
  return parsed ? parsed.frameId : t?.frameId ?? 0;
}

/** @param {string} url */
function originOf(url) {
  try { return new URL(url).origin; } catch { return 'null'; }
}

/**
 * Where frame `frameId`'s viewport starts in the top frame's viewport, summed up the parent chain:
 * each parent measures its child's <iframe> content box. null when any step cannot be measured (the
 * parent is not scriptable, the frame is gone) or the point would fall outside the top viewport:
 * the caller then acts with synthetic events inside the frame.
 * @param {ToolContext} ctx @param {number} frameId
 * @returns {Promise<{ x: number, y: number, viewport: { width: number, height: number } } | null>}
 */
export async function frameOffset(ctx, frameId) {
  if (!frameId) return { x: 0, y: 0, viewport: { width: Infinity, height: Infinity } };
  const frames = await ctx.browser.listFrames(ctx.tabId);
  const nonce = Math.random().toString(36).slice(2) + Date.now().toString(36);
  let x = 0, y = 0, id = frameId;
  /** @type {{ width: number, height: number }} */
  let viewport = { width: Infinity, height: Infinity };
  for (let depth = 0; id !== 0 && depth < 10; depth++) {
    const f = frames.find((fr) => fr.frameId === id);
    if (!f || f.parentFrameId < 0) return null;
    // The child introduces itself to its parent (content/frames.js), which then finds its element.
    const hello = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.frameHello', frameId: id, nonce });
    if (!hello.ok) return null;
    const box = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.frameBox', frameId: f.parentFrameId, child: id, nonce });
    if (!box.ok) return null;
    const b = /** @type {{ x: number, y: number, viewport: { width: number, height: number } }} */ (box.data);
    x += b.x; y += b.y; viewport = b.viewport;
    id = f.parentFrameId;
  }
  return id === 0 ? { x, y, viewport } : null;
}

/**
 * A point in a frame's viewport as a point in the top viewport, or null when it cannot be known.
 * @param {ToolContext} ctx @param {number} frameId @param {{ x: number, y: number }} p
 */
export async function toTopPoint(ctx, frameId, p) {
  if (!frameId) return p;
  const o = await frameOffset(ctx, frameId);
  if (!o) return null;
  const q = { x: p.x + o.x, y: p.y + o.y };
  return q.x >= 0 && q.y >= 0 && q.x < o.viewport.width && q.y < o.viewport.height ? q : null;
}

/**
 * What get_frames says of a frame: readable (its content script answered), failed (an error page:
 * refused, unreachable), blank (about:blank, javascript:, read through its parent when same-origin)
 * or unresponsive.
 * @param {FrameInfo} f @param {import('../../types/core').ToolResult | null} info
 */
function frameState(f, info) {
  if (f.failed) return 'failed to load';
  if (f.scriptable === false) return /^(about|javascript):/.test(f.url) ? 'blank' : 'not readable';
  if (f.loading) return 'still loading';
  if (info?.ok) return 'readable';
  return info?.code === 'FRAME_UNRESPONSIVE' ? 'not answering' : 'not readable';
}

/** @type {Tool} */
export const getFrames = {
  name: 'get_frames',
  description: 'List the page\'s frames (iframes): frameId, parent, URL, whether same- or cross-origin with the page, and title. Refs inside a frame look like "f7:e3"; to act there by text or selector, pass frame_id.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  effects: ['reads_page'],
  says: (t) => t('toolSays_get_frames'),
  async run(_args, ctx) {
    /** @type {FrameInfo[]} */
    const frames = await ctx.browser.listFrames(ctx.tabId);
    if (!frames.length) return fail('PAGE_NOT_SCRIPTABLE', 'the frames of this tab cannot be listed; take a snapshot instead');
    // about:blank and about:srcdoc frames take their parent's origin (HTML, "determining the origin").
    /** @param {FrameInfo | undefined} f @param {number} [depth] @returns {string} */
    const effectiveOrigin = (f, depth = 0) => (!f ? 'null' : f.url.startsWith('about:') && depth < 10 ? effectiveOrigin(frames.find((p) => p.frameId === f.parentFrameId), depth + 1) : originOf(f.url));
    const topOrigin = effectiveOrigin(frames.find((f) => f.frameId === 0));
    // Frames that can host a script are asked for their title, all at once and briefly: one that
    // does not answer is listed without it.
    const infos = await Promise.all(frames.map((f) => (f.scriptable === false || f.loading ? null
      : ctx.browser.sendToContent(ctx.tabId, { type: 'content.frameInfo', frameId: f.frameId }, { deadlineMs: 1_500 }))));
    const out = frames.map((f, i) => {
      const info = infos[i];
      const d = info?.ok ? /** @type {{ title: string, name: string }} */ (info.data) : null;
      return {
        frameId: f.frameId,
        parentFrameId: f.parentFrameId,
        url: f.url,
        origin: f.frameId === 0 ? 'top' : effectiveOrigin(f) === topOrigin ? 'same-origin' : 'cross-origin',
        title: d?.title || null,
        name: d?.name || null,
        state: frameState(f, info),
      };
    });
    return { ok: true, data: { frames: out } };
  },
};
