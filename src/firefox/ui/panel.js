// The side panel (Chrome) / sidebar (Firefox): one conversation per tab, mirrored from the router.
/** @import { TranscriptItem, PanelEvent, RouterReply } from '../types/messages' */
/** @import { Mode, Usage } from '../types/core' */
/** @import { Settings } from '../types/messages' */
import { t, localize } from './i18n.js';
import { planCard } from './cards/plan-card.js';
import { confirmCard } from './cards/confirm-card.js';
import { clarifyCard } from './cards/clarify-card.js';
import { budgetCard } from './cards/budget-card.js';
import { fillRunCost } from './spend-format.js';
import { handoffCard } from './cards/handoff-card.js';
import { compactedCard } from './cards/compacted-card.js';
import { noticeCard, hideRepeatedNotices } from './cards/notice-card.js';
import { interruptedCard } from './cards/interrupted-card.js';
import { guidanceCard } from './cards/guidance-card.js';
import { errorCard } from './cards/error-card.js';
import { checkNote } from './cards/check-note.js';
import { markDoneCard } from './cards/done-mark.js';
import { renderMarkdown } from './markdown.js';
import { renderToolCard } from './tool-card.js';
import { formatUsage, usageTitle } from './usage.js';
import { createHistoryView } from './history.js';
import { showFirstRun } from './first-run.js';
import { createSkillsBar } from './skills-bar.js';
import { createWorkflowsBar } from './workflows-bar.js';
import { createStreamRenderer } from './stream-render.js';
import { setupMoreMenu } from './header-menu.js';
import { addCopyButtons } from './copy-buttons.js';
import { createModelSwitch } from './model-switch.js';
import { createDriverBar } from './driver-bar.js';
import { createRecorderButton } from './recorder-button.js';
import { linkCitations } from './citations.js';
import { createPageNote } from './page-note.js';
import { placeRetry } from './retry-answer.js';
import { applyOrgModes } from './org-modes.js';
import { createRunsOverview } from './runs-overview.js';

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const log = $('#log');
const prompt = /** @type {HTMLTextAreaElement} */ ($('#prompt'));
const sendBtn = /** @type {HTMLButtonElement} */ ($('#send'));
const stopBtn = /** @type {HTMLButtonElement} */ ($('#stop'));
const status = $('#status');
const usageEl = $('#usage');
const runCostEl = $('#run-cost');
/** Answers streaming in, by id: each delta is drawn at most once per frame, never the whole answer again (ui/stream-render.js). @type {Map<string, ReturnType<typeof createStreamRenderer>>} */
const streams = new Map();
/** The text each finished answer was rendered from, so the same answer upserted again (final, check) is not parsed again. @type {Map<string, string>} */
const renderedText = new Map();
/** @type {Settings | null} */
let settings = null;
/**
 * Settings read or saved so far, numbered: an answer to an older read that arrives after a newer one
 * (a burst of changes on a busy machine) never puts an older provider back in the footer.
 */
let settingsSeq = 0;

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
  return checked?.value === 'act' || checked?.value === 'plan' ? checked.value : 'ask';
}

/** @type {import('./cards/card-context.js').CardContext} */
const cards = { t, request: (req) => request(req), tabId: () => tabId };

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
  showRetry();
  if (value) showStatus(workingText());
  else if (status.textContent === t('statusWorking') || status.textContent === t('statusWaitingForYou')) showStatus('');
  keepAlive(value);
}

function showRetry() {
  placeRetry(log, { running, t, retry: (text, mode) => { if (tabId !== null) void request({ type: 'chat.send', tabId, text, mode }); } });
}

/** While a run waits on a card (a plan to approve, a step to confirm, a question), it is not working: it waits for the person. */
function workingText() {
  return log.querySelector('.card.pending:is(.plan, .confirm, .clarify, .budget, .handoff)') ? t('statusWaitingForYou') : t('statusWorking');
}

/** The status line follows the cards, unless it says something else (a provider's wait). */
function refreshWorking() {
  if (running && (status.textContent === t('statusWorking') || status.textContent === t('statusWaitingForYou'))) showStatus(workingText());
}

/** @type {ReturnType<typeof setInterval> | null} */
let keepAliveTimer = null;
/**
 * Chrome stops an idle extension service worker after 30 s; a run waiting on the user (a
 * confirmation, a question) or on a slow model would be cut off. A message over the port every
 * 20 s counts as activity. Firefox's background page does not need it and ignores it.
 * @param {boolean} on
 */
function keepAlive(on) {
  if (on && !keepAliveTimer) keepAliveTimer = setInterval(() => { try { port?.postMessage({ type: 'keepalive' }); } catch { /* reconnecting */ } }, 20_000);
  if (!on && keepAliveTimer) { clearInterval(keepAliveTimer); keepAliveTimer = null; }
}

