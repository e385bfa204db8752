// Pointer and keyboard tools: click, hover, type, press_keys, drag_drop, scroll. Chrome sends
// trusted input through CDP (ctx.browser.trusted) and falls back to the content script's synthetic
// events when the debugger cannot attach; Firefox always uses the synthetic events.
/** @import { Tool, ToolContext, ToolResult, ActionTarget } from '../../types/core' */
import { TARGET_PROPS, act, cdpCode, noTarget, targetOf } from './act.js';
import { frameOfTarget, toTopPoint } from './frames.js';
import { fail } from '../error-codes.js';

const MODIFIERS = { type: 'array', items: { type: 'string', enum: ['Alt', 'Control', 'Meta', 'Shift'] }, description: 'Keys held during the click.' };

/** @param {unknown} err @returns {ToolResult | null} null: fall back to synthetic events */
function cdpFailure(err) {
  const code = cdpCode(err);
  if (code === 'TAB_GONE') return fail('TAB_GONE');
  return null;
}

/**
 * Trusted click: check the target, move the pointer onto it (hover first, so content that swaps under the
 * pointer settles), check again, press. Returns null when the debugger is unavailable.
 * @param {ToolContext} ctx @param {ActionTarget} target @param {{ button?: 'left'|'right'|'middle', clickCount?: number, modifiers?: string[] }} o
 * @returns {Promise<ToolResult | null>}
 */
async function trustedClick(ctx, target, o) {
  const t = ctx.browser.trusted;
  if (!t) return null;
  // A covered target answers at once (coverLater): moving the pointer there may close what covers it
  // (a menu or tooltip a hover opened), and the recheck looks again.
  const prep = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.prepare', target, coverLater: true });
  if (!prep.ok) return prep;
  const { point, name, covered, fallback } = /** @type {{ point: { x: number, y: number }, name: string, covered?: boolean, fallback?: boolean }} */ (prep.data);
  // A canvas's fallback control is not drawn: a press at a point would land on the canvas.
  if (fallback) return null;
  // Inside a frame the content script measures in the frame's viewport; CDP wants the top page's.
  const frameId = frameOfTarget(target);
  const top = await toTopPoint(ctx, frameId, point);
  if (!top) return null;
  try {
    await t.move(ctx.tabId, top);
    const again = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.recheck', target, point, covered });
    if (!again.ok) return again;
    const d = /** @type {{ x: number, y: number, downs: number }} */ (again.data);
    const at = await toTopPoint(ctx, frameId, d);
    if (!at) return null;
    await t.click(ctx.tabId, { x: at.x, y: at.y, ...o });
    if (frameId) {
      const seen = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.trustedSeen', target, downs: d.downs });
      // A press that never reached the frame went to the parent page, and one that landed beside
      // the target (a frame's point mapped wrong): click there with synthetic events instead.
      if (seen.ok && (seen.data === false || seen.data === 'elsewhere')) return null;
      const note = pressNote(seen);
      return { ok: true, data: { clicked: name, trusted: true, ...(note ? { note } : {}) } };
    }
    return { ok: true, data: { clicked: name, trusted: true } };
  } catch (err) {
    return cdpFailure(err);
  }
}

/**
 * What a frame's answer after a trusted press says beyond "it landed on the target". A press that
 * reached the frame is never sent again as synthetic events: when its target re-rendered (a
 * dialog's next step) the click happened, and a second one on a pay or delete button would act
 * twice. The effects then say what it did.
 * @param {ToolResult} seen content.trustedSeen's answer
 * @returns {string} empty when it landed on the target
 */
export function pressNote(seen) {
  if (!seen.ok) return 'The press was sent at the target\'s point, but the frame did not answer after it (it may have navigated or re-loaded): whether it reached the target cannot be told. Read the effects and take a snapshot before clicking again.';
  if (seen.data === 'changed') return 'The press reached the target; the element then re-rendered (its ref may be gone): the effects say what the click did. Do not click it again to retry.';
  return '';
}

/** @param {ToolContext} ctx @param {ActionTarget} target @param {{ button?: 'left'|'right'|'middle', clickCount?: number, modifiers?: string[] }} o */
export async function clickTarget(ctx, target, o) {
  return (await trustedClick(ctx, target, o)) ?? ctx.browser.sendToContent(ctx.tabId, { type: 'content.click', target, ...o });
}

