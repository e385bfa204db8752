// The synthetic pointer: mouse and pointer events as a real pointer produces them (hover, enter and
// leave on every ancestor, press, release, click), the check that the target is still on top once the
// pointer is there, and the click and hover requests. Firefox relies on these; Chrome falls back to
// them when the debugger cannot attach. Drags are in content/drag.js.
import { tw } from './tabwright.js';
import * as Dom from './dom.js';
import * as Input from './input.js';
import { MOUSE_POINTER_ID } from '../../platform/pointer-id.js';
import { fail } from '../../agent/error-codes.js';

/** @typedef {import('../../types/core').ActionTarget} ActionTarget */
/** @typedef {import('../../types/core').ToolErr} ToolErr */
/** @typedef {import('../../types/content').Mods} Mods */
/** @typedef {import('../../types/content').Point} Point */
/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The mouse's pointerId in this browser (platform/pointer-id.js), so a page's setPointerCapture(e.pointerId) names a real pointer. */
const MOUSE_ID = MOUSE_POINTER_ID;

/**
 * @param {Element} el @param {string} type @param {Point} p
 * @param {{ button?: number, buttons?: number, detail?: number, mods?: Mods, relatedTarget?: Element | null }} [o]
 */
function fireMouse(el, type, p, o = {}) {
  const m = o.mods ?? {};
  const init = { bubbles: !/enter|leave/.test(type), cancelable: !/enter|leave|capture/.test(type), composed: true, clientX: p.x, clientY: p.y, screenX: p.x + screenX, screenY: p.y + screenY,
    button: o.button ?? 0, buttons: o.buttons ?? 0, detail: o.detail ?? 0, view: window, ctrlKey: !!m.ctrl, shiftKey: !!m.shift, altKey: !!m.alt, metaKey: !!m.meta, relatedTarget: o.relatedTarget ?? null };
  const pointer = { pointerId: MOUSE_ID, pointerType: 'mouse', isPrimary: true };
  const ev = type.startsWith('pointer') || type.endsWith('pointercapture') ? new PointerEvent(type, { ...init, ...pointer, width: 1, height: 1, pressure: o.buttons ? 0.5 : 0 })
    : type === 'contextmenu' || type === 'auxclick' || type === 'click' || type === 'dblclick' ? new PointerEvent(type, { ...init, ...pointer })
      : new MouseEvent(type, init);
  return el.dispatchEvent(ev);
}

/** @type {Element | null} */
let hovered = null;

/** el and its ancestors, across shadow boundaries, innermost first. @param {Element | null} el */
function chain(el) {
  const out = [];
  for (let n = /** @type {Node | null} */ (el); n; n = n instanceof ShadowRoot ? n.host : n.parentNode) if (n instanceof Element) out.push(n);
  return out;
}

/**
 * Move the synthetic pointer onto el. As a real pointer does (UI Events, "mouseenter"), the non-bubbling
 * leave events go to every element left and the enter events to every element entered, outermost first:
 * hover menus listen for mouseenter on a wrapper, not on the button under the pointer.
 * @param {Element} el @param {Point} p @param {{ buttons?: number }} [o]
 */
function moveTo(el, p, o = {}) {
  if (hovered !== el) {
    const prev = hovered && hovered.isConnected ? hovered : null;
    const now = chain(el), before = chain(prev);
    const b = { buttons: o.buttons ?? 0 };
    if (prev) {
      fireMouse(prev, 'pointerout', p, { ...b, relatedTarget: el }); fireMouse(prev, 'mouseout', p, { ...b, relatedTarget: el });
      for (const e of before.filter((x) => !now.includes(x))) { fireMouse(e, 'pointerleave', p, { ...b, relatedTarget: el }); fireMouse(e, 'mouseleave', p, { ...b, relatedTarget: el }); }
    }
    fireMouse(el, 'pointerover', p, { ...b, relatedTarget: prev }); fireMouse(el, 'mouseover', p, { ...b, relatedTarget: prev });
    for (const e of now.filter((x) => !before.includes(x)).reverse()) { fireMouse(e, 'pointerenter', p, { ...b, relatedTarget: prev }); fireMouse(e, 'mouseenter', p, { ...b, relatedTarget: prev }); }
    hovered = el;
  }
  fireMouse(el, 'pointermove', p, { button: -1, buttons: o.buttons ?? 0 }); fireMouse(el, 'mousemove', p, { buttons: o.buttons ?? 0 });
}

