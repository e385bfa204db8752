// Drags: HTML5 drag-and-drop (the drag events with one shared DataTransfer, in both browsers: no
// browser starts a native drag from injected input) and the synthetic pointer drag Firefox relies on
// (sortable lists, sliders), with pointer capture emulated through the input hooks of content/page-world.js. Whatever
// drove the drag (CDP in Chrome, these events otherwise), dragBegin/dragCheck verify the page changed.
import { tw } from './tabwright.js';
import * as Dom from './dom.js';
import * as Input from './input.js';
import * as Pointer from './pointer.js';
import { fail } from '../../agent/error-codes.js';

/** @typedef {import('../../types/core').ActionTarget} ActionTarget */
/** @typedef {import('../../types/core').ToolErr} ToolErr */
/** @typedef {import('../../types/content').Point} Point */
const channel = tw.pageChannel.name;
/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * HTML5 drag-and-drop: browsers never start a native drag from synthetic mouse events, so fire the
 * drag events themselves with one shared DataTransfer (what html5 DnD libraries read).
 * @param {Element} src @param {Element} dst @param {Point} from @param {Point} to
 */
function html5Drag(src, dst, from, to) {
  const dt = new DataTransfer();
  /** @param {Element} el @param {string} type @param {Point} p */
  const ev = (el, type, p) => el.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, composed: true, clientX: p.x, clientY: p.y, dataTransfer: dt }));
  ev(src, 'dragstart', from);
  ev(src, 'drag', from);
  ev(dst, 'dragenter', to);
  ev(dst, 'dragover', to);
  ev(dst, 'drop', to);
  ev(src, 'dragend', to);
}

/** Are the input hooks of content/page-world.js in this page's world (a tab opened before the extension has none)? */
function hooksPresent() {
  let yes = false;
  const hear = () => { yes = true; };
  document.addEventListener(channel('input-hooks!'), hear);
  document.dispatchEvent(new CustomEvent(channel('input-hooks?')));
  document.removeEventListener(channel('input-hooks!'), hear);
  return yes;
}

/**
 * Listen for what the page-world hooks report on elements (pointer capture, file choosers): on the
 * window, and on every shadow root around `near`, where an element in a closed root is still visible.
 * @param {Element} near @param {string[]} types @param {(type: string, el: Element) => void} cb
 * @returns {() => void} stops listening
 */
function hear(near, types, cb) {
  /** @type {WeakSet<Event>} */
  const seen = new WeakSet();
  /** @param {Event} e */
  const fn = (e) => {
    if (seen.has(e)) return;
    seen.add(e);
    const el = e.composedPath()[0];
    if (el instanceof Element) cb(e.type, el);
  };
  /** @type {EventTarget[]} */
  const targets = [window];
  for (let n = /** @type {Node | null} */ (near); n; n = n instanceof ShadowRoot ? n.host : n.parentNode) if (n instanceof ShadowRoot) targets.unshift(n);
  for (const t of targets) for (const type of types) t.addEventListener(type, fn);
  return () => { for (const t of targets) for (const type of types) t.removeEventListener(type, fn); };
}

/**
 * A pointer drag as a mouse makes it (sliders, sortable lists, canvases): press, move in steps,
 * release, with the pointerId, buttons and coordinates a real mouse gives. A page that captures the
 * pointer (setPointerCapture, as SortableJS-style lists and most sliders do) gets the moves and the
 * release on the capturing element, with got/lostpointercapture; without capture they go to what is
 * under the pointer. A cancelled pointerdown suppresses the mouse events, as the spec says.
 * @param {Element} src @param {Point} from @param {Point} to
 */
async function pointerDrag(src, from, to, steps = 12) {
  const hooked = hooksPresent();
  /** @type {Element | null} */
  let captured = null;
  const stop = hear(src, [channel('pointer-capture'), channel('pointer-release')], (type, el) => { captured = type === channel('pointer-capture') ? el : null; });
  if (hooked) document.dispatchEvent(new CustomEvent(channel('capture-arm'), { detail: String(Pointer.MOUSE_ID) }));
  try {
    Pointer.moveTo(src, from);
    const mouse = Pointer.fireMouse(src, 'pointerdown', from, { button: 0, buttons: 1 });
    if (mouse) Pointer.fireMouse(src, 'mousedown', from, { button: 0, buttons: 1, detail: 1 });
    if (captured) Pointer.fireMouse(captured, 'gotpointercapture', from, { buttons: 1 });
    await Input.nextFrame();
    for (let i = 1; i <= steps; i++) {
      const p = { x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps };
      const at = captured ?? Dom.deepElementFromPoint(p.x, p.y) ?? src;
      Pointer.fireMouse(at, 'pointermove', p, { button: -1, buttons: 1 });
      if (mouse) Pointer.fireMouse(at, 'mousemove', p, { button: 0, buttons: 1 });
      await Input.nextFrame();
    }
    const end = captured ?? Dom.deepElementFromPoint(to.x, to.y) ?? src;
    Pointer.fireMouse(end, 'pointerup', to, { button: 0, buttons: 0 });
    if (mouse) Pointer.fireMouse(end, 'mouseup', to, { button: 0, buttons: 0, detail: 1 });
    if (captured) Pointer.fireMouse(captured, 'lostpointercapture', to, {});
  } finally {
    stop();
    if (hooked) document.dispatchEvent(new CustomEvent(channel('capture-disarm')));
  }
  return { captured: hooked ? Boolean(captured) : null };
}

