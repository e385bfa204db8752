// Finding a target (ref, visible text, selector or point) and checking it can be acted on (connected,
// visible, enabled, not covered), scrolling it into view. The synthetic pointer sequences live in
// content/pointer.js and the keyboard and typing in content/keys.js.
// Resolves refs through outline.js's resolve only; the ref registry belongs to outline.js.
import { tw } from './tabwright.js';
import { shadowOf, deepElements, deepElementFromPoint, composedContains, clean, visibleBox, INTERACTIVE, parentOf } from './dom.js';
import * as Accname from './accname.js';
import * as Actionable from './actionable.js';
import * as Highlight from './highlight.js';
import * as Indicator from './indicator.js';
import * as Outline from './outline.js';
import * as Refs from './refs.js';
import * as Secrets from './secrets.js';
import { fail } from '../../agent/error-codes.js';

/** @typedef {import('../../types/core').ToolResult} ToolResult */
/** @typedef {import('../../types/core').ToolErr} ToolErr */
/** @typedef {import('../../types/core').ActionTarget} ActionTarget */

// The flat-tree walks, visibility and whitespace are the DOM toolkit's (content/dom.js).

/** A short human name for an element, for errors ("div#cookie-banner \"We use cookies\""). @param {Element} el */
function describe(el) {
  const id = el.id ? `#${el.id}` : '';
  const cls = !id && typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/)[0]}` : '';
  // A secret field's text (a textarea's content) is its value: only its aria-label names it.
  const own = Secrets.isSecretField(el) ? '' : /** @type {HTMLElement} */ (el).innerText || el.textContent;
  // Text in a shadow root (a slot's assigned text, a closed root's content) is not innerText: the accessible name says it.
  const label = clean(el.getAttribute('aria-label') || own || Accname.name(el)).slice(0, 60);
  return `${el.tagName.toLowerCase()}${id}${cls}${label ? ` "${label}"` : ''}`;
}



/** The element whose own visible text (or label) matches; prefers exact over partial, interactive over not, then the smallest. @param {string} text */
function byText(text) {
  const want = clean(text).toLowerCase();
  const bare = want.replace(/\s+/g, '');
  /** @type {{ el: Element, score: number }[]} */
  const hits = [];
  for (const el of deepElements(document)) {
    if (['SCRIPT', 'STYLE', 'HEAD', 'TEMPLATE', 'NOSCRIPT'].includes(el.tagName)) continue;
    // Cheap filter first: innerText forces layout, so only candidates whose raw text could match pay for it.
    const label = el.getAttribute('aria-label');
    // Compared without whitespace: <br> and block boundaries add spaces to innerText that textContent lacks.
    if (!(label || el instanceof HTMLInputElement || (el.textContent ?? '').toLowerCase().replace(/\s+/g, '').includes(bare))) continue;
    const own = clean(el.getAttribute('aria-label') || (el instanceof HTMLInputElement && ['button', 'submit', 'reset'].includes(el.type) ? el.value : '') || /** @type {HTMLElement} */ (el).innerText || el.textContent).toLowerCase();
    if (!own || !own.includes(want)) continue;
    if (!visibleBox(el)) continue;
    const exact = own === want;
    const interactive = el.matches(INTERACTIVE);
    hits.push({ el, score: (exact ? 2 : 0) + (interactive ? 1 : 0) - own.length / 10_000 });
  }
  if (!hits.length) return null;
  // Among equal scores, the deepest wins: a button's text also matches its container.
  hits.sort((a, b) => b.score - a.score);
  const best = hits.filter((h) => h.score === hits[0].score);
  let pick = best[0].el;
  for (const h of best) if (composedContains(pick, h.el)) pick = h.el;
  // A text node inside a link or button acts through it.
  const target = pick.closest(INTERACTIVE) ?? pick;
  // A field's label names the field: set_field, type and select_option act on the control it labels
  // (a control hidden behind a styled label keeps the label, whose click reaches it).
  if (target instanceof HTMLLabelElement && target.control && visibleBox(target.control)) return target.control;
  return target;
}

/** @param {string} selector */
function bySelector(selector) {
  try {
    const direct = document.querySelector(selector);
    if (direct) return direct;
    for (const el of deepElements(document)) { const sr = shadowOf(el); const hit = sr?.querySelector(selector); if (hit) return hit; }
  } catch { /* invalid selector: reported below */ }
  return null;
}

/**
 * @param {ActionTarget} t
 * @returns {{ el: Element } | ToolErr}
 */
function find(t) {
  if (t.ref) {
    const el = Outline.resolve(t.ref);
    if (!el) return fail('STALE_REF', `${t.ref} is not on the page any more: it re-rendered or navigated`, { retryable: true });
    return { el };
  }
  if (t.selector) {
    const el = bySelector(t.selector);
    return el ? { el } : fail('NOT_FOUND', `the selector ${t.selector}`);
  }
  if (t.text) {
    const el = byText(t.text);
    return el ? { el } : fail('NOT_FOUND', `no visible element shows the text "${t.text}"; scroll, or use a ref`);
  }
  if (typeof t.x === 'number' && typeof t.y === 'number') {
    const el = deepElementFromPoint(t.x, t.y);
    return el ? { el } : fail('NOT_FOUND', `nothing at (${t.x}, ${t.y}) in the viewport`);
  }
  return fail('INVALID_ARGUMENTS', 'name the target with ref, text, selector, or both x and y');
}

/** @param {Element} el */
function isDisabled(el) {
  if (/** @type {HTMLButtonElement} */ (el).disabled) return true;
  if (el.closest('[aria-disabled=true]')) return true;
  return Boolean(el.closest('fieldset[disabled]') && el.matches('button,input,select,textarea'));
}

// A background tab (a scheduled job's, or the page behind the panel) renders no frames and
// throttles timers to one a second: there a message-channel task stands in for both, so typing and
// clicking do not slow to a crawl. In a visible tab one frame lets :hover and pointer handlers settle.
const channel = new MessageChannel();
/** @type {(() => void)[]} */
const waiting = [];
channel.port1.onmessage = () => waiting.shift()?.();
/** @returns {Promise<void>} the next task, unthrottled even in a background tab */
const nextTask = () => new Promise((r) => { waiting.push(() => r()); channel.port2.postMessage(null); });
// A tab behind another one may still say it is visible (an occluded window, Chromium headless) yet
// draw no frames: a frame that does not come within 50 ms is not waited for longer.
const nextFrame = () => (document.hidden ? nextTask() : new Promise((r) => { requestAnimationFrame(() => r(undefined)); setTimeout(r, 50); }));

/** Points to try, as fractions of the box: the centre, four insets, then where a row's or a tree item's label sits. */
const POINTS = [[0.5, 0.5], [0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75], [0.1, 0.5], [0.1, 0.1], [0.5, 0.1]];

/**
 * The point to act at: the first of the centre and four inset points where the target itself is
 * topmost, preferring one that is not on a control inside it (a tree item's centre is often its
 * first child item, a column's a card, a row's its icon button); otherwise what covers it.
 * @param {Element} el @returns {{ x: number, y: number } | { cover: Element | null }}
 */
function hitPoint(el) {
  const r = el.getBoundingClientRect();
  const vw = innerWidth, vh = innerHeight;
  /** @type {Element | null} */
  let cover = null;
  /** @type {{ x: number, y: number } | null} */
  let onInner = null;
  for (let i = 0; i < POINTS.length; i++) {
    // The points past the first five only look for the target's own content beside its controls.
    if (i >= 5 && !onInner) break;
    const [fx, fy] = POINTS[i];
    const x = Math.min(Math.max(r.left + r.width * fx, 1), vw - 1), y = Math.min(Math.max(r.top + r.height * fy, 1), vh - 1);
    const p = { x: Math.round(x * 100) / 100, y: Math.round(y * 100) / 100 };
    const hit = deepElementFromPoint(x, y);
    // A label forwards its clicks to its control, so a control covered by its own label is fine.
    if (hit && hit.closest('label')?.control === el) return p;
    if (hit && composedContains(el, hit)) {
      if (!innerControl(el, hit)) return p;
      onInner ??= p;
    } else cover ??= hit;
  }
  return onInner ?? { cover };
}

/**
 * Whether what is hit inside el belongs to another target within it: a control, or an element
 * the outline gave a ref of its own. @param {Element} el @param {Element} hit
 */
function innerControl(el, hit) {
  const refs = Refs;
  for (let e = /** @type {Element | null} */ (hit); e && e !== el; e = parentOf(e)) {
    if (e.matches(INTERACTIVE) || refs?.refOf(e)) return true;
  }
  return false;
}

/**
 * Resolve, scroll into view and check a target; waits up to ~1 s for it to become visible and uncovered
 * (animations, transitions), as a person would. With coverLater (a click), a target still covered after
 * 0.4 s answers its centre and `covered`: the click moves the pointer there, which closes what a previous
 * hover opened over it (a tooltip that hides when the pointer leaves its trigger), and checks the cover
 * again then (content/pointer.js settle). Covers that clear by themselves (a fading toast, which hovering
 * could pause) get those 0.4 s without the pointer on them.
 * @param {ActionTarget} t @param {{ needPoint?: boolean, allowDisabled?: boolean, coverLater?: boolean }} [opts]
 * @returns {Promise<{ el: Element, point: { x: number, y: number }, covered?: boolean } | ToolErr>}
 */
async function prepare(t, opts = {}) {
  const ready = await prepareTarget(t, opts);
  // While the agent acts (its indicator shows), the person sees what it is about to act on.
  if ('el' in ready && Indicator.state().shown) Highlight.flash(ready.el);
  return ready;
}

/**
 * @param {ActionTarget} t @param {{ needPoint?: boolean, allowDisabled?: boolean, coverLater?: boolean }} opts
 * @returns {Promise<{ el: Element, point: { x: number, y: number }, covered?: boolean, fallback?: boolean } | ToolErr>}
 */
async function prepareTarget(t, opts) {
  const found = find(t);
  if (!('el' in found)) return found;
  let el = found.el;
  const name = t.ref ?? describe(el);
  if (!opts.allowDisabled && isDisabled(el)) return fail('DISABLED', `${name}; complete what enables it first, for example required fields`);
  if (typeof t.x === 'number' && typeof t.y === 'number' && !t.ref && !t.text && !t.selector) return { el, point: { x: t.x, y: t.y } };
  // A canvas's fallback content is never drawn (no box, or under the canvas): it is reached as
  // assistive technology reaches it, by focus, so there is no point to press at.
  const canvas = canvasFallback(el);
  if (canvas) return { el, point: centreOf(canvas.getBoundingClientRect()), fallback: true };
  const deadline = performance.now() + 1000, moveAt = performance.now() + 400;
  let centred = false;
  /** @type {ToolErr | null} */
  let last = null;
  // "nearest" scrolls every scrolling ancestor only as far as needed, and not at all when the target is in view.
  el.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
  for (;;) {
    if (!el.isConnected) {
      // Virtualised lists re-create rows on scroll: a target named by text or selector is found again.
      const again = t.ref ? null : find(t);
      if (!again || !('el' in again)) return removed(name);
      el = again.el;
    }
    const box = visibleBox(el);
    if (!box) {
      last = fail('NOT_VISIBLE', `${name}, hidden or zero-sized; open what reveals it (a menu, a tab, hover), then retry`);
    } else {
      if (opts.needPoint === false) return { el, point: { x: 0, y: 0 } };
      const hit = hitPoint(el);
      if ('x' in hit) return { el, point: hit };
      if (!centred) {
        // Partly clipped or under a sticky header: centring usually clears it.
        centred = true;
        el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
        continue;
      }
      if (opts.coverLater && performance.now() > moveAt) return { el, point: centreOf(box), covered: true };
      last = coveredError(name, el, hit.cover);
    }
    if (performance.now() > deadline) return last;
    await nextFrame();
  }
}

/** The canvas whose fallback content el is part of, if any. @param {Element} el @returns {Element | null} */
function canvasFallback(el) {
  const c = el.parentElement?.closest('canvas');
  return c ?? null;
}

/** The centre of a box, kept inside the viewport. @param {DOMRect} r */
function centreOf(r) {
  const x = Math.min(Math.max(r.left + r.width / 2, 1), innerWidth - 1), y = Math.min(Math.max(r.top + r.height / 2, 1), innerHeight - 1);
  return { x: Math.round(x * 100) / 100, y: Math.round(y * 100) / 100 };
}

/** @param {string} name @param {Element} el @param {Element | null} cover @returns {ToolErr} */
function coveredError(name, el, cover) {
  const what = cover ? describe(topCover(cover, el)) : 'something outside the page';
  return fail('COVERED', `${name} is covered by ${what}; dismiss it (for example its close or accept button), then retry`);
}

/** Report the outermost covering element that does not contain the target: the overlay, not its inner text. @param {Element} hit @param {Element} target */
function topCover(hit, target) {
  let c = hit;
  while (c.parentElement && c.parentElement !== document.body && !composedContains(c.parentElement, target)) c = c.parentElement;
  return c;
}

/** @param {string} name @returns {ToolErr} */
function removed(name) {
  return fail('ELEMENT_REMOVED', `${name}, while Tabwright was acting on it (the page re-rendered); retry with the new ref`, { retryable: true });
}


/** @typedef {{ ctrl?: boolean, shift?: boolean, alt?: boolean, meta?: boolean }} Mods */
/** @param {string[] | undefined} list @returns {Mods} */
function mods(list) {
  const m = new Set((list ?? []).map((s) => s.toLowerCase()));
  return { ctrl: m.has('control') || m.has('ctrl'), shift: m.has('shift'), alt: m.has('alt'), meta: m.has('meta') || m.has('command') };
}

let leaving = false;
addEventListener('beforeunload', () => { leaving = true; });
addEventListener('pagehide', () => { leaving = true; });

/** Mark the element so the background can address it through CDP (DOM.querySelector) without a second lookup. @param {Element} el */
function mark(el) {
  const id = String(Math.random()).slice(2, 10);
  el.setAttribute('data-tw-target', id);
  setTimeout(() => el.removeAttribute('data-tw-target'), 5000);
  return `[data-tw-target="${id}"]`;
}

// content/pointer.js and content/keys.js hold the synthetic pointer and keyboard.
export { nextTask, nextFrame, mark, find, prepare, canvasFallback, hitPoint, coveredError, topCover, describe, mods, removed, leaving };

Object.assign(tw.handlers, {
  /** Resolve and check a target; answers its viewport point for trusted input. */
  'content.prepare': async (/** @type {{ target: ActionTarget, needPoint?: boolean, mark?: boolean, coverLater?: boolean }} */ msg) => {
    const r = await prepare(msg.target, { needPoint: msg.needPoint, coverLater: msg.coverLater });
    if (!('el' in r)) return r;
    return { ok: true, data: { point: r.point, covered: r.covered, fallback: 'fallback' in r ? r.fallback : undefined, name: msg.target.ref ?? describe(r.el), selector: msg.mark ? mark(r.el) : undefined, tag: r.el.tagName.toLowerCase(), type: /** @type {HTMLInputElement} */ (r.el).type ?? null } };
  },
  /** Mark an element (even a hidden file input) for CDP, without the visibility checks. */
  'content.mark': (/** @type {{ target: ActionTarget }} */ msg) => {
    const f = find(msg.target);
    if (!('el' in f)) return f;
    return { ok: true, data: { selector: mark(f.el), tag: f.el.tagName.toLowerCase(), type: /** @type {HTMLInputElement} */ (f.el).type ?? null } };
  },
  /**
   * What a target is, for the safety policy: the actionable element it names (for a point, the one
   * under it), its role and name, and whether it is a secret field. Resolves without acting.
   */
  'content.targetInfo': (/** @type {{ target: ActionTarget }} */ msg) => {
    const f = find(msg.target);
    if (!('el' in f)) return f;
    const el = f.el.closest('button, a[href], input, select, textarea, summary, label, [role], [onclick], [contenteditable=""], [contenteditable=true]') ?? f.el;
    const role = Actionable.roleFor(el) || el.localName;
    const name = Actionable.nameFor(el, role, 'target') || describe(el);
    const secretField = Secrets.isSecretField(el.localName === 'label' ? /** @type {HTMLLabelElement} */ (el).control ?? el : el);
    return { ok: true, data: { role, name: String(name).slice(0, 200), secretField } };
  },
});
