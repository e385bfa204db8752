// What happened on the page while the agent acted: dialogs (from content/page-world.js in the page's
// world), console messages, and a compact outline diff (elements that appeared or vanished, by their
// text). Also the read-side helpers actions need: get_html, wait_for conditions, the HTTP status.
import { tw } from './tabwright.js';
import * as Dom from './dom.js';
import * as Input from './input.js';
import * as Keys from './keys.js';
import * as Secrets from './secrets.js';
import { fail } from '../../agent/error-codes.js';

/** @typedef {import('../../types/core').ToolResult} ToolResult */
/** @typedef {import('../../types/core').ActionTarget} ActionTarget */
const channel = tw.pageChannel.name;

/** @type {{ kind: string, message: string, accepted: boolean, text: string | null, at: number }[]} */
const dialogs = [];
/**
 * The console messages, kept by page-world.js in the page's world since document_start (this script
 * arrives at document_idle, after the page's first logs); it answers a request event synchronously.
 * @returns {{ level: string, text: string, at: number, stack?: string }[]}
 */
function consoleLog() {
  /** @type {any[]} */
  let rows = [];
  const take = (/** @type {Event} */ e) => { try { rows = JSON.parse(String(/** @type {CustomEvent} */ (e).detail)); } catch { /* ignore */ } };
  document.addEventListener(channel('console-dump'), take, { once: true });
  document.dispatchEvent(new CustomEvent(channel('console-request')));
  document.removeEventListener(channel('console-dump'), take);
  return Array.isArray(rows) ? rows : [];
}
// Only the page-world helper knows these names (content/page-channel.js): the page cannot fake a dialog.
document.addEventListener(channel('dialog'), (e) => { try { dialogs.push(JSON.parse(String(/** @type {CustomEvent} */ (e).detail))); } catch { /* ignore */ } });

/** Elements added and removed since the last drain, by their visible text. */
let added = new Set(), removedTexts = new Set();
let watching = false;
const observer = new MutationObserver((records) => {
  for (const r of records) {
    // Revealed in place: a hidden attribute dropped, an inline display:none lifted, a dialog or details opened.
    if (r.type === 'attributes' && r.target instanceof HTMLElement) {
      const was = r.oldValue;
      if ((r.attributeName === 'hidden' && was !== null) || (r.attributeName === 'open' && was === null) || (r.attributeName === 'style' && /display:\s*none/.test(was ?? '')) || (r.attributeName === 'aria-hidden' && was === 'true')) added.add(r.target);
      continue;
    }
    for (const n of r.addedNodes) if (n instanceof HTMLElement) added.add(n);
    for (const n of r.removedNodes) if (n instanceof HTMLElement) { const t = Dom.clean(n.innerText || n.textContent).slice(0, 80); if (t) removedTexts.add(t); }
  }
});

function watch() {
  if (!watching) { observer.observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ['hidden', 'open', 'style', 'aria-hidden'] }); watching = true; }
  added = new Set(); removedTexts = new Set();
  dialogs.length = 0;
}

/** The compact effects since watch(): dialogs and what appeared or vanished. */
function effects() {
  observer.takeRecords();
  /** @type {Record<string, unknown>} */
  const out = {};
  if (dialogs.length) out.dialogs = dialogs.splice(0);
  const appeared = [...added].filter((n) => n.isConnected && Dom.visibleBox(n)).map((n) => Dom.clean(n.innerText).slice(0, 80)).filter(Boolean);
  // Keep the outermost: a new dialog's inner texts repeat its own.
  const uniq = appeared.filter((t, i) => !appeared.some((o, j) => j !== i && o !== t && o.includes(t)));
  if (uniq.length) out.appeared = [...new Set(uniq)].slice(0, 5);
  const gone = [...removedTexts].filter((t) => !document.body.innerText.includes(t));
  if (gone.length) out.vanished = gone.slice(0, 5);
  const f = Keys.focused();
  if (f && f !== document.body) out.focus = Input.describe(f);
  added = new Set(); removedTexts = new Set();
  // Text that appeared or vanished may hold a token (a key shown once after "Create key").
  return Secrets.maskDeep(out);
}

/** @param {{ target?: ActionTarget, maxChars?: number, outer?: boolean }} msg @returns {ToolResult} */
function getHtml(msg) {
  /** @type {Element} */
  let el = document.documentElement;
  if (msg.target) { const f = Input.find(msg.target); if (!('el' in f)) return f; el = f.el; }
  const max = msg.maxChars ?? 20_000;
  const clone = /** @type {Element} */ (el.cloneNode(true));
  // Secret values never leave the page, not even in markup: a secret field's value attribute (and
  // the value typed since) is the mask, a secret textarea's text too; tokens in text are masked.
  Secrets.scrubClone(el, clone);
  clone.querySelectorAll('script, style').forEach((s) => { s.textContent = ''; });
  const html = Secrets.maskText(msg.outer === false ? clone.innerHTML : clone.outerHTML);
  return { ok: true, data: html.length > max ? `${html.slice(0, max)}\n<!-- … truncated ${html.length - max} characters -->` : html };
}