/** @param {Element} el */
function isDraggable(el) {
  return /** @type {HTMLElement} */ (el).draggable === true || Boolean(el.closest('[draggable=true]'));
}

/** What a drag may change, in one comparable string: the document (less Tabwright's own marks), field values, scroll positions. */
function pageState() {
  const html = document.documentElement.outerHTML.replace(/ data-tw-target="\d*"/g, '');
  const values = [...document.querySelectorAll('input, select, textarea')].map((e) => /** @type {HTMLInputElement} */ (e).value).join('\u0001');
  return `${html}\u0002${values}\u0002${scrollX},${scrollY}`;
}

/** Where an element is and what it draws (a canvas's pixels, where readable). @param {Element} el */
function elementState(el) {
  const r = el.getBoundingClientRect();
  let pixels = '';
  if (el instanceof HTMLCanvasElement) { try { pixels = el.toDataURL(); } catch { /* tainted */ } }
  return `${Math.round(r.left)},${Math.round(r.top)},${Math.round(r.width)},${Math.round(r.height)},${el.isConnected},${pixels}`;
}

/** The page as it was when the drag began. @type {{ page: string, el: Element, at: string } | null} */
let before = null;

/** @param {Element} el */
function begin(el) {
  before = { page: pageState(), el, at: elementState(el) };
}

/**
 * After the drag: did anything change (order, position, a value, what a canvas shows)? Waits up to
 * ~0.8 s for the page to settle (libraries animate the drop). A drag that changed nothing failed.
 * @param {string} name @returns {Promise<import('../../types/core').ToolResult>}
 */
async function check(name) {
  const b = before;
  if (!b) return { ok: true, data: { verified: false } };
  const deadline = performance.now() + 800;
  try {
    for (;;) {
      // The element moved, or the document, a field's value or the scroll position differs.
      if (elementState(b.el) !== b.at || pageState() !== b.page) return { ok: true, data: { verified: true } };
      if (performance.now() > deadline) break;
      await sleep(80);
    }
  } finally { if (before === b) before = null; }
  return fail('DRAG_NO_EFFECT', `dragged ${name}`);
}

export { html5Drag, pointerDrag, isDraggable, hooksPresent, hear };
Object.assign(tw.handlers, {
  'content.dragPrepare': async (/** @type {{ from: ActionTarget, to: ActionTarget }} */ msg) => {
    const a = await Input.prepare(msg.from);
    if (!('el' in a)) return a;
    const b = await Input.prepare(msg.to, { allowDisabled: true });
    if (!('el' in b)) return b;
    // The source may have scrolled out of view when the target scrolled in; measure both again.
    const pa = await Input.prepare(msg.from);
    if (!('el' in pa)) return pa;
    return { ok: true, data: { from: pa.point, to: b.point, html5: isDraggable(a.el) } };
  },
  /** Remember the page before a drag, for dragCheck. */
  'content.dragBegin': (/** @type {{ from: ActionTarget }} */ msg) => {
    const f = Input.find(msg.from);
    if (!('el' in f)) return f;
    begin(f.el);
    return { ok: true, data: null };
  },
  'content.dragCheck': (/** @type {{ from: ActionTarget }} */ msg) => check(msg.from.ref ?? msg.from.text ?? msg.from.selector ?? 'the element'),
  'content.drag': async (/** @type {{ from: ActionTarget, to: ActionTarget }} */ msg) => {
    const a = await Input.prepare(msg.from);
    if (!('el' in a)) return a;
    const b = await Input.prepare(msg.to, { allowDisabled: true });
    if (!('el' in b)) return b;
    if (isDraggable(a.el)) { html5Drag(a.el, b.el, a.point, b.point); return { ok: true, data: { kind: 'html5' } }; }
    const r = await pointerDrag(a.el, a.point, b.point);
    return { ok: true, data: { kind: 'pointer', ...r } };
  },
  'content.html5Drag': async (/** @type {{ from: ActionTarget, to: ActionTarget }} */ msg) => {
    const a = Input.find(msg.from), b = Input.find(msg.to);
    if (!('el' in a)) return a;
    if (!('el' in b)) return b;
    const ra = a.el.getBoundingClientRect(), rb = b.el.getBoundingClientRect();
    html5Drag(a.el, b.el, { x: ra.x + ra.width / 2, y: ra.y + ra.height / 2 }, { x: rb.x + rb.width / 2, y: rb.y + rb.height / 2 });
    return { ok: true, data: null };
  },
});
