// The background's message router: panels and other extension pages talk to it; it owns the
// per-tab sessions, hands runs to service/runs.js and jobs to service/jobs.js, and exposes the tool runner.
/** @import { PanelEvent } from '../types/messages' */
/** @import { Platform } from '../types/platform' */
import { localOrigins } from '../providers/presets.js';
import { createBrowserOps } from './browser-ops.js';
import { createSettingsStore } from './settings.js';
import { jobControls } from './settings-managed.js';
import { createRuns } from './runs.js';
import { Session } from './session.js';
import { createHistoryStore } from './history-store.js';
import { isExtensionPage } from './sender.js';
import { createSessionStore } from './session-store.js';
import { createBlobStore } from './blob-store.js';
import { startJobs } from './jobs.js';
import { dispatch, REQUEST_TYPES } from './handlers/index.js';
import { answerChannelHold } from './handlers/channel-hold.js';
import { createKnowledge } from './knowledge.js';
import { createTraceStore } from './trace-store.js';
import { createTraces } from './traces.js';
import { createWorkflowStore } from './workflow-store.js';
import { createWorkflows } from './workflows.js';
import { thumbnail } from './thumbnail.js';
import { startRecordShortcut } from './record-shortcut.js';
import { startMcp } from './mcp/index.js';
import { createSpend } from './spend.js';
import { createRunPlaces } from './run-places.js';

/** The first parts of the request types the handler table answers ("chat", "settings"…). */
const AREAS = new Set(REQUEST_TYPES.map((t) => t.split('.')[0]));

