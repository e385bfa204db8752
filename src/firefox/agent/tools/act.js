// What every acting tool shares: the target schema, the per-tab action queue, and the effects
// report after an action (navigation, new tabs, dialogs, and what changed in the page's outline).
/** @import { ActionTarget, ToolContext, ToolResult, JSONSchema } from '../../types/core' */
import { outlineChanges, forgetOutline } from './perception.js';
import { fail } from '../error-codes.js';

/** The properties that name a target; a tool's schema spreads these in. */
export const TARGET_PROPS = /** @type {Record<string, JSONSchema>} */ ({
  ref: { type: 'string', description: 'The ref of the element, as shown in the snapshot, e.g. "e12". Preferred.' },
  text: { type: 'string', description: 'Or: the visible text (or label) of the element, when it has no ref.' },
  selector: { type: 'string', description: 'Or: a CSS selector (searched inside shadow roots too).' },
  x: { type: 'number', description: 'Or: a viewport x coordinate in CSS pixels (with y).' },
  y: { type: 'number', description: 'Or: a viewport y coordinate in CSS pixels (with x).' },
  frame_id: { type: 'integer', minimum: 0, description: 'With text, selector or x/y: act inside this frame (from get_frames). A ref already names its frame.' },
});

/** @param {Record<string, any>} args @param {string} [prefix] @returns {ActionTarget | null} */
export function targetOf(args, prefix = '') {
  const g = (/** @type {string} */ k) => args[prefix ? `${prefix}_${k}` : k];
  /** @type {ActionTarget} */
  const t = {};
  if (typeof g('ref') === 'string') t.ref = g('ref');
  else if (typeof g('text') === 'string') t.text = g('text');
  else if (typeof g('selector') === 'string') t.selector = g('selector');
  else if (typeof g('x') === 'number' && typeof g('y') === 'number') { t.x = g('x'); t.y = g('y'); }
  else return null;
  // A frame ref ("f7:e3") names its frame itself; frame_id scopes the other kinds of target.
  if (!t.ref && Number.isInteger(args.frame_id)) t.frameId = args.frame_id;
  return t;
}

/** @param {string} [what] @returns {ToolResult} */
export function noTarget(what = 'the element') {
  return fail('INVALID_ARGUMENTS', `say which element: give ${what} as ref (from the snapshot), text, selector, or x and y`);
}

/** @type {Map<number, Promise<unknown>>} */
const queues = new Map();

/**
 * Runs fn after every earlier action on the same tab has finished: never two actions on one tab at once.
 * @template T @param {number} tabId @param {() => Promise<T>} fn @returns {Promise<T>}
 */
export function queued(tabId, fn) {
  const prev = queues.get(tabId) ?? Promise.resolve();
  const next = prev.then(fn, fn);
  const tail = next.catch(() => {});
  queues.set(tabId, tail);
  tail.then(() => { if (queues.get(tabId) === tail) queues.delete(tabId); });
  return next;
}

/** A content request that closed its channel because the page navigated is a success of an action. @param {ToolResult} r */
function navigatedAway(r) {
  return !r.ok && r.code === 'PAGE_CHANGED';
}

/**
 * Runs an action in the tab's queue and reports its effects compactly beside its own result.
 * @param {ToolContext} ctx @param {() => Promise<ToolResult>} fn
 * @returns {Promise<ToolResult>}
 */
export function act(ctx, fn) {
  return queued(ctx.tabId, async () => {
    const b = ctx.browser;
    const before = await b.getTab(ctx.tabId);
    if (!before) return fail('TAB_GONE');
    await b.sendToContent(ctx.tabId, { type: 'content.watch' });
    const tabs = b.watchNewTabs(ctx.tabId);
    /** @type {ToolResult} */
    let result;
    try { result = await fn(); } catch (err) {
      result = fail('TOOL_FAILED', err instanceof Error ? err.message : String(err));
    }
    if (navigatedAway(result)) result = { ok: true, data: { note: 'The page navigated during the action.' } };
    await b.settle(ctx.tabId, ctx.signal);
    const after = await b.getTab(ctx.tabId);
    /** @type {Record<string, unknown>} */
    const effects = {};
    if (!after) effects.tabClosed = true;
    else if (before.url !== after.url) effects.navigated = { url: after.url, title: after.title };
    else if (before.title !== after.title) effects.title = after.title;
    const opened = await tabs.stop();
    if (opened.length) effects.newTabs = opened;
    if (after && !effects.navigated) {
      const e = await b.sendToContent(ctx.tabId, { type: 'content.effects' });
      if (e.ok && e.data && typeof e.data === 'object') Object.assign(effects, e.data);
      // Against the last outline the model saw: the lines added, removed and changed, or the whole
      // outline when that is shorter. It says what appeared and vanished, so those go.
      const outline = await outlineChanges(ctx);
      if (outline) { delete effects.appeared; delete effects.vanished; Object.assign(effects, outline); }
    } else if (effects.navigated) {
      forgetOutline(ctx.tabId);
    }
    if (!result.ok) {
      // A failed action may still have opened a dialog or navigated: say so in the message.
      const extra = Object.keys(effects).filter((k) => k !== 'focus').length ? ` Meanwhile: ${JSON.stringify(effects)}` : '';
      return { ...result, message: result.message + extra };
    }
    const data = result.data && typeof result.data === 'object' ? /** @type {Record<string, unknown>} */ (result.data) : result.data === null || result.data === undefined ? {} : { result: result.data };
    return { ok: true, data: Object.keys(effects).length ? { ...data, effects } : data };
  });
}

/** The CDP failure worth falling back from (no debugger), as opposed to the tab having gone. @param {unknown} err */
export function cdpCode(err) {
  return /** @type {{ code?: string }} */ (err)?.code ?? 'CDP_FAILED';
}