/** @param {TranscriptItem} item @returns {HTMLElement} */
function render(item) {
  switch (item.kind) {
    case 'user': {
      const el = document.createElement('div');
      el.className = 'msg user';
      el.textContent = item.text;
      el.dataset.mode = item.mode;
      return el;
    }
    case 'assistant': {
      const el = document.createElement('div');
      el.className = `msg assistant${item.streaming ? ' streaming' : ''}${item.final ? ' final' : ''}`;
      if (item.streaming) {
        el.setAttribute('aria-busy', 'true');
        const r = createStreamRenderer(el);
        r.append(item.text);
        r.flush();
        streams.set(item.id, r);
      } else {
        streams.delete(item.id);
        renderMarkdown(el, item.text);
        linkCitations(el, { tabId: () => tabId, request, t, showStatus });
        addCopyButtons(el, item.text, t);
        renderedText.set(item.id, item.text);
      }
      const note = checkNote(item, cards);
      if (note) el.append(note);
      return el;
    }
    case 'tool': return renderToolCard(item);
    case 'error': return errorCard(item, cards);
    case 'plan': return planCard(item, cards);
    case 'confirm': return confirmCard(item, cards);
    case 'clarify': return clarifyCard(item, cards);
    case 'handoff': return handoffCard(item, cards);
    case 'compacted': return compactedCard(item, cards);
    case 'notice': return noticeCard(item, cards);
    case 'interrupted': return interruptedCard(item, cards);
    case 'guidance': return guidanceCard(item, cards);
    case 'budget': return budgetCard(item, cards);
  }
}

/** @param {TranscriptItem} item */
function upsert(item) {
  const old = log.querySelector(`[data-id="${CSS.escape(item.id)}"]`);
  // A finished answer upserted again with the same text (marked final, given its check): its
  // rendering stays, only its state changes.
  if (old instanceof HTMLElement && item.kind === 'assistant' && !item.streaming && renderedText.get(item.id) === item.text) {
    old.className = `msg assistant${item.final ? ' final' : ''}`;
    old.removeAttribute('aria-busy');
    old.querySelector(':scope > .check')?.remove();
    const note = checkNote(item, cards);
    if (note) old.append(note);
    markDone(old, item);
    return;
  }
  const el = render(item);
  el.dataset.id = item.id;
  if (old) {
    if (old instanceof HTMLDetailsElement && el instanceof HTMLDetailsElement) el.open = old.open;
    old.replaceWith(el);
  } else log.append(el);
  if (item.kind === 'assistant') markDone(el, item);
  if (item.kind === 'notice') hideRepeatedNotices(log);
  showRetry();
  if (item.kind === 'plan' || item.kind === 'confirm' || item.kind === 'clarify' || item.kind === 'budget' || item.kind === 'handoff') refreshWorking();
  log.scrollTop = log.scrollHeight;
}

/**
 * A final answer's verdict reaches back to the done card before it: "Finished the task" with a green
 * tick only when the run is verified (or had nothing to check).
 * @param {Element} answer @param {TranscriptItem} item
 */
function markDone(answer, item) {
  if (item.kind !== 'assistant' || !item.final) return;
  let prev = answer.previousElementSibling;
  while (prev && !(prev instanceof HTMLDetailsElement && prev.dataset.tool === 'done') && !prev.classList.contains('user')) prev = prev.previousElementSibling;
  if (prev instanceof HTMLDetailsElement && prev.dataset.tool === 'done') markDoneCard(prev, item.outcome, t);
}

let waiting = false;


/** @param {PanelEvent} e */
function onEvent(e) {
  switch (e.type) {
    case 'state':
      log.replaceChildren();
      streams.clear();
      renderedText.clear();
      e.items.forEach(upsert);
      if (!e.items.length) fillRunCost(runCostEl, null, t);
      setRunning(e.running);
      break;
    case 'upsert': upsert(e.item); break;
    case 'delta': {
      const r = streams.get(e.id);
      if (r) {
        r.append(e.text);
        log.scrollTop = log.scrollHeight;
      }
      break;
    }
    case 'running':
      // A run that starts while History is open (a workflow or skill button, a job in this tab) shows
      // itself: its cards, one waiting for the person, would otherwise sit unseen behind History.
      if (e.running && !running) toggleHistory(false);
      setRunning(e.running); if (!e.running) waiting = false; break;
    case 'status':
      // A provider wait (rate limit, retry backoff): shown until the answer resumes or the run ends.
      waiting = Boolean(e.text);
      showStatus(e.text || (running ? workingText() : ''));
      status.classList.toggle('waiting', waiting);
      break;
    case 'usage': showUsage(e.usage); break;
    // The footer shows this tab's run only (an overview may hear of the others).
    case 'runCost': if (e.cost.tabId === tabId) fillRunCost(runCostEl, e.cost, t, browser.i18n.getUILanguage()); break;
    case 'driver': driverBar.show(e.name); break;
    case 'recording': recorder.update(e.status); break;
    case 'runs': runsView.show(e); break;
  }
  if (waiting && (e.type === 'delta' || e.type === 'upsert' || (e.type === 'running' && !e.running))) {
    waiting = false;
    status.classList.remove('waiting');
    showStatus(running ? workingText() : '');
  }
}

