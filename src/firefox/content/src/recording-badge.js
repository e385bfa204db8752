// The on-page sign that Tabwright is recording this tab: a small pill in the top corner with the
// time so far and a Stop button, in a closed shadow root the page can neither restyle nor remove
// for long (it is put back). Registers content.recordingBadge.
import { tw } from './tabwright.js';

/** @type {HTMLElement | null} */
let host = null;
/** @type {ReturnType<typeof setInterval> | null} */
let tick = null;
const tag = `tw-${Math.random().toString(36).slice(2, 10)}`;
const CSS = `
  :host { all: initial; }
  .pill { position: fixed; inset-block-start: 10px; inset-inline-end: 10px; display: flex; align-items: center; gap: 8px;
    padding: 4px 6px 4px 10px; border-radius: 999px; background: #16181c; color: #fff; font: 600 12px/1.3 system-ui, sans-serif;
    box-shadow: 0 2px 10px rgba(0,0,0,.3); pointer-events: auto; }
  .dot { width: 9px; height: 9px; border-radius: 50%; background: #e53935; animation: pulse 1.2s infinite; }
  @keyframes pulse { 50% { opacity: .35; } }
  @media (prefers-reduced-motion: reduce) { .dot { animation: none; } }
  button { all: initial; font: 600 12px system-ui, sans-serif; color: #fff; background: #c62828; padding: 3px 10px; border-radius: 999px; cursor: pointer; }
  button:focus-visible { outline: 2px solid #fff; outline-offset: 2px; }`;

/** @param {number} ms */
const clock = (ms) => { const s = Math.max(0, Math.floor(ms / 1000)); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`; };

/** @param {number} startedAt */
function show(startedAt) {
  if (host?.isConnected) return;
  host?.remove();
  host = document.createElement(tag);
  host.setAttribute('style', 'all: initial !important; position: fixed !important; inset: 0 auto auto 0 !important; width: 0 !important; height: 0 !important; z-index: 2147483647 !important; display: block !important; visibility: visible !important; opacity: 1 !important;');
  const root = host.attachShadow({ mode: 'closed' });
  const style = document.createElement('style');
  style.textContent = CSS;
  const pill = document.createElement('div');
  pill.className = 'pill';
  pill.setAttribute('role', 'status');
  const dot = document.createElement('span');
  dot.className = 'dot';
  const label = document.createElement('span');
  const name = browser.i18n.getMessage('recordingBadge') || 'Recording';
  const stop = document.createElement('button');
  stop.type = 'button';
  stop.textContent = browser.i18n.getMessage('stop') || 'Stop';
  stop.setAttribute('aria-label', browser.i18n.getMessage('recordingStopLabel') || 'Stop recording');
  stop.addEventListener('click', (e) => { e.stopPropagation(); browser.runtime.sendMessage({ type: 'recording.stopFromPage' }).catch(() => {}); });
  pill.append(dot, label, stop);
  root.append(style, pill);
  document.documentElement.append(host);
  const update = () => {
    label.textContent = `${name} ${clock(Date.now() - startedAt)}`;
    if (host && !host.isConnected) document.documentElement.append(host);
  };
  update();
  if (tick) clearInterval(tick);
  tick = setInterval(update, 1000);
}

function hide() {
  if (tick) clearInterval(tick);
  tick = null;
  host?.remove();
  host = null;
}

const shown = () => Boolean(host?.isConnected);
export { show, hide, shown };
Object.assign(tw.handlers, {
  'content.recordingBadge': (/** @type {{ show: boolean, startedAt?: number }} */ msg) => {
    if (msg.show) show(msg.startedAt ?? Date.now()); else hide();
    return { ok: true, data: { shown: Boolean(host?.isConnected) } };
  },
  'content.recordingBadgeState': () => ({ ok: true, data: { shown: Boolean(host?.isConnected), text: host ? 'shown' : '' } }),
});
