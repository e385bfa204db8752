// The element picker (ask_user_which_element): an overlay highlights what is under the pointer;
// ArrowUp/ArrowDown move to the parent/child, a click chooses, Escape cancels. Returns a ref, a
// CSS selector, the text and the bounding box of the chosen element.
import { tw } from './tabwright.js';
import * as Dom from './dom.js';
import * as Input from './input.js';
import * as Outline from './outline.js';
import * as Refs from './refs.js';
import { fail } from '../../agent/error-codes.js';

/** @typedef {import('../../types/core').ToolResult} ToolResult */

/** A selector that finds el again: its id, or a path of tag:nth-of-type steps. @param {Element} el */
function selectorOf(el) {
  if (el.id && document.querySelectorAll(`#${CSS.escape(el.id)}`).length === 1) return `#${CSS.escape(el.id)}`;
  const steps = [];
  for (let e = /** @type {Element | null} */ (el); e && e !== document.documentElement; e = e.parentElement) {
    if (e.id && document.querySelectorAll(`#${CSS.escape(e.id)}`).length === 1) { steps.unshift(`#${CSS.escape(e.id)}`); break; }
    const same = e.parentElement ? [...e.parentElement.children].filter((c) => c.tagName === e?.tagName) : [];
    steps.unshift(same.length > 1 ? `${e.tagName.toLowerCase()}:nth-of-type(${same.indexOf(e) + 1})` : e.tagName.toLowerCase());
  }
  return steps.join(' > ');
}

/**
 * The outline's ref for el: build the outline (which registers refs), then ask the registry
 * (content/refs.js). null when the element is not actionable enough to carry one.
 * @param {Element} el
 */
function refOf(el) {
  Outline.build();
  return Refs.refOf(el) ?? null;
}

/** @type {Promise<ToolResult> | null} */
let active = null;

/** @param {string} [message] @param {number} [timeoutMs] @returns {Promise<ToolResult>} */
function pick(message, timeoutMs = 120_000) {
  if (active) return Promise.resolve(fail('PICKER_BUSY'));
  active = new Promise((resolve) => {
    const host = document.createElement('tabwright-picker');
    const root = host.attachShadow({ mode: 'closed' });
    root.innerHTML = `<style>
      .box{position:fixed;pointer-events:none;border:2px solid #2563eb;background:rgba(37,99,235,.12);z-index:2147483647;border-radius:2px;transition:all 40ms}
      .tip{position:fixed;left:50%;top:12px;transform:translateX(-50%);z-index:2147483647;background:#111827;color:#fff;font:13px system-ui,sans-serif;padding:8px 12px;border-radius:6px;pointer-events:none;max-width:80vw}
      .label{position:fixed;z-index:2147483647;background:#2563eb;color:#fff;font:11px monospace;padding:1px 4px;pointer-events:none}
    </style><div class="box"></div><div class="label"></div><div class="tip"></div>`;
    const box = /** @type {HTMLElement} */ (root.querySelector('.box'));
    const label = /** @type {HTMLElement} */ (root.querySelector('.label'));
    /** @type {HTMLElement} */ (root.querySelector('.tip')).textContent = `${message ? `${message} · ` : ''}Click an element to choose it · ↑/↓ parent/child · Esc to cancel`;
    document.documentElement.append(host);
    /** @type {Element | null} */
    let current = null;
    /** @type {Element[]} */
    let downStack = [];

    /** @param {Element | null} el */
    function show(el) {
      current = el;
      if (!el) { box.style.display = label.style.display = 'none'; return; }
      const r = el.getBoundingClientRect();
      Object.assign(box.style, { display: 'block', left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px` });
      Object.assign(label.style, { display: 'block', left: `${r.left}px`, top: `${Math.max(0, r.top - 16)}px` });
      label.textContent = Input.describe(el).slice(0, 60);
    }
    /** @param {MouseEvent} e */
    const onMove = (e) => { const el = Dom.deepElementFromPoint(e.clientX, e.clientY); if (el && el !== host) { downStack = []; show(el); } };
    /** @param {Event} e */
    const swallow = (e) => { e.preventDefault(); e.stopPropagation(); e.stopImmediatePropagation(); };
    /** @param {MouseEvent} e */
    const onClick = (e) => {
      swallow(e);
      const el = current ?? Dom.deepElementFromPoint(e.clientX, e.clientY);
      if (el) finish(el); else finish(null);
    };
    /** @param {KeyboardEvent} e */
    const onKey = (e) => {
      if (e.key === 'Escape') { swallow(e); finish(null); }
      else if (e.key === 'ArrowUp' && current?.parentElement && current.parentElement !== document.documentElement) { swallow(e); downStack.push(current); show(current.parentElement); }
      else if (e.key === 'ArrowDown' && current) { swallow(e); show(downStack.pop() ?? current.firstElementChild ?? current); }
      else if (e.key === 'Enter' && current) { swallow(e); finish(current); }
    };
    const timer = setTimeout(() => finish(null, true), timeoutMs);
    const opts = { capture: true };
    addEventListener('mousemove', onMove, opts);
    addEventListener('click', onClick, opts);
    for (const t of ['mousedown', 'mouseup', 'pointerdown', 'pointerup']) addEventListener(t, swallow, opts);
    addEventListener('keydown', onKey, opts);

    /** @param {Element | null} el @param {boolean} [timedOut] */
    function finish(el, timedOut = false) {
      clearTimeout(timer);
      removeEventListener('mousemove', onMove, opts);
      removeEventListener('click', onClick, opts);
      for (const t of ['mousedown', 'mouseup', 'pointerdown', 'pointerup']) removeEventListener(t, swallow, opts);
      removeEventListener('keydown', onKey, opts);
      host.remove();
      active = null;
      if (!el) {
        resolve(timedOut ? fail('PICKER_TIMEOUT') : fail('CANCELLED', 'the user closed the element picker with Esc; ask them what they meant instead'));
        return;
      }
      const r = el.getBoundingClientRect();
      resolve({ ok: true, data: {
        ref: refOf(el), selector: selectorOf(el), tag: el.tagName.toLowerCase(),
        text: Dom.clean(/** @type {HTMLElement} */ (el).innerText ?? el.textContent).slice(0, 300),
        box: { x: Math.round(r.left + scrollX), y: Math.round(r.top + scrollY), width: Math.round(r.width), height: Math.round(r.height) },
      } });
    }
  });
  return active;
}

export { pick };
Object.assign(tw.handlers, {
  'content.pick': (/** @type {{ message?: string, timeoutMs?: number }} */ msg) => pick(msg.message, msg.timeoutMs),
});