/** @param {number} id */
function attach(id) {
  if (port) { try { port.disconnect(); } catch { /* already gone */ } }
  tabId = id;
  document.body.dataset.tabId = String(id);
  port = browser.runtime.connect({ name: `panel:${id}` });
  port.onMessage.addListener(onEvent);
  skillsBar.refresh();
  workflowsBar.refresh();
  void pageNote.show(id);
  void driverBar.attach(id);
  recorder.refresh();
  const mine = port;
  // The Chrome service worker may be stopped; reconnect so the panel keeps mirroring the tab.
  port.onDisconnect.addListener(() => { if (port === mine) setTimeout(() => { if (port === mine && tabId === id) attach(id); }, 500); });
}

/** @param {Usage} usage */
function showUsage(usage) {
  const empty = usage.inputTokens + usage.outputTokens === 0;
  usageEl.textContent = empty ? '' : formatUsage(usage, settings?.provider.pricing, browser.i18n.getUILanguage());
  usageEl.title = empty ? '' : usageTitle(usage);
  usageEl.dataset.tokens = String(usage.inputTokens + usage.outputTokens);
  usageEl.dataset.input = String(usage.inputTokens);
  usageEl.dataset.output = String(usage.outputTokens);
}

const pageNote = createPageNote({ el: $('#page-note'), t });
const driverBar = createDriverBar({ before: log, t, request, tabId: () => tabId });
const recorder = createRecorderButton({
  button: /** @type {HTMLButtonElement} */ ($('#record')), item: $('#record-item'), pill: /** @type {HTMLButtonElement} */ ($('#rec-pill')), time: $('#rec-time'),
  t, request, tabId: () => tabId, showStatus: (text) => showStatus(text), audio: () => settings?.recorder?.audio === true,
});

const skillsBar = createSkillsBar({
  bar: $('#skills'), params: /** @type {HTMLFormElement} */ ($('#skill-params')), menu: /** @type {HTMLUListElement} */ ($('#slash')),
  prompt, request, t, tabId: () => tabId, showStatus, busy: () => running,
});
// Saved workflows that start on this tab's site.
const workflowsBar = createWorkflowsBar({
  bar: $('#workflows'), form: /** @type {HTMLFormElement} */ ($('#workflow-params')), request, t, tabId: () => tabId, showStatus, busy: () => running,
});

async function send() {
  const text = prompt.value.trim();
  if (!text || running || tabId === null) return;
  showStatus('');
  if (await skillsBar.command(text)) return;
  const reply = await request({ type: 'chat.send', tabId, text, mode: currentMode() });
  if (reply.ok) prompt.value = '';
  else showStatus(reply.message);
}

$('#composer').addEventListener('submit', (e) => { e.preventDefault(); send(); });
prompt.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); send(); }
});
const stop = () => { if (tabId !== null) request({ type: 'chat.stop', tabId }); };
stopBtn.addEventListener('click', stop);
// Escape stops a run from anywhere in the panel, so keyboard users never hunt for the button.
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape') return;
  if (running) { e.preventDefault(); stop(); } else if (!$('#history').hidden) { e.preventDefault(); toggleHistory(false); historyBtn.focus(); } else if (runsView.open) { e.preventDefault(); toggleRuns(false); $('#runs-toggle').focus(); }
});
$('#new-chat').addEventListener('click', () => {
  if (tabId !== null) request({ type: 'chat.clear', tabId });
  toggleHistory(false);
  prompt.focus();
});
$('#open-settings').addEventListener('click', () => browser.runtime.openOptionsPage());
setupMoreMenu({ button: /** @type {HTMLButtonElement} */ ($('#more')), menu: $('#more-menu') });
const modelSwitch = createModelSwitch({
  select: /** @type {HTMLSelectElement} */ ($('#model-switch')), request, showStatus,
  onSaved: (s) => { settingsSeq++; settings = s; modelSwitch.show(s); }, t,
});

