// A brief outline around an element on the page: the target of each agent step while the agent
// acts (content/input.js prepare), and a place the model cited in its answer when the user clicks
// the citation in the panel (content.highlight: scrolled into view first). Drawn in a closed shadow
// root that takes no pointer events, so it never changes what a click hits.
import { tw } from './tabwright.js';
import * as Input from './input.js';

/** @type {HTMLElement | null} */
let host = null;
/** @type {ShadowRoot | null} */
let root = null;
const tag = `tw-${Math.random().toString(36).slice(2, 10)}`;
const CSS = `
  :host { all: initial; }
  .box { position: fixed; box-sizing: border-box; border: 3px solid #2f5bea; border-radius: 4px; background: rgba(47, 91, 234, .12);
    box-shadow: 0 0 0 4px rgba(47, 91, 234, .25); pointer-events: none; transition: opacity .4s ease; }
  .box.cite { border-color: #e0a100; background: rgba(255, 200, 0, .18); box-shadow: 0 0 0 4px rgba(255, 200, 0, .3); }
  .box.gone { opacity: 0; }
  @media (prefers-reduced-motion: reduce) { .box { transition: none; } }`;

function ensure() {
  if (host?.isConnected && root) return root;
  host = document.createElement(tag);
  host.setAttribute('style', 'all: initial !important; position: fixed !important; inset: 0 !important; pointer-events: none !important; z-index: 2147483646 !important; display: block !important;');
  root = host.attachShadow({ mode: 'closed' });
  const style = document.createElement('style');
  style.textContent = CSS;
  root.append(style);
  document.documentElement.append(host);
  return root;
}

/** Outline an element for a moment. @param {Element} el @param {{ cite?: boolean, ms?: number }} [opts] */
function flash(el, opts = {}) {
  const r = el.getBoundingClientRect();
  if (!r.width && !r.height) return;
  const box = document.createElement('div');
  box.className = `box${opts.cite ? ' cite' : ''}`;
  Object.assign(box.style, { left: `${r.left - 3}px`, top: `${r.top - 3}px`, width: `${r.width + 6}px`, height: `${r.height + 6}px` });
  ensure().append(box);
  const ms = opts.ms ?? 700;
  setTimeout(() => box.classList.add('gone'), ms);
  setTimeout(() => { box.remove(); if (root && root.childElementCount <= 1) { host?.remove(); host = null; root = null; } }, ms + 450);
}

export { flash };
Object.assign(tw.handlers, {
  /** A place the model cited: scrolled to and outlined for two seconds. */
  'content.highlight': (/** @type {{ target: any }} */ msg) => {
    const found = Input.find(msg.target);
    if (!('el' in found)) return found;
    found.el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    flash(found.el, { cite: true, ms: 2000 });
    return { ok: true, data: { shown: true } };
  },
});