/**
 * What a person's press at p inside el lands on: the deepest element there, when it is el or
 * inside it. A tree row whose listener sits on a child div only hears a press that starts at the
 * div (events bubble up, never down); pressing the row itself selected nothing.
 * @param {Element} el @param {Point} p
 */
function underPointer(el, p) {
  const hit = Dom.deepElementFromPoint(p.x, p.y);
  return hit && Dom.composedContains(el, hit) ? hit : el;
}

const FOCUSABLE = 'a[href],button,input,select,textarea,[tabindex],[contenteditable=""],[contenteditable=true],summary';

/**
 * The focusable element a click at el would focus: el or its nearest ancestor in the flat tree
 * (slotted text inside a shadow root's button focuses the button).
 * @param {Element} el
 */
function focusTarget(el) {
  for (let n = /** @type {Element | null} */ (el); n; n = Dom.parentOf(n)) if (n.matches(FOCUSABLE)) return n instanceof HTMLElement ? n : null;
  return null;
}

/**
 * The full sequence a person's click produces, with button, click count and modifiers.
 * @param {Element} el @param {Point} p @param {{ button?: 'left'|'right'|'middle', clickCount?: number, modifiers?: string[] }} o
 */
function syntheticClick(el, p, o) {
  const button = o.button === 'right' ? 2 : o.button === 'middle' ? 1 : 0;
  const buttons = button === 2 ? 2 : button === 1 ? 4 : 1;
  const m = Input.mods(o.modifiers);
  moveTo(el, p);
  const count = Math.max(1, o.clickCount ?? 1);
  for (let i = 1; i <= count; i++) {
    // The page may re-render between the press and the release; the release goes to what is now under the pointer.
    const down = fireMouse(el, 'pointerdown', p, { button, buttons, detail: i, mods: m }) && fireMouse(el, 'mousedown', p, { button, buttons, detail: i, mods: m });
    if (down && i === 1) focusTarget(el)?.focus();
    const upTarget = el.isConnected ? el : Dom.deepElementFromPoint(p.x, p.y);
    if (!upTarget) return;
    fireMouse(upTarget, 'pointerup', p, { button, detail: i, mods: m });
    fireMouse(upTarget, 'mouseup', p, { button, detail: i, mods: m });
    if (button === 0) fireMouse(upTarget, 'click', p, { button, detail: i, mods: m });
    else fireMouse(upTarget, 'auxclick', p, { button, detail: i, mods: m });
    if (button === 2 && i === 1) fireMouse(upTarget, 'contextmenu', p, { button, buttons: 0, detail: i, mods: m });
  }
  if (count === 2 && button === 0) fireMouse(el, 'dblclick', p, { detail: 2, mods: m });
}

/**
 * Once the pointer is on the target: is the target still on top? What a hover opened over it (a menu,
 * a tooltip) often closes as the pointer leaves its trigger, so a cover is checked once more after
 * ~150 ms; a target that was covered before the pointer moved keeps being checked for 0.6 s more (with
 * prepare()'s 0.4 s, the second a cover gets to clear).
 * @param {Element} el @param {boolean} wasCovered
 * @returns {Promise<Point | { cover: Element | null }>}
 */
async function settle(el, wasCovered) {
  const deadline = performance.now() + 600;
  await Input.nextFrame();
  if (!el.isConnected) return { cover: null };
  let hit = Input.hitPoint(el);
  if ('x' in hit) return hit;
  await sleep(150);
  hit = Input.hitPoint(el);
  while (!('x' in hit) && wasCovered && performance.now() < deadline && el.isConnected) {
    await Input.nextFrame();
    hit = Input.hitPoint(el);
  }
  return hit;
}

/** @param {ActionTarget} target @param {Element} el @param {Element | null} cover @param {boolean} wasCovered @returns {ToolErr} */
function coverError(target, el, cover, wasCovered) {
  const name = target.ref ?? Input.describe(el);
  if (wasCovered) return Input.coveredError(name, el, cover);
  return fail('COVERED', `${name} became covered by ${cover ? Input.describe(Input.topCover(cover, el)) : 'something'} when the pointer reached it`);
}

/** @param {ActionTarget} t */
const isPoint = (t) => typeof t.x === 'number' && !t.ref && !t.text && !t.selector;

