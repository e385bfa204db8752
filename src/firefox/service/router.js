// The background's message router: panels and other extension pages talk to it; it owns the
// per-tab sessions, hands runs to service/runs.js and jobs to service/jobs.js, and exposes the tool runner.
/** @import { ToolContext } from '../types/core' */
/** @import { RouterReply, RouterRequest, PanelEvent } from '../types/messages' */
/** @import { Platform } from '../types/platform' */
import { ALL_TOOLS, findTool } from '../agent/tools/index.js';
import { parseToolArgs } from '../agent/tool-args.js';
import { createProvider } from '../providers/index.js';
import { localOrigins } from '../providers/presets.js';
import { createBrowserOps } from './browser-ops.js';
import { createSettingsStore, redactSettings, storedProviders } from './settings.js';
import { createRuns } from './runs.js';
import { Session } from './session.js';
import { createHistoryStore } from './history-store.js';
import { mergeProviderKeys } from './settings-io.js';
import { isExtensionPage } from './sender.js';
import { createSessionStore } from './session-store.js';
import { createBlobStore } from './blob-store.js';
import { startJobs } from './jobs.js';

/** @param {{ platform: Platform }} deps */
export function startRouter({ platform }) {
  const settings = createSettingsStore(browser.storage.local);
  const ops = createBrowserOps(platform);
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
        const s = data ? Session.fromJSON(data, { onChange: persist }) : new Session(tabId, { onChange: persist });
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

  /**
   * @param {RouterRequest} msg
   * @returns {Promise<RouterReply>}
   */
  async function handle(msg) {
    switch (msg.type) {
      case 'chat.send': return startChat(msg.tabId, msg.text, msg.mode);
      case 'chat.stop': {
        const s = sessions.get(msg.tabId);
        return { ok: true, data: { stopped: s ? runs.stopRun(s) : false } };
      }
      case 'chat.clear': {
        // The same session, emptied: the panel listening to it follows the next run.
        await runs.newChat(await session(msg.tabId));
        return { ok: true, data: null };
      }
      case 'chat.state': {
        const s = await session(msg.tabId);
        return { ok: true, data: { items: s.items, running: s.running } };
      }
      case 'chat.continue': return continueChat(msg.tabId);
      case 'plan.approve': {
        if (!Array.isArray(msg.steps) || msg.steps.some((x) => typeof x !== 'string')) return { ok: false, code: 'INVALID_STEPS', message: 'steps must be a list of plain-text steps.' };
        return answer(msg.tabId, msg.id, { approved: true, steps: msg.steps });
      }
      case 'plan.reject': return answer(msg.tabId, msg.id, { approved: false, steps: [] });
      case 'confirm.answer': {
        if (!['yes', 'task', 'no'].includes(msg.answer)) return { ok: false, code: 'INVALID_ANSWER', message: 'answer must be "yes" (allow once), "task" (allow for this task) or "no".' };
        return answer(msg.tabId, msg.id, msg.answer);
      }
      case 'clarify.answer': {
        if (typeof msg.text !== 'string' || !msg.text.trim()) return { ok: false, code: 'EMPTY', message: 'Type an answer first.' };
        return answer(msg.tabId, msg.id, msg.text.trim());
      }
      case 'jobs.list': case 'jobs.create': case 'jobs.update': case 'jobs.pause': case 'jobs.resume': case 'jobs.runNow': case 'jobs.delete':
        return jobs.handle(msg);
      case 'tool.run': return runTool(msg.tabId, msg.name, msg.args ?? {});
      case 'tool.list': return { ok: true, data: ALL_TOOLS.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters, effects: t.effects })) };
      case 'provider.models': {
        const conf = await settings.get();
        // The options page may test a provider before saving it; a redacted key means the stored one.
        const target = msg.provider ? mergeProviderKeys([msg.provider], storedProviders(conf))[0] : conf.provider;
        try {
          await syncLocalEndpoints(conf, target);
          const models = await createProvider(target, { fetch: globalThis.fetch.bind(globalThis), languageModel: platform.languageModel() }).listModels();
          return { ok: true, data: models };
        } catch (err) {
          const e = /** @type {{code?: string, message?: string}} */ (err);
          return { ok: false, code: e.code ?? 'PROVIDER_ERROR', message: e.message ?? String(err) };
        }
      }
      case 'settings.get': return { ok: true, data: redactSettings(await settings.get()) };
      case 'history.list': return { ok: true, data: await history.list() };
      case 'history.get': {
        const run = await history.get(msg.id);
        return run ? { ok: true, data: run } : { ok: false, code: 'NOT_FOUND', message: 'That run is no longer in the history.' };
      }
      case 'history.clear': await history.clear(); return { ok: true, data: null };
      case 'settings.set': {
        const patch = { ...msg.settings };
        // Choosing a provider (first run or the options page) ends the first run.
        if (patch.provider && patch.onboarded === undefined) patch.onboarded = true;
        if (patch.providers) {
          const merged = mergeProviderKeys(patch.providers, storedProviders(await settings.get()));
          patch.providers = merged;
          // The active provider is one of the list: take its key from there, not from the old active one.
          const same = patch.provider?.id ? merged.find((p) => p.id === patch.provider?.id) : undefined;
          if (same) patch.provider = same;
        }
        // The options page shows a redacted key; saving it back unchanged must not overwrite the real one.
        if (patch.provider?.apiKey === '••••') {
          const { apiKey: _drop, ...rest } = patch.provider;
          patch.provider = /** @type {any} */ (rest);
        }
        const saved = await settings.set(patch);
        if (!saved.ok) return saved;
        await syncLocalEndpoints(saved.settings);
        return { ok: true, data: redactSettings(saved.settings) };
      }
      default:
        return { ok: false, code: 'UNKNOWN_REQUEST', message: `Unknown request type "${/** @type {{type: string}} */ (msg).type}".` };
    }
  }

  /**
   * The tool runner: a tool run exactly as the agent would run it, for tests, evals and debugging.
   * @param {number} tabId @param {string} name @param {Record<string, unknown>} rawArgs
   * @returns {Promise<RouterReply>}
   */
  async function runTool(tabId, name, rawArgs) {
    const tool = findTool(name);
    if (!tool) return { ok: false, code: 'UNKNOWN_TOOL', message: `There is no tool named "${name}". Known tools: ${ALL_TOOLS.map((t) => t.name).join(', ')}.` };
    const parsed = parseToolArgs(JSON.stringify(rawArgs), tool.parameters);
    if (!parsed.ok) return parsed;
    /** @type {ToolContext} */
    const ctx = { tabId, browser: ops };
    return tool.run(parsed.args, ctx);
  }

  /** Hand the panel's answer to the run waiting for it. @param {number} tabId @param {string} id @param {unknown} value @returns {Promise<RouterReply>} */
  async function answer(tabId, id, value) {
    const s = await session(tabId);
    if (s.answer(id, value)) return { ok: true, data: null };
    return { ok: false, code: 'NOT_WAITING', message: 'Nothing is waiting for this answer any more (the run ended or was stopped).' };
  }

  const runs = createRuns({ platform, settings, ops, history, session, jobs: () => jobs, checkpoint: (s) => { persist(s); return store.flush(s.tabId); } });
  const { startChat, continueChat } = runs;
  const jobs = startJobs({ beginRun: runs.beginRun, ops, isBusy: (tabId) => Boolean(sessions.get(tabId)?.running), closeTabs: () => settings.get().then((s) => s.closeJobTabs !== false) });

  browser.runtime.onMessage.addListener((/** @type {any} */ msg, /** @type {any} */ sender, /** @type {(r: unknown) => void} */ sendResponse) => {
    // The Stop button of the on-page indicator: a content script may stop its own tab's run, nothing else.
    if (msg?.type === 'indicator.stop' && sender?.id === browser.runtime.id && typeof sender.tab?.id === 'number') {
      const s = sessions.get(sender.tab.id);
      sendResponse({ ok: true, data: { stopped: s ? runs.stopRun(s) : false } });
      return false;
    }
    if (!msg || typeof msg.type !== 'string' || !/^(chat|tool|settings|provider|plan|confirm|clarify|history|jobs)\./.test(msg.type)) return false;
    if (!fromExtensionPage(sender)) {
      sendResponse({ ok: false, code: 'FORBIDDEN', message: 'Only Tabwright\'s own pages may send this request.' });
      return false;
    }
    handle(msg).then(sendResponse, (err) => sendResponse({ ok: false, code: 'INTERNAL_ERROR', message: err instanceof Error ? err.message : String(err) }));
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
    port.onDisconnect.addListener(() => { open = false; if (attached && listener) attached.listeners.delete(listener); });
    // The panel's keepalive messages need no answer: receiving them keeps Chrome's worker awake (panel.js).
    port.onMessage.addListener(() => {});
    session(Number(m[1])).then((s) => {
      if (!open) return;
      attached = s;
      listener = (e) => port.postMessage(e);
      s.listeners.add(listener);
      port.postMessage({ type: 'state', items: s.items, running: s.running });
      port.postMessage({ type: 'usage', usage: s.usage });
    });
  });

  browser.tabs.onRemoved.addListener((/** @type {number} */ tabId) => {
    const s = sessions.get(tabId);
    if (s) runs.stopRun(s, 'tab_closed');
    sessions.delete(tabId);
    store.remove(tabId).catch(() => {});
  });

  platform.setupPanel();
  return { sessions, jobs };
}
