// Scrolling: the page, a scrollable element, or, when the document itself does not scroll (app
// layouts), the largest visible scrolling pane; to a target, by an amount, to an end, or until a text
// appears (infinite scroll, virtualised lists).
import { tw } from './tabwright.js';
import * as Dom from './dom.js';
import * as Input from './input.js';
import { fail } from '../../agent/error-codes.js';

/** @typedef {import('../../types/core').ToolResult} ToolResult */
/** @typedef {import('../../types/core').ActionTarget} ActionTarget */
/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));


/** The nearest scrollable ancestor (or the page). @param {Element} el */
function scroller(el) {
  for (let e = /** @type {Element | null} */ (el); e && e !== document.documentElement; e = e.parentElement) {
    const s = getComputedStyle(e);
    if (/(auto|scroll)/.test(s.overflowY + s.overflowX) && (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1)) return e;
  }
  return document.scrollingElement ?? document.documentElement;
}

/** Count of elements now in the document, to tell whether scrolling loaded more. */
const domSize = () => document.getElementsByTagName('*').length;

/** The element showing the text, when it is inside the viewport both ways. @param {string} text */
function textVisible(text) {
  const el = Input.find({ text });
  if (!('el' in el)) return null;
  const r = el.el.getBoundingClientRect();
  return r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth ? el.el : null;
}

/**
 * Scroll the page or an element; with toText, keep scrolling until that text is visible (infinite
 * scroll and virtualised lists only create rows near the viewport). Without a target the page
 * scrolls, or, when the document itself does not (an app layout: html and body 100% high with
 * overflow hidden), the largest visible scrollable pane.
 * @param {{ target?: ActionTarget, direction?: 'up'|'down'|'left'|'right', amount?: number, to?: 'top'|'bottom', toText?: string, maxScrolls?: number }} msg
 * @returns {Promise<ToolResult>}
 */
async function scroll(msg) {
  const horizontal = msg.direction === 'left' || msg.direction === 'right';
  /** @type {Element} */
  let box = pageBox(horizontal);
  if (msg.target) {
    const f = Input.find(msg.target);
    if (!('el' in f)) return f;
    if (!msg.direction && !msg.to && !msg.toText) {
      f.el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      await Input.nextFrame();
      return { ok: true, data: { scrolledTo: msg.target.ref ?? Input.describe(f.el), ...where(scroller(f.el)) } };
    }
    box = scroller(f.el) === f.el || isScrollable(f.el) ? f.el : scroller(f.el);
  }
  if (msg.toText) return scrollUntil(box, msg.toText, msg);
  const before = domSize();
  const page = isPage(box);
  const step = msg.amount ?? Math.round((page ? (horizontal ? innerWidth : innerHeight) : horizontal ? box.clientWidth : box.clientHeight) * 0.8);
  if (msg.to === 'top') { if (page) scrollTo({ top: 0, behavior: 'instant' }); else box.scrollTop = 0; }
  else if (msg.to === 'bottom') { if (page) scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }); else box.scrollTop = box.scrollHeight; }
  else {
    const d = msg.direction ?? 'down';
    scrollBox(box, d === 'left' ? -step : d === 'right' ? step : 0, d === 'up' ? -step : d === 'down' ? step : 0);
  }
  await waitStable(box);
  return { ok: true, data: { ...where(box, horizontal), loadedMore: domSize() > before } };
}

/** @param {Element} box */
const isPage = (box) => box === document.scrollingElement || box === document.documentElement;

/** @param {Element} box @param {number} dx @param {number} dy */
function scrollBox(box, dx, dy) {
  if (isPage(box)) scrollBy({ left: dx, top: dy, behavior: 'instant' }); else box.scrollBy({ left: dx, top: dy, behavior: 'instant' });
}

/**
 * Keep scrolling box until the text is on screen, waiting after each step for rows to load; down
 * unless the direction says otherwise (a 2-D virtual grid creates its columns only as they near
 * the viewport, so a column far right is found by scrolling right).
 * @param {Element} box @param {string} text @param {{ direction?: string, amount?: number, maxScrolls?: number }} msg @returns {Promise<ToolResult>}
 */