/**
 * @param {{ selector?: string, text?: string, gone?: boolean, stableMs?: number, networkIdle?: boolean, timeoutMs?: number }} msg
 * @returns {Promise<ToolResult>}
 */
async function waitFor(msg) {
  const deadline = performance.now() + (msg.timeoutMs ?? 10_000);
  let lastChange = performance.now();
  const mo = new MutationObserver(() => { lastChange = performance.now(); });
  mo.observe(document.documentElement, { childList: true, subtree: true, characterData: true, attributes: true });
  try {
    for (;;) {
      let met = true;
      if (msg.selector) { const f = Input.find({ selector: msg.selector }); met &&= ('el' in f && Boolean(Dom.visibleBox(f.el))) !== Boolean(msg.gone); }
      if (msg.text) { const f = Input.find({ text: msg.text }); met &&= ('el' in f) !== Boolean(msg.gone); }
      if (msg.stableMs) met &&= performance.now() - lastChange >= msg.stableMs;
      if (msg.networkIdle) met &&= document.readyState === 'complete' && performance.now() - lastNetwork() >= 500;
      if (met) return { ok: true, data: { met: true } };
      if (performance.now() > deadline) {
        const what = msg.selector ? `selector ${msg.selector}` : msg.text ? `text "${msg.text}"` : 'the page to stop changing';
        return fail('TIMEOUT', `waited ${msg.timeoutMs ?? 10_000} ms for ${what}${msg.gone ? ' to go away' : ''}; take a snapshot to see the page`, { retryable: true });
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally { mo.disconnect(); }
}

/** When the last resource the page loaded finished (fetch and XHR included). */
function lastNetwork() {
  let last = 0;
  for (const e of performance.getEntriesByType('resource')) last = Math.max(last, /** @type {PerformanceResourceTiming} */ (e).responseEnd);
  return last;
}

export { watch, effects };
Object.assign(tw.handlers, {
  'content.watch': () => { watch(); return { ok: true, data: null }; },
  'content.effects': () => ({ ok: true, data: effects() }),
  'content.dialogPolicy': (/** @type {{ accept: boolean, promptText?: string, once?: boolean }} */ msg) => {
    document.dispatchEvent(new CustomEvent(channel('dialog-policy'), { detail: JSON.stringify({ accept: msg.accept, promptText: msg.promptText ?? null, once: msg.once !== false }) }));
    return { ok: true, data: null };
  },
  'content.console': (/** @type {{ level?: string, levels?: string[], clear?: boolean, max?: number }} */ msg) => {
    // "error" takes the uncaught exceptions with it: both are what went wrong.
    const wanted = msg.levels?.length ? msg.levels : msg.level ? (msg.level === 'error' ? ['error', 'exception'] : [msg.level]) : null;
    const rows = consoleLog().filter((m) => !wanted || wanted.includes(m.level)).slice(-(msg.max ?? 50));
    if (msg.clear) document.dispatchEvent(new CustomEvent(channel('console-clear')));
    return { ok: true, data: rows };
  },
  'content.html': (/** @type {Parameters<typeof getHtml>[0]} */ msg) => getHtml(msg),
  'content.waitFor': (/** @type {Parameters<typeof waitFor>[0]} */ msg) => waitFor(msg),
  /** The viewport, and a target's box in document coordinates, for screenshots. */
  'content.geometry': (/** @type {{ target?: ActionTarget, fullPage?: boolean }} */ msg) => {
    const viewport = { scrollX, scrollY, width: innerWidth, height: innerHeight, dpr: devicePixelRatio };
    if (msg.fullPage) {
      const d = document.documentElement;
      return { ok: true, data: { viewport, clip: { x: 0, y: 0, width: Math.max(d.scrollWidth, innerWidth), height: Math.min(Math.max(d.scrollHeight, innerHeight), 16_000) } } };
    }
    if (!msg.target) return { ok: true, data: { viewport } };
    const f = Input.find(msg.target);
    if (!('el' in f)) return f;
    const r = f.el.getBoundingClientRect();
    if (!r.width || !r.height) return fail('NOT_VISIBLE', `${msg.target.ref ?? Input.describe(f.el)} has no size on screen`);
    // Whole pixels: a fractional edge makes the capture a pixel taller in Firefox.
    return { ok: true, data: { viewport, clip: { x: Math.round(r.left + scrollX), y: Math.round(r.top + scrollY), width: Math.round(r.width), height: Math.round(r.height) } } };
  },
  'content.pageInfo': () => {
    const nav = /** @type {any} */ (performance.getEntriesByType('navigation')[0]);
    return { ok: true, data: { url: location.href, title: document.title, status: nav?.responseStatus || null, readyState: document.readyState } };
  },
});
