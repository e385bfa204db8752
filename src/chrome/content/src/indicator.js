// The on-page indicator while the agent acts: a border around the viewport and a Stop button.
// It lives in a closed shadow root under an element with a random name, with its position forced
// by inline !important styles, so page CSS can neither restyle, hide nor select it by name. While
// it is shown it keeps itself on top: removed by the page, it comes back; covered (a later element
// at the top z-index, a modal dialog or popover in the top layer), it is raised above again.
import { tw } from './tabwright.js';

/** @type {HTMLElement | null} */
let host = null;
/** @type {HTMLButtonElement | null} */
let stop = null;
/** @type {HTMLSpanElement | null} */
let labelEl = null;
/** Who acts, when it is not Tabwright's own run: "Driven by Claude Code" (an MCP client, docs/MCP.md). */
let driver = '';
const tag = `tw-${Math.random().toString(36).slice(2, 10)}`;

const CSS = `
  :host { all: initial; }
  .frame { position: fixed; inset: 0; pointer-events: none; border: 3px solid #2f5bea;
    box-shadow: inset 0 0 18px rgba(47, 91, 234, .45); box-sizing: border-box; }
  .bar { position: fixed; inset-block-end: 14px; inset-inline-start: 50%; transform: translateX(-50%);
    display: flex; align-items: center; gap: 10px; padding: 6px 8px 6px 14px; border-radius: 999px;
    background: #16181c; color: #fff; font: 13px/1.3 system-ui, sans-serif; pointer-events: auto;
    box-shadow: 0 4px 16px rgba(0,0,0,.3); }
  .dot { width: 8px; height: 8px; border-radius: 50%; background: #7b9bff; animation: pulse 1.2s infinite; }
  @keyframes pulse { 50% { opacity: .3; } }
  @media (prefers-reduced-motion: reduce) { .dot { animation: none; } }
  button { all: initial; font: 600 13px system-ui, sans-serif; color: #fff; background: #c62828;
    padding: 5px 14px; border-radius: 999px; cursor: pointer; }
  button:focus-visible { outline: 2px solid #fff; outline-offset: 2px; }`;

/** How often a shown indicator checks that it is still there and on top. */
const WATCH_MS = 250;
/** @type {ReturnType<typeof setInterval> | null} */
let watch = null;

/** @type {{ disconnect(): void, onDisconnect: { addListener(fn: () => void): void } } | null} */
let lifeline = null;

/** @param {string} [by] the MCP client acting in this tab, if any */
function show(by) {
  driver = typeof by === 'string' ? by.slice(0, 100) : '';
  if (labelEl) labelEl.textContent = labelText();
  holdLifeline();
  if (host?.isConnected) return;
  if (host) { place(host); return; }
  build();
  watch ??= setInterval(keepOnTop, WATCH_MS);
}

/**
 * A connection to Tabwright's background held while the indicator shows: should the background
 * die mid-run (Chrome stops its worker, the extension is reloaded), the connection drops and the
 * indicator leaves with it rather than claim a run that is no longer there.
 */
function holdLifeline() {
  if (lifeline) return;
  try {
    const port = /** @type {any} */ (globalThis).browser?.runtime?.connect?.({ name: 'indicator' });
    if (!port) return;
    lifeline = port;
    port.onDisconnect.addListener(() => { if (lifeline === port) { lifeline = null; hide(); } });
  } catch { /* the extension context is gone already: nothing to hold */ }
}

/**
 * Puts the host last in <html> and, where the browser has a top layer for popovers, into it:
 * whatever the page shows later in the top layer is then raised above by the next check. A modal
 * dialog makes everything outside it inert (Stop could not be clicked): then the host goes inside
 * the topmost modal.
 * @param {HTMLElement} el
 */
function place(el) {
  let modal = null;
  try { modal = [...document.querySelectorAll(':modal')].at(-1) ?? null; } catch { /* no :modal */ }
  (modal ?? document.documentElement).append(el);
  if (typeof el.showPopover !== 'function') return;
  try {
    if (el.matches(':popover-open')) el.hidePopover();
    el.showPopover();
  } catch { /* not connected yet, or popovers unsupported: the z-index holds */ }
}

/** Back in the page if removed; raised if something covers the Stop button. */
function keepOnTop() {
  if (!host) return;
  if (!host.isConnected) { place(host); return; }
  if (!stop) return;
  const r = stop.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  if (hit !== host || (host.parentElement !== document.documentElement && !host.parentElement?.matches(':modal'))) place(host);
}

function build() {
  host = document.createElement(tag);
  // Inline !important beats any author stylesheet rule, so the page cannot hide or move the host.
  host.setAttribute('style', 'all: initial !important; display: block !important; position: fixed !important; inset: 0 !important; width: auto !important; height: auto !important; margin: 0 !important; padding: 0 !important; border: 0 !important; background: transparent !important; overflow: visible !important; z-index: 2147483647 !important; pointer-events: none !important; visibility: visible !important; opacity: 1 !important;');
  host.popover = 'manual';
  const root = host.attachShadow({ mode: 'closed' });
  const style = document.createElement('style');
  style.textContent = CSS;
  const frame = document.createElement('div');
  frame.className = 'frame';
  const bar = document.createElement('div');
  bar.className = 'bar';
  bar.setAttribute('role', 'status');
  const dot = document.createElement('span');
  dot.className = 'dot';
  const label = labelEl = document.createElement('span');
  label.textContent = labelText();
  stop = document.createElement('button');
  stop.type = 'button';
  stop.textContent = browser.i18n.getMessage('stop') || 'Stop';
  stop.setAttribute('aria-label', browser.i18n.getMessage('indicatorStopLabel') || 'Stop Tabwright');
  stop.addEventListener('click', (e) => {
    e.stopPropagation();
    browser.runtime.sendMessage({ type: 'indicator.stop' }).catch(() => {});
  });
  bar.append(dot, label, stop);
  root.append(style, frame, bar);
  // On <html>, not <body>: the page's text (read_page) and outline stay as the page made them.
  place(host);
}

function labelText() {
  return driver ? (browser.i18n.getMessage('mcpDrivenBy', [driver]) || `Driven by ${driver}`)
    : (browser.i18n.getMessage('indicatorLabel') || 'Tabwright is working in this tab');
}

function hide() {
  const port = lifeline;
  lifeline = null;
  try { port?.disconnect(); } catch { /* already gone */ }
  if (watch) clearInterval(watch);
  watch = null;
  host?.remove();
  host = null;
  stop = null;
  labelEl = null;
}

/** Where the Stop button is, for tests (the shadow root is closed to the page and to them). */
function state() {
  if (!host?.isConnected || !stop) return { shown: false };
  const r = stop.getBoundingClientRect();
  const visible = getComputedStyle(host).display !== 'none' && r.width > 0 && r.height > 0;
  return { shown: true, visible, stop: { x: r.x + r.width / 2, y: r.y + r.height / 2 }, label: labelEl?.textContent ?? '' };
}

export { show, hide, state };
Object.assign(tw.handlers, {
  'content.indicator': (/** @type {{ show: boolean, driver?: string }} */ msg) => {
    if (msg.show) show(msg.driver); else hide();
    return { ok: true, data: state() };
  },
  'content.indicatorState': () => ({ ok: true, data: state() }),
});
