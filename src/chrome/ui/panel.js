// The side panel (Chrome) / sidebar (Firefox): one conversation per tab, mirrored from the router.
/** @import { TranscriptItem, PanelEvent, RouterReply } from '../types/messages' */
/** @import { Mode } from '../types/core' */
import { t, localize } from './i18n.js';

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const log = $('#log');
const prompt = /** @type {HTMLTextAreaElement} */ ($('#prompt'));
const sendBtn = /** @type {HTMLButtonElement} */ ($('#send'));
const stopBtn = /** @type {HTMLButtonElement} */ ($('#stop'));
const status = $('#status');

/** A tab given in the URL pins the panel to it (tests, "open in tab"); otherwise it follows the active tab. */
const pinnedTab = Number(new URLSearchParams(location.search).get('tabId')) || null;
/** @type {number | null} */
let tabId = null;
/** @type {any} */
let port = null;
let running = false;

/** @template T @param {import('../types/messages').RouterRequest} req @returns {Promise<RouterReply<T>>} */
async function request(req) {
  try {
    return /** @type {RouterReply<T>} */ (await browser.runtime.sendMessage(req));
  } catch (err) {
    return { ok: false, code: 'NO_BACKGROUND', message: t('errNoBackground') + ` (${err instanceof Error ? err.message : err})` };
  }
}

/** @returns {Mode} */
function currentMode() {
  const checked = /** @type {HTMLInputElement | null} */ (document.querySelector('input[name=mode]:checked'));
  return checked?.value === 'ask' ? 'ask' : 'act';
}

/** @param {string} text */
function showStatus(text) {
  status.textContent = text;
  status.hidden = !text;
}

/** @param {boolean} value */
function setRunning(value) {
  // data-runs counts started runs, so a test (or a screen reader hook) can tell one run from the next.
  if (value && !running) document.body.dataset.runs = String(Number(document.body.dataset.runs ?? 0) + 1);
  running = value;
  stopBtn.hidden = !value;
  sendBtn.disabled = value;
  document.body.dataset.running = String(value);
  if (value) showStatus(t('statusWorking'));
  else if (status.textContent === t('statusWorking')) showStatus('');
}

/** @param {TranscriptItem} item @returns {HTMLElement} */
function render(item) {
  switch (item.kind) {
    case 'user': {
      const el = document.createElement('div');
      el.className = 'msg user';
      el.textContent = item.text;
      return el;
    }
    case 'assistant': {
      const el = document.createElement('div');
      el.className = `msg assistant${item.streaming ? ' streaming' : ''}${item.final ? ' final' : ''}`;
      el.textContent = item.text;
      return el;
    }
    case 'tool': {
      const el = document.createElement('details');
      const state = !item.result ? 'pending' : item.result.ok ? 'ok' : 'failed';
      el.className = `tool ${state}`;
      el.dataset.tool = item.name;
      const summary = document.createElement('summary');
      summary.textContent = `${item.name} ${briefArgs(item.args)}`;
      const args = document.createElement('pre');
      args.className = 'args';
      args.textContent = typeof item.args === 'string' ? item.args : JSON.stringify(item.args, null, 2);
      el.append(summary, args);
      if (item.result) {
        const res = document.createElement('pre');
        res.className = 'result';
        res.textContent = item.result.ok
          ? (typeof item.result.data === 'string' ? item.result.data : JSON.stringify(item.result.data, null, 2))
          : `${item.result.code}: ${item.result.message}`;
        el.append(res);
      }
      return el;
    }
    case 'error': {
      const el = document.createElement('div');
      el.className = 'msg error';
      el.setAttribute('role', 'alert');
      const code = document.createElement('span');
      code.className = 'code';
      code.textContent = item.code;
      el.append(code, document.createTextNode(item.message));
      return el;
    }
  }
}

/** @param {unknown} args */
function briefArgs(args) {
  if (!args || typeof args !== 'object') return '';
  const s = Object.entries(args).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ');
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/** @param {TranscriptItem} item */
function upsert(item) {
  const el = render(item);
  el.dataset.id = item.id;
  const old = log.querySelector(`[data-id="${CSS.escape(item.id)}"]`);
  if (old) {
    if (old instanceof HTMLDetailsElement && el instanceof HTMLDetailsElement) el.open = old.open;
    old.replaceWith(el);
  } else log.append(el);
  log.scrollTop = log.scrollHeight;
}

/** @param {PanelEvent} e */
function onEvent(e) {
  switch (e.type) {
    case 'state':
      log.replaceChildren();
      e.items.forEach(upsert);
      setRunning(e.running);
      break;
    case 'upsert': upsert(e.item); break;
    case 'delta': {
      const el = log.querySelector(`[data-id="${CSS.escape(e.id)}"]`);
      if (el) { el.textContent += e.text; log.scrollTop = log.scrollHeight; }
      break;
    }
    case 'running': setRunning(e.running); break;
  }
}

/** @param {number} id */
function attach(id) {
  if (port) { try { port.disconnect(); } catch { /* already gone */ } }
  tabId = id;
  document.body.dataset.tabId = String(id);
  port = browser.runtime.connect({ name: `panel:${id}` });
  port.onMessage.addListener(onEvent);
  const mine = port;
  // The Chrome service worker may be stopped; reconnect so the panel keeps mirroring the tab.
  port.onDisconnect.addListener(() => { if (port === mine) setTimeout(() => { if (port === mine && tabId === id) attach(id); }, 500); });
}

async function send() {
  const text = prompt.value.trim();
  if (!text || running || tabId === null) return;
  showStatus('');
  const reply = await request({ type: 'chat.send', tabId, text, mode: currentMode() });
  if (reply.ok) prompt.value = '';
  else showStatus(reply.message);
}

$('#composer').addEventListener('submit', (e) => { e.preventDefault(); send(); });
prompt.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); send(); }
});
stopBtn.addEventListener('click', () => { if (tabId !== null) request({ type: 'chat.stop', tabId }); });
$('#new-chat').addEventListener('click', () => { if (tabId !== null) request({ type: 'chat.clear', tabId }); });
// The jobs page, told which tab this panel shows and what is typed, so the message can be scheduled for it.
$('#open-jobs').addEventListener('click', () => {
  const q = new URLSearchParams({ ...(tabId !== null ? { tabId: String(tabId) } : {}), ...(prompt.value.trim() ? { prompt: prompt.value.trim() } : {}), mode: currentMode() });
  browser.tabs.create({ url: browser.runtime.getURL(`ui/jobs.html?${q}`) });
});
for (const radio of document.querySelectorAll('input[name=mode]')) {
  radio.addEventListener('change', () => browser.storage.local.set({ panelMode: currentMode() }));
}

async function init() {
  localize();
  const { panelMode } = await browser.storage.local.get('panelMode');
  const settings = await request({ type: 'settings.get' });
  const mode = panelMode ?? (settings.ok ? /** @type {{defaultMode: Mode}} */ (settings.data).defaultMode : 'act');
  const radio = /** @type {HTMLInputElement | null} */ (document.querySelector(`input[name=mode][value=${mode}]`));
  if (radio) radio.checked = true;
  if (pinnedTab) { attach(pinnedTab); return; }
  const [active] = await browser.tabs.query({ active: true, currentWindow: true });
  if (active?.id !== undefined) attach(active.id);
  browser.tabs.onActivated.addListener((/** @type {{tabId: number}} */ info) => attach(info.tabId));
}

init();