// Trusted pointer input that reached this document: how many, and where the last press landed.
// Chrome can route CDP mouse input at an out-of-process frame's point to the parent page instead
// (seen on test/fixtures/site/pages/perception.html), so a frame confirms it received the press.
/** @type {{ moves: number, downs: number, lastDown: EventTarget | null }} */
const trustedSeen = { moves: 0, downs: 0, lastDown: null };
addEventListener('pointermove', (e) => { if (e.isTrusted) trustedSeen.moves++; }, true);
addEventListener('pointerdown', (e) => { if (e.isTrusted) { trustedSeen.downs++; trustedSeen.lastDown = e.composedPath()[0] ?? e.target; } }, true);

export { fireMouse, moveTo, syntheticClick, settle, MOUSE_ID };

Object.assign(tw.handlers, {
  /** After the pointer moved there: is the target still there and still on top? */
  'content.recheck': async (/** @type {{ target: ActionTarget, point: Point, covered?: boolean }} */ msg) => {
    const f = Input.find(msg.target);
    if (!('el' in f)) return msg.target.ref ? Input.removed(msg.target.ref) : f;
    if (!f.el.isConnected) return Input.removed(msg.target.ref ?? Input.describe(f.el));
    if (isPoint(msg.target)) return { ok: true, data: msg.point };
    const hit = await settle(f.el, msg.covered === true);
    if (!f.el.isConnected) return Input.removed(msg.target.ref ?? Input.describe(f.el));
    if ('x' in hit) return { ok: true, data: { ...hit, downs: trustedSeen.downs } };
    return coverError(msg.target, f.el, hit.cover, msg.covered === true);
  },
  /**
   * Did trusted input reach this frame since `downs` (a press) or `moves` (the pointer)? For a
   * press: true on the target; 'changed' when it reached this frame and then the element it
   * landed on or the target went (a click that re-rendered what it clicked: a dialog's next step);
   * 'elsewhere' when it landed on something else that is still here; false when it never came.
   */
  'content.trustedSeen': (/** @type {{ target: ActionTarget, downs?: number, moves?: number }} */ msg) => {
    if (typeof msg.moves === 'number') return { ok: true, data: trustedSeen.moves > msg.moves };
    if (trustedSeen.downs <= (msg.downs ?? 0)) return { ok: true, data: false };
    const f = Input.find(msg.target);
    const at = trustedSeen.lastDown;
    if (!(at instanceof Node) || !at.isConnected || !('el' in f) || !f.el.isConnected) return { ok: true, data: 'changed' };
    const onTarget = Dom.composedContains(f.el, /** @type {Element} */ (at)) || f.el.contains(at);
    return { ok: true, data: onTarget ? true : 'elsewhere' };
  },
  'content.trustedMoves': () => ({ ok: true, data: trustedSeen.moves }),
  'content.click': async (/** @type {{ ref?: string, target?: ActionTarget, button?: 'left'|'right'|'middle', clickCount?: number, modifiers?: string[] }} */ msg) => {
    const target = msg.target ?? { ref: msg.ref };
    const r = await Input.prepare(target, { coverLater: true });
    if (!('el' in r)) return r;
    if ('fallback' in r && r.fallback) {
      // A canvas's fallback control: focused and activated, as assistive technology does.
      /** @type {HTMLElement} */ (r.el).focus({ preventScroll: true });
      /** @type {HTMLElement} */ (r.el).click();
      return { ok: true, data: { clicked: target.ref ?? Input.describe(r.el), note: 'A canvas\'s fallback control: focused and activated as a screen reader does (it is not drawn, so there was no point to press).' } };
    }
    // Hover first: pages that swap content under the pointer (menus, icons) settle before the press.
    // Over a cover, the pointer lands on the cover, as a person's would.
    moveTo(r.covered ? Dom.deepElementFromPoint(r.point.x, r.point.y) ?? r.el : r.el, r.point);
    // A point target (a canvas, a map) is clicked exactly there, whatever is on top.
    const again = isPoint(target) ? r.point : await settle(r.el, r.covered === true);
    if (!r.el.isConnected) return Input.removed(target.ref ?? Input.describe(r.el));
    if (!('x' in again)) return coverError(target, r.el, again.cover, r.covered === true);
    syntheticClick(underPointer(r.el, again), again, msg);
    return { ok: true, data: { clicked: target.ref ?? Input.describe(r.el) } };
  },
  'content.hover': async (/** @type {{ target: ActionTarget }} */ msg) => {
    const r = await Input.prepare(msg.target, { allowDisabled: true });
    if (!('el' in r)) return r;
    moveTo(r.el, r.point);
    return { ok: true, data: { hovered: msg.target.ref ?? Input.describe(r.el), point: r.point } };
  },
});