/** @type {Tool} */
export const click = {
  name: 'click',
  compact: { description: "Click an element by its ref.", parameters: { type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'], additionalProperties: false } },
  description: 'Click an element (by ref, visible text, selector, or x/y). Optional: button (left, right, middle), click_count (2 = double-click), modifiers. Refuses a disabled element or one covered by another (the error names what covers it). Reports what changed.',
  parameters: {
    type: 'object',
    properties: {
      ...TARGET_PROPS,
      button: { type: 'string', enum: ['left', 'right', 'middle'], description: 'Default left.' },
      click_count: { type: 'integer', minimum: 1, maximum: 3, description: '2 for a double-click.' },
      modifiers: MODIFIERS,
    },
    additionalProperties: false,
  },
  effects: ['reads_page', 'acts_on_page'],
  replay: 'targeted',
  says: (t, c) => t('toolSays_click', c.element(true)),
  async run(args, ctx) {
    const target = targetOf(args);
    if (!target) return noTarget();
    return act(ctx, () => clickTarget(ctx, target, { button: args.button, clickCount: args.click_count, modifiers: args.modifiers }));
  },
};

/** @type {Tool} */
export const hover = {
  name: 'hover',
  description: 'Move the pointer over an element, to reveal menus or tooltips that open on hover.',
  parameters: { type: 'object', properties: { ...TARGET_PROPS }, additionalProperties: false },
  effects: ['reads_page', 'acts_on_page'],
  replay: 'targeted',
  says: (t, c) => t('toolSays_hover', c.element()),
  async run(args, ctx) {
    const target = targetOf(args);
    if (!target) return noTarget();
    return act(ctx, async () => {
      if (ctx.browser.trusted) {
        const prep = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.prepare', target });
        if (!prep.ok) return prep;
        const { point, name } = /** @type {{ point: { x: number, y: number }, name: string }} */ (prep.data);
        const frameId = frameOfTarget(target);
        const top = await toTopPoint(ctx, frameId, point);
        const moves = frameId ? await ctx.browser.sendToContent(ctx.tabId, { type: 'content.trustedMoves', target }) : null;
        if (top) {
          try {
            await ctx.browser.trusted.move(ctx.tabId, top);
            const seen = moves?.ok ? await ctx.browser.sendToContent(ctx.tabId, { type: 'content.trustedSeen', target, moves: /** @type {number} */ (moves.data) }) : null;
            if (!frameId || (seen?.ok && seen.data === true)) return { ok: true, data: { hovered: name, trusted: true } };
          } catch (err) { const f = cdpFailure(err); if (f) return f; }
        }
      }
      return ctx.browser.sendToContent(ctx.tabId, { type: 'content.hover', target });
    });
  },
};

/**
 * @param {ToolContext} ctx @param {ActionTarget} target @param {string} text @param {boolean} clear @param {boolean} submit
 * @returns {Promise<ToolResult>}
 */
async function typeInto(ctx, target, text, clear, submit) {
  const t = ctx.browser.trusted;
  if (t) {
    const focus = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.focusField', target, clear });
    if (!focus.ok) return focus;
    // A frame that did not get the keyboard focus would let the keys land in another frame: type synthetically there.
    const inFrame = frameOfTarget(target) !== 0;
    if (inFrame && /** @type {{ hasFocus?: boolean }} */ (focus.data)?.hasFocus !== true) return ctx.browser.sendToContent(ctx.tabId, { type: 'content.type', target, text, clear, submit });
    try {
      const r = await t.typeText(ctx.tabId, text);
      if (r.interrupted) return { ok: true, data: { typed: r.typed, of: [...text].length, interrupted: 'The page began to navigate while typing; the rest was not typed (and not typed into the new page).' } };
      if (submit) await t.keys(ctx.tabId, 'Enter');
      if (t.navigating(ctx.tabId)) return { ok: true, data: { typed: r.typed } };
      const v = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.fieldValue', target });
      return { ok: true, data: { value: v.ok ? v.data : undefined, trusted: true } };
    } catch (err) { const f = cdpFailure(err); if (f) return f; }
  }
  return ctx.browser.sendToContent(ctx.tabId, { type: 'content.type', target, text, clear, submit });
}

/** @type {Tool} */
export const type = {
  name: 'type',
  compact: { description: "Type text into a field by its ref (replaces its value); submit: press Enter after.", parameters: { type: 'object', properties: { ref: { type: 'string' }, text: { type: 'string' }, submit: { type: 'boolean' } }, required: ['ref', 'text'], additionalProperties: false } },
  description: 'Type text into a field key by key, as a person would (replaces its value unless clear is false). submit: press Enter afterwards. For dates, sliders and fields that reformat keystrokes, use set_field.',
  parameters: {
    type: 'object',
    properties: {
      // Here text is what to type, so the field is named by ref, selector or point only.
      ref: TARGET_PROPS.ref, selector: TARGET_PROPS.selector, x: TARGET_PROPS.x, y: TARGET_PROPS.y, frame_id: TARGET_PROPS.frame_id,
      text: { type: 'string', description: 'The text to type.' },
      clear: { type: 'boolean', description: 'Clear the field first (default true).' },
      submit: { type: 'boolean', description: 'Press Enter after typing (default false).' },
    },
    required: ['text'],
    additionalProperties: false,
  },
  effects: ['reads_page', 'acts_on_page', 'touches_secrets'],
  replay: 'targeted',
  entersData: true,
  typedArg: 'text',
  says: (t, c) => t('toolSays_type', c.element()),
  async run(args, ctx) {
    const target = targetOf({ ...args, text: undefined });
    if (!target) return fail('INVALID_ARGUMENTS', 'say which field: give ref (from the snapshot), selector, or x and y');
    return act(ctx, () => typeInto(ctx, target, String(args.text), args.clear !== false, args.submit === true));
  },
};

/** @type {Tool} */
export const pressKeys = {
  name: 'press_keys',
  compact: { description: 'Press keys: ["Enter"], ["Escape"], ["Control+A"].', parameters: { type: 'object', properties: { keys: { type: 'array', items: { type: 'string' } } }, required: ['keys'], additionalProperties: false } },
  description: 'Press keys or chords on the focused element (or on target first focused): e.g. ["Escape"], ["Control+A", "Backspace"], ["ArrowDown"] with repeat 3.',
  parameters: {
    type: 'object',
    properties: {
      keys: { type: 'array', items: { type: 'string' }, description: 'Key names (Enter, Tab, Escape, ArrowDown, a, …) or chords joined with + (Control+A, Shift+Tab).' },
      repeat: { type: 'integer', minimum: 1, maximum: 50, description: 'Press the whole sequence this many times (default 1).' },
      ...TARGET_PROPS,
    },
    required: ['keys'],
    additionalProperties: false,
  },
  effects: ['reads_page', 'acts_on_page'],
  replay: 'target-optional',
  says: (t, c) => t('toolSays_press_keys', c.keys()),
  async run(args, ctx) {
    const target = targetOf(args) ?? undefined;
    const keys = /** @type {string[]} */ (args.keys);
    const repeat = Number(args.repeat ?? 1);
    return act(ctx, async () => {
      const t = ctx.browser.trusted;
      /** @type {ToolResult | null} */
      let r = null;
      if (t) {
        if (target) { const f = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.focus', target }); if (!f.ok) return f; }
        try {
          for (let i = 0; i < repeat; i++) for (const k of keys) await t.keys(ctx.tabId, k);
          r = { ok: true, data: { pressed: keys, repeat, trusted: true } };
        } catch (err) { const f = cdpFailure(err); if (f) return f; }
      }
      r ??= await ctx.browser.sendToContent(ctx.tabId, { type: 'content.keys', keys, repeat, target });
      // What Shift+arrows, Home/End or Control+A selected, so the next step knows.
      if (r.ok && keys.some((k) => /shift\+|control\+a$|meta\+a$/i.test(k))) {
        const sel = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.selection', target });
        if (sel.ok && typeof sel.data === 'string') r = { ok: true, data: { .../** @type {object} */ (r.data), selected: sel.data.slice(0, 200) } };
      }
      return r;
    });
  },
};

/**
 * The drag itself: HTML5 drag events (native drags never start from injected mouse events), trusted CDP
 * mouse input in Chrome, or the content script's synthetic pointer sequence.
 * @param {ToolContext} ctx @param {ActionTarget} from @param {ActionTarget} to
 * @param {{ from: { x: number, y: number }, to: { x: number, y: number }, html5: boolean }} p
 * @returns {Promise<ToolResult>}
 */
async function runDrag(ctx, from, to, p) {
  if (p.html5) {
    const r = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.html5Drag', from, to });
    return r.ok ? { ok: true, data: { dragged: true, kind: 'html5' } } : r;
  }
  const frameId = frameOfTarget(from);
  const [a, b] = [await toTopPoint(ctx, frameId, p.from), await toTopPoint(ctx, frameId, p.to)];
  if (ctx.browser.trusted && a && b) {
    try {
      await ctx.browser.trusted.drag(ctx.tabId, a, b);
      return { ok: true, data: { dragged: true, kind: 'pointer', trusted: true } };
    } catch (err) { const f = cdpFailure(err); if (f) return f; }
  }
  const r = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.drag', from, to });
  return r.ok ? { ok: true, data: { dragged: true, .../** @type {object} */ (r.data) } } : r;
}

/** @type {Tool} */
export const dragDrop = {
  name: 'drag_drop',
  description: 'Drag one element onto another (HTML5 drag-and-drop lists, sortable lists, sliders). Source: from_ref / from_text / from_selector; destination: to_ref / to_text / to_selector, or to_x/to_y. Fails with DRAG_NO_EFFECT when nothing on the page moved or changed.',
  parameters: {
    type: 'object',
    properties: {
      from_ref: { type: 'string' }, from_text: { type: 'string' }, from_selector: { type: 'string' },
      to_ref: { type: 'string' }, to_text: { type: 'string' }, to_selector: { type: 'string' }, to_x: { type: 'number' }, to_y: { type: 'number' },
      frame_id: { type: 'integer', minimum: 0, description: 'With text or selector: drag inside this frame (from get_frames); both ends are in the same frame.' },
    },
    additionalProperties: false,
  },
  effects: ['reads_page', 'acts_on_page'],
  entersData: true,
  says: (t, c) => (c.element(true, 'to') ? t('toolSays_drag_drop', [c.element(true, 'from'), c.element(true, 'to')]) : t('toolSays_drag_drop_point', c.element(true, 'from'))),
  async run(args, ctx) {
    const from = targetOf(args, 'from'), to = targetOf(args, 'to');
    if (!from) return noTarget('the element to drag (from_ref, from_text or from_selector)');
    if (!to) return noTarget('where to drop it (to_ref, to_text, to_selector, or to_x and to_y)');
    return act(ctx, async () => {
      const prep = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.dragPrepare', from, to });
      if (!prep.ok) return prep;
      const p = /** @type {{ from: { x: number, y: number }, to: { x: number, y: number }, html5: boolean }} */ (prep.data);
      // The page as it was, so a drag that changed nothing fails (DRAG_NO_EFFECT) instead of reporting success.
      const begun = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.dragBegin', from });
      if (!begun.ok) return begun;
      const r = await runDrag(ctx, from, to, p);
      if (!r.ok) return r;
      const check = await ctx.browser.sendToContent(ctx.tabId, { type: 'content.dragCheck', from });
      return check.ok ? r : check;
    });
  },
};

/** @type {Tool} */
export const scroll = {
  name: 'scroll',
  compact: { description: "Scroll the page up or down.", parameters: { type: 'object', properties: { direction: { type: 'string', enum: ['up', 'down'] } }, additionalProperties: false } },
  description: 'Scroll the page or a scrollable element: direction (up/down/left/right) and amount in pixels, or to top/bottom, or to a target element (ref/text/selector alone), or until_text: keep scrolling until that text appears (infinite scroll, virtualised lists). Without a target, when the page itself does not scroll (an app layout), its largest visible scrolling pane scrolls. Reports the position, which container scrolled and whether more content loaded.',
  parameters: {
    type: 'object',
    properties: {
      ...TARGET_PROPS,
      direction: { type: 'string', enum: ['up', 'down', 'left', 'right'] },
      amount: { type: 'integer', minimum: 1, description: 'Pixels (default: most of a screen).' },
      to: { type: 'string', enum: ['top', 'bottom'] },
      until_text: { type: 'string', description: 'Scroll (the target, or the page) until this text is on screen: down, or the way direction says (right or left for a wide grid\'s columns).' },
      max_scrolls: { type: 'integer', minimum: 1, maximum: 200, description: 'With until_text: give up after this many steps (default 40).' },
    },
    additionalProperties: false,
  },
  effects: ['reads_page', 'acts_on_page'],
  replay: 'target-optional',
  says: (t) => t('toolSays_scroll'),
  async run(args, ctx) {
    const target = targetOf(args) ?? undefined;
    return act(ctx, () => ctx.browser.sendToContent(ctx.tabId, { type: 'content.scroll', target, direction: args.direction, amount: args.amount, to: args.to, toText: args.until_text, maxScrolls: args.max_scrolls }));
  },
};
