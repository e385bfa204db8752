// The background's message router: panels and other extension pages talk to it; it owns the
// per-tab sessions, hands runs to service/runs.js and jobs to service/jobs.js, and exposes the tool runner.
// The parts, in router/: the sessions (sessions.js), runtime messages (messages.js), panels' ports
// (panels.js) and a recording's notice (recording.js).
/** @import { Platform } from '../types/platform' */
/** @import { Session } from './session.js' */
import { localOrigins } from '../providers/presets.js';
import { createBrowserOps } from './browser-ops.js';
import { createSettingsStore } from './settings.js';
import { jobControls } from './settings-managed.js';
import { createRuns } from './runs.js';
import { createHistoryStore } from './history-store.js';
import { createSessionStore } from './session-store.js';
import { createBlobStore } from './blob-store.js';
import { startJobs } from './jobs.js';
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
import { sessionLoader, trimmedNotice } from './router/sessions.js';
import { answerMessage } from './router/messages.js';
import { connectPort } from './router/panels.js';
import { announceRecording } from './router/recording.js';

/** @param {{ platform: Platform }} deps */
export function startRouter({ platform }) {
  // The person's settings with the organization's policy over them (Chrome's managed_schema policy, Firefox's policies.json).
  const settings = createSettingsStore(browser.storage.local, browser.storage.managed);
  const ops = createBrowserOps(platform, { onOpened: (opener, tabId) => places.opened(opener, tabId) });
  const history = createHistoryStore();
  /** @type {Map<number, Session>} */
  const sessions = new Map();
  const store = createSessionStore({ area: browser.storage.session, blobs: createBlobStore(), onTrimmed: trimmedNotice(sessions) });
  /** @param {Session} s */
  const persist = (s) => store.schedule(s.tabId, () => s.toJSON());
  // Runs side by side: the slots background work waits for, each run's tab group, the overview of them all.
  const places = createRunPlaces({ platform, sessions, maxRuns: () => settings.get().then((c) => c.maxRunsAtOnce), getTab: (id) => ops.getTab(id), costOf: (id) => spend.view(id) });
  const { overview } = places;
  const session = sessionLoader({ sessions, store, persist, onChange: (s) => { persist(s); places.sessionChanged(s); } });
  const syncLocalEndpoints = localEndpointsOf(platform);
  settings.get().then(syncLocalEndpoints);

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

  browser.runtime.onMessage.addListener((/** @type {any} */ msg, /** @type {any} */ sender, /** @type {(r: unknown) => void} */ sendResponse) => answerMessage({ sessions, deps }, msg, sender, sendResponse));
  browser.runtime.onConnect.addListener((/** @type {any} */ port) => connectPort({ session, overview, spend }, port));
  browser.tabs.onRemoved.addListener((/** @type {number} */ tabId) => {
    const s = sessions.get(tabId);
    if (s) runs.stopRun(s, 'tab_closed');
    sessions.delete(tabId);
    spend.forget(tabId);
    store.remove(tabId).catch(() => {});
  });
  ops.recorder?.onChange((status, file) => announceRecording(sessions, status, file));
  if (ops.recorder) startRecordShortcut(ops.recorder, settings, (tabId, code, message) => { session(tabId).then((s) => s.apply({ type: 'notice', code, message })); });
  platform.setupPanel();
  return { sessions, jobs };
}

/**
 * Local endpoints (Ollama, LM Studio…) refuse extension Origins; the platform strips it for the
 * configured ones (every saved provider, plus one being tested before it is saved).
 * @param {Platform} platform
 * @returns {(conf: import('../types/messages').Settings, extra?: import('../types/messages').ProviderSettings) => Promise<void>}
 */
export function localEndpointsOf(platform) {
  return (conf, extra) => {
    const origins = new Set([conf.provider, ...(conf.providers ?? []), ...(extra ? [extra] : [])].flatMap((p) => localOrigins(p)));
    return platform.setLocalEndpoints([...origins]).catch((err) => console.warn('Tabwright: could not set up local endpoint access', err));
  };
}