async function scrollUntil(box, text, msg) {
  const before = domSize();
  const page = isPage(box);
  const horizontal = msg.direction === 'left' || msg.direction === 'right';
  const back = msg.direction === 'up' || msg.direction === 'left';
  const step = msg.amount ?? Math.round((page ? (horizontal ? innerWidth : innerHeight) : horizontal ? box.clientWidth : box.clientHeight) * 0.8);
  const pos = () => (horizontal ? (page ? scrollX : box.scrollLeft) : (page ? scrollY : box.scrollTop));
  const end = () => (horizontal ? box.scrollWidth - box.clientWidth : box.scrollHeight - box.clientHeight);
  const max = msg.maxScrolls ?? 40;
  for (let i = 0; i <= max; i++) {
    const el = textVisible(text);
    if (el) { el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' }); return { ok: true, data: { found: text, scrolls: i, ...where(box, horizontal), loadedMore: domSize() > before } }; }
    const at = pos();
    const d = back ? -step : step;
    scrollBox(box, horizontal ? d : 0, horizontal ? 0 : d);
    // Wait for the page's scroll handlers (and any rows they fetch) to render.
    await waitStable(box);
    if (pos() === at && !textVisible(text)) {
      await sleep(400);
      const stuck = back ? at <= 0 : end() <= at + 1;
      if (pos() === at && stuck && !textVisible(text)) break;
    }
  }
  const way = msg.direction ?? 'down';
  return fail('NOT_FOUND', `scrolled ${way} to the end without finding "${text}"`, { retryable: false });
}

/**
 * How far the user can scroll the document itself that way: 0 when it does not overflow or html/body
 * hide the overflow. @param {boolean} horizontal
 */
function documentRange(horizontal) {
  const root = document.scrollingElement ?? document.documentElement;
  const range = horizontal ? root.scrollWidth - innerWidth : root.scrollHeight - innerHeight;
  if (range <= 1) return 0;
  const prop = horizontal ? 'overflowX' : 'overflowY';
  const html = getComputedStyle(document.documentElement)[prop];
  // The body's overflow applies to the viewport only while the root's is visible.
  const body = document.body && html === 'visible' ? getComputedStyle(document.body)[prop] : 'visible';
  return /hidden|clip/.test(html) || /hidden|clip/.test(body) ? 0 : range;
}

/**
 * The largest visible element the user can scroll that way: an app's main pane.
 * @param {boolean} horizontal @returns {Element | null}
 */
function mainPane(horizontal) {
  /** @type {Element | null} */
  let best = null, area = 0;
  for (const el of Dom.deepElements(document)) {
    if (horizontal ? el.scrollWidth <= el.clientWidth + 1 : el.scrollHeight <= el.clientHeight + 1) continue;
    const s = getComputedStyle(el);
    if (!/(auto|scroll)/.test(horizontal ? s.overflowX : s.overflowY) || s.visibility === 'hidden') continue;
    const r = el.getBoundingClientRect();
    const w = Math.min(r.right, innerWidth) - Math.max(r.left, 0), h = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
    if (w > 0 && h > 0 && w * h > area) { best = el; area = w * h; }
  }
  return best;
}

/**
 * What a scroll without a target moves: the page; or, when the document does not scroll (or only by
 * a margin's worth), its main pane: one covering a quarter of the viewport (half, when the document
 * scrolls a little), not a code block or a small list.
 * @param {boolean} horizontal
 */
function pageBox(horizontal) {
  const root = document.scrollingElement ?? document.documentElement;
  const range = documentRange(horizontal);
  if (range > (horizontal ? innerWidth : innerHeight) / 4) return root;
  const pane = mainPane(horizontal);
  if (!pane) return root;
  const r = pane.getBoundingClientRect();
  const shown = (Math.min(r.right, innerWidth) - Math.max(r.left, 0)) * (Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
  const paneRange = horizontal ? pane.scrollWidth - pane.clientWidth : pane.scrollHeight - pane.clientHeight;
  return shown >= (innerWidth * innerHeight) / (range === 0 ? 4 : 2) && paneRange > range ? pane : root;
}

/** @param {Element} el */
function isScrollable(el) {
  const s = getComputedStyle(el);
  return /(auto|scroll)/.test(s.overflowY + s.overflowX);
}

/** Waits until the DOM stops growing for a couple of frames (up to 1.5 s). @param {Element} box */
async function waitStable(box) {
  let size = domSize(), h = box.scrollHeight, quiet = 0;
  const deadline = performance.now() + 1500;
  while (quiet < 3 && performance.now() < deadline) {
    await sleep(50);
    const s = domSize(), nh = box.scrollHeight;
    if (s === size && nh === h) quiet++; else { quiet = 0; size = s; h = nh; }
  }
}

/** Where box stands now; sideways, the horizontal position too. @param {Element} box @param {boolean} [horizontal] */
function where(box, horizontal = false) {
  const page = isPage(box);
  const top = page ? scrollY : box.scrollTop;
  const max = (page ? document.documentElement.scrollHeight - innerHeight : box.scrollHeight - box.clientHeight);
  const at = { scrollY: Math.round(top), maxScrollY: Math.max(0, Math.round(max)), atEnd: top >= max - 2, container: page ? 'page' : Input.describe(box) };
  if (!horizontal) return at;
  const left = page ? scrollX : box.scrollLeft;
  const maxX = page ? document.documentElement.scrollWidth - innerWidth : box.scrollWidth - box.clientWidth;
  return { ...at, scrollX: Math.round(left), maxScrollX: Math.max(0, Math.round(maxX)), atEnd: left >= maxX - 2 };
}

export { scroll };
Object.assign(tw.handlers, {
  'content.scroll': (/** @type {Parameters<typeof scroll>[0]} */ msg) => scroll(msg),
});