const historyView = createHistoryView({ view: $('#history'), request, render: (item) => render(item) });
const historyBtn = $('#history-toggle');
/** @param {boolean} open */
function toggleHistory(open) {
  if (open) toggleRuns(false);
  $('#history').hidden = !open;
  log.hidden = open || runsView.open;
  historyBtn.setAttribute('aria-pressed', String(open));
  document.body.dataset.view = open ? 'history' : 'chat';
  if (open) historyView.showList();
}
historyBtn.addEventListener('click', () => toggleHistory(Boolean($('#history').hidden)));

// The runs overview: every run in every tab, with the card each waits on (ui/runs-overview.js).
const runsView = createRunsOverview({
  view: $('#runs-overview'), button: /** @type {HTMLButtonElement} */ ($('#runs-toggle')), t, request,
  card: (item, ctx) => {
    switch (item.kind) {
      case 'plan': return planCard(item, ctx);
      case 'confirm': return confirmCard(item, ctx);
      case 'clarify': return clarifyCard(item, ctx);
      case 'budget': return budgetCard(item, ctx);
      case 'handoff': return handoffCard(item, ctx);
      default: return null;
    }
  },
});
/** @param {boolean} open */
function toggleRuns(open) {
  if (open && !$('#history').hidden) toggleHistory(false);
  runsView.toggle(open);
  log.hidden = open || !$('#history').hidden;
  document.body.dataset.view = open ? 'runs' : $('#history').hidden ? 'chat' : 'history';
}
$('#runs-toggle').addEventListener('click', () => toggleRuns(!runsView.open));
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
  const reply = await request({ type: 'settings.get' });
  settings = reply.ok ? /** @type {Settings} */ (reply.data) : null;
  if (settings) modelSwitch.show(settings);
  const mode = panelMode ?? settings?.defaultMode ?? 'ask';
  const radio = /** @type {HTMLInputElement | null} */ (document.querySelector(`input[name=mode][value=${mode}]`));
  if (radio) radio.checked = true;
  applyOrgModes(settings, t);
  if (settings && !settings.onboarded) {
    showFirstRun($('#welcome'), {
      async choose(p) {
        // The provider chosen here replaces the stored one whole (id: null): a name, id or prices of an
        // earlier provider must not stay on it (the footer would name that one).
        const r = await request({ type: 'settings.set', settings: { provider: /** @type {any} */ ({ kind: 'openai', apiKey: '', ...p, id: null }), onboarded: true } });
        if (r.ok) { settingsSeq++; settings = /** @type {Settings} */ (r.data); modelSwitch.show(settings); $('#welcome').hidden = true; prompt.focus(); } else showStatus(r.message);
      },
      openOptions: () => browser.runtime.openOptionsPage(),
      async tryKey(provider) {
        const r = await request({ type: 'provider.models', provider: /** @type {any} */ (provider) });
        return r.ok ? { ok: true, models: /** @type {string[]} */ (r.data ?? []) } : { ok: false, message: r.message };
      },
    });
  }
  // Settings saved elsewhere (options page, first run in another panel) apply here at once.
  browser.storage.onChanged.addListener(async (/** @type {Record<string, unknown>} */ changes) => {
    if (!('settings' in changes)) return;
    const asked = ++settingsSeq;
    const r = await request({ type: 'settings.get' });
    if (!r.ok || asked !== settingsSeq) return;
    settings = /** @type {Settings} */ (r.data);
    modelSwitch.show(settings);
    applyOrgModes(settings, t);
    if (settings.onboarded) $('#welcome').hidden = true;
  });
  if (pinnedTab) { attach(pinnedTab); return; }
  const [active] = await browser.tabs.query({ active: true, currentWindow: true });
  if (active?.id !== undefined) attach(active.id);
  browser.tabs.onActivated.addListener((/** @type {{tabId: number}} */ info) => attach(info.tabId));
}

// The page's skills follow the tab's URL, and skills edited in Settings show when the panel is back in use.
browser.tabs.onUpdated.addListener((/** @type {number} */ id, /** @type {{ url?: string }} */ change) => { if (id === tabId && change.url) { skillsBar.refresh(); workflowsBar.refresh(); void pageNote.show(id); } });
// The note names another tab: keep it true as tabs open, load and close.
browser.tabs.onUpdated.addListener((/** @type {number} */ id, /** @type {{ title?: string }} */ change) => { if (id !== tabId && change.title !== undefined && tabId !== null && !$('#page-note').hidden) void pageNote.show(tabId); });
browser.tabs.onRemoved.addListener(() => { if (tabId !== null && !$('#page-note').hidden) void pageNote.show(tabId); });
window.addEventListener('focus', () => { skillsBar.refresh(); workflowsBar.refresh(); });

init();