/** @param {{ platform: Platform }} deps */
export function startRouter({ platform }) {
  // The person's settings with the organization's policy over them (Chrome's managed_schema policy, Firefox's policies.json).
  const settings = createSettingsStore(browser.storage.local, browser.storage.managed);
  const ops = createBrowserOps(platform, { onOpened: (opener, tabId) => places.opened(opener, tabId) });
  const history = createHistoryStore();
  /** @type {Map<number, Session>} */
  const sessions = new Map();
  /** Tabs whose stored conversation was shortened to fit (the user was told). @type {Set<number>} */
  const trimmedTabs = new Set();
  const store = createSessionStore({
    area: browser.storage.session,
    blobs: createBlobStore(),
    // Once per tab: each later write trims again, the user needs telling once.
    onTrimmed: (tabId, count) => !trimmedTabs.has(tabId) && trimmedTabs.add(tabId) && sessions.get(tabId)?.apply({ type: 'notice', code: 'STORAGE_TRIMMED',
      message: `This conversation outgrew the browser's storage for open tabs: the ${count} oldest page results are kept shortened should Tabwright's background restart. The run itself still has them whole.` }),
  });
  /** @type {Map<number, Promise<Session>>} */
  const loading = new Map();
  /** @param {Session} s */
  const persist = (s) => store.schedule(s.tabId, () => s.toJSON());
  // Runs side by side: the slots background work waits for, each run's tab group, the overview of them all.
  const places = createRunPlaces({ platform, sessions, maxRuns: () => settings.get().then((c) => c.maxRunsAtOnce), getTab: (id) => ops.getTab(id), costOf: (id) => spend.view(id) });
  const { overview } = places;
  /** @param {Session} s */
  const onSessionChange = (s) => { persist(s); places.sessionChanged(s); };

  /**
   * Local endpoints (Ollama, LM Studio…) refuse extension Origins; the platform strips it for the
   * configured ones (every saved provider, plus one being tested before it is saved).
   * @param {import('../types/messages').Settings} conf @param {import('../types/messages').ProviderSettings} [extra]
   */
  const syncLocalEndpoints = (conf, extra) => {
    const origins = new Set([conf.provider, ...(conf.providers ?? []), ...(extra ? [extra] : [])].flatMap((p) => localOrigins(p)));
    return platform.setLocalEndpoints([...origins]).catch((err) => console.warn('Tabwright: could not set up local endpoint access', err));
  };
  settings.get().then(syncLocalEndpoints);

  /**
   * The tab's session; after the service worker was stopped it is rebuilt from storage.session
   * (an interrupted run shows as interrupted, with Continue).
   * @param {number} tabId @returns {Promise<Session>}
   */
  function session(tabId) {
    const live = sessions.get(tabId);
    if (live) return Promise.resolve(live);
    let p = loading.get(tabId);
    if (!p) {
      p = (async () => {
        const data = await store.load(tabId).catch(() => null);
        const s = data ? Session.fromJSON(data, { onChange: onSessionChange }) : new Session(tabId, { onChange: onSessionChange });
        if (!sessions.has(tabId)) sessions.set(tabId, s);
        if (s.interrupted) persist(s);
        return /** @type {Session} */ (sessions.get(tabId));
      })().finally(() => loading.delete(tabId));
      loading.set(tabId, p);
    }
    return p;
  }

  /** @param {{ id?: string, url?: string }} sender */
  const fromExtensionPage = (sender) => isExtensionPage(sender, browser.runtime.id, browser.runtime.getURL(''));

  const knowledge = createKnowledge({ area: browser.storage.local });
  // Traces and workflows.
  const traceStore = createTraceStore();
  const traces = createTraces({ store: traceStore, settings, getTab: (tabId) => ops.getTab(tabId), thumbnail });
  const workflows = createWorkflows({ store: createWorkflowStore(), traces: traceStore, history, runs: () => runs });
  // Each run's tokens and cost reach its panels as they come (the footer, the runs overview).
  const spend = createSpend({ area: browser.storage.local, onChange: (tabId, cost) => { sessions.get(tabId)?.broadcast({ type: 'runCost', cost }); overview.changed(); } });
  const runs = createRuns({ platform, settings, ops, history, session, knowledge, traces, spend, workflows: () => workflows, jobs: () => jobs, checkpoint: (s) => { persist(s); return store.flush(s.tabId); } });
  const jobs = startJobs({ beginRun: runs.beginRun, beginWorkflow: workflows.beginJob, ops, isBusy: (tabId) => Boolean(sessions.get(tabId)?.running), closeTabs: () => settings.get().then((s) => s.closeJobTabs !== false), controls: () => settings.get().then(jobControls), places });
  const mcp = startMcp({ settings, ops, session, runs, knowledge, places });
  /** @type {import('./handlers/index.js').HandlerDeps} */
  const deps = { platform, settings, ops, history, sessions, session, runs, jobs: () => jobs, syncLocalEndpoints, knowledge, mcp, traces: traceStore, workflows, spend, overview };

  browser.runtime.onMessage.addListener((/** @type {any} */ msg, /** @type {any} */ sender, /** @type {(r: unknown) => void} */ sendResponse) => {
    // The Stop button of the on-page indicator: a content script may stop its own tab's run, nothing else.
    if (msg?.type === 'indicator.stop' && sender?.id === browser.runtime.id && typeof sender.tab?.id === 'number') {
      const s = sessions.get(sender.tab.id);
      const client = mcp.stopTab(sender.tab.id);
      sendResponse({ ok: true, data: { stopped: (s ? runs.stopRun(s) : false) || client } });
      return false;
    }
    // The Stop button of the on-page recording badge: a content script may stop a recording of its own tab only.
    if (msg?.type === 'recording.stopFromPage' && sender?.id === browser.runtime.id && typeof sender.tab?.id === 'number' && ops.recorder) {
      const rec = ops.recorder;
      rec.status().then((s) => (s.recording && s.tabId === sender.tab.id ? rec.stop().then(() => true) : false))
        .then((stopped) => sendResponse({ ok: true, data: { stopped } }), (err) => sendResponse({ ok: false, code: 'RECORDING_FAILED', message: String(err?.message ?? err) }));
      return true;
    }
    // A frame's channel hold (content/channel-hold.js): a content script speaks for its own tab and frame only.
    if (typeof msg?.type === 'string' && msg.type.startsWith('channelHold.') && sender?.id === browser.runtime.id && typeof sender.tab?.id === 'number') {
      return answerChannelHold(ops.channels, msg, sender, sendResponse);
    }
    // Requests of the areas the handler table answers (chat.*, settings.*…); other messages are not ours.
    if (!msg || typeof msg.type !== 'string' || !AREAS.has(msg.type.split('.')[0])) return false;
    if (!fromExtensionPage(sender)) {
      sendResponse({ ok: false, code: 'FORBIDDEN', message: 'Only Tabwright\'s own pages may send this request.' });
      return false;
    }
    dispatch(msg, deps).then(sendResponse, (err) => sendResponse({ ok: false, code: 'INTERNAL_ERROR', message: err instanceof Error ? err.message : String(err) }));
    return true;
  });

  browser.runtime.onConnect.addListener((/** @type {any} */ port) => {
    // The on-page indicator's lifeline (content/indicator.js): held open while it shows; nothing to say on it.
    if (port.name === 'indicator' && port.sender?.id === browser.runtime.id && typeof port.sender?.tab?.id === 'number') {
      port.onMessage.addListener(() => {});
      return;
    }
    const m = /^panel:(\d+)$/.exec(port.name ?? '');
    if (!m || !fromExtensionPage(port.sender ?? {})) { port.disconnect(); return; }
    let open = true;
    /** @type {((e: PanelEvent) => void) | null} */
    let listener = null;
    /** @type {Session | null} */
    let attached = null;
    // Every panel shows the runs overview: all runs, whichever tab the panel follows.
    const unsubscribe = overview.subscribe((rows) => port.postMessage({ type: 'runs', ...rows }));
    void overview.list().then((rows) => { if (open) port.postMessage({ type: 'runs', ...rows }); });
    port.onDisconnect.addListener(() => { open = false; unsubscribe(); if (attached && listener) attached.listeners.delete(listener); });
    // The panel's keepalive messages need no answer: receiving them keeps Chrome's worker awake (panel.js).
    port.onMessage.addListener(() => {});
    session(Number(m[1])).then((s) => {
      if (!open) return;
      attached = s;
      listener = (e) => port.postMessage(e);
      s.listeners.add(listener);
      port.postMessage({ type: 'state', items: s.items, running: s.running });
      port.postMessage({ type: 'usage', usage: s.usage });
      const cost = spend.view(s.tabId);
      if (cost) port.postMessage({ type: 'runCost', cost });
    });
  });

  browser.tabs.onRemoved.addListener((/** @type {number} */ tabId) => {
    const s = sessions.get(tabId);
    if (s) runs.stopRun(s, 'tab_closed');
    sessions.delete(tabId);
    spend.forget(tabId);
    store.remove(tabId).catch(() => {});
  });

  // Every open panel shows whether a tab is being recorded; the recorded tab's conversation says where the file went.
  ops.recorder?.onChange((status, file) => {
    for (const s of sessions.values()) for (const l of s.listeners) l({ type: 'recording', status: { available: true, ...status }, ...(file ? { file } : {}) });
    if (file) {
      // A short recording is a few hundred kilobytes: in megabytes it read "0.0 MB".
      const size = file.bytes < 1_048_576 ? `${Math.max(1, Math.round(file.bytes / 1024))} KB` : `${(file.bytes / 1_048_576).toFixed(1)} MB`;
      const why = file.reason === 'stopped' ? '' : ` It stopped by itself (${file.reason === 'max_duration' ? 'the length cap' : file.reason === 'max_size' ? 'the size cap' : 'the tab closed'}).`;
      sessions.get(file.tabId)?.apply({ type: 'notice', code: 'RECORDING_SAVED', message: `Recording saved to your downloads as ${file.filename} (${size}, ${Math.round(file.seconds)} s).${why}`,
        args: [file.filename, String(file.bytes), String(Math.round(file.seconds)), file.reason] });
    }
  });

  if (ops.recorder) startRecordShortcut(ops.recorder, settings, (tabId, code, message) => { session(tabId).then((s) => s.apply({ type: 'notice', code, message })); });
  platform.setupPanel();
  return { sessions, jobs };
}
