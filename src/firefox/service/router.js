// The background's message router: panels and other extension pages talk to it; it owns the
// per-tab sessions, starts agent runs, and exposes the tool runner.
/** @import { Mode, RunOutcome, ToolContext } from '../types/core' */
/** @import { RouterReply, RouterRequest, PanelEvent } from '../types/messages' */
/** @import { Platform } from '../types/platform' */
import { runAgent } from '../agent/loop.js';
import { systemPrompt } from '../agent/prompts.js';
import { ALL_TOOLS, findTool } from '../agent/tools/index.js';
import { parseToolArgs } from '../agent/tool-args.js';
import { createProvider } from '../providers/index.js';
import { createBrowserOps } from './browser-ops.js';
import { createSettingsStore, redactSettings } from './settings.js';
import { Session } from './session.js';
import { isExtensionPage } from './sender.js';
import { startJobs } from './jobs.js';

/** @param {{ platform: Platform }} deps */
export function startRouter({ platform }) {
  const settings = createSettingsStore(browser.storage.local);
  const ops = createBrowserOps(platform);
  /** @type {Map<number, Session>} */
  const sessions = new Map();

  /** @param {number} tabId */
  function session(tabId) {
    let s = sessions.get(tabId);
    if (!s) { s = new Session(tabId); sessions.set(tabId, s); }
    return s;
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
        s?.run?.abort();
        return { ok: true, data: { stopped: Boolean(s?.run) } };
      }
      case 'chat.clear': {
        const s = sessions.get(msg.tabId);
        s?.run?.abort();
        sessions.delete(msg.tabId);
        s?.broadcast({ type: 'state', items: [], running: false });
        return { ok: true, data: null };
      }
      case 'chat.state': {
        const s = session(msg.tabId);
        return { ok: true, data: { items: s.items, running: s.running } };
      }
      case 'jobs.list': case 'jobs.create': case 'jobs.update': case 'jobs.pause': case 'jobs.resume': case 'jobs.runNow': case 'jobs.delete':
        return jobs.handle(msg);
      case 'tool.run': return runTool(msg.tabId, msg.name, msg.args ?? {});
      case 'tool.list': return { ok: true, data: ALL_TOOLS.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters, readOnly: t.readOnly })) };
      case 'provider.models': {
        const conf = await settings.get();
        try {
          const models = await createProvider(conf.provider, { fetch: globalThis.fetch.bind(globalThis) }).listModels();
          return { ok: true, data: models };
        } catch (err) {
          const e = /** @type {{code?: string, message?: string}} */ (err);
          return { ok: false, code: e.code ?? 'PROVIDER_ERROR', message: e.message ?? String(err) };
        }
      }
      case 'settings.get': return { ok: true, data: redactSettings(await settings.get()) };
      case 'settings.set': {
        const patch = { ...msg.settings };
        // The options page shows a redacted key; saving it back unchanged must not overwrite the real one.
        if (patch.provider?.apiKey === '••••') {
          const { apiKey: _drop, ...rest } = patch.provider;
          patch.provider = /** @type {any} */ (rest);
        }
        return { ok: true, data: redactSettings(await settings.set(patch)) };
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

  /** @param {number} tabId @param {string} text @param {Mode} mode @returns {Promise<RouterReply>} */
  async function startChat(tabId, text, mode) {
    const run = await beginRun(tabId, text, mode);
    return run.ok ? { ok: true, data: { started: true } } : run;
  }

  /**
   * Starts an agent run in a tab's session and returns at once with a promise of its outcome:
   * the panel's Send and scheduled jobs (service/jobs.js) both start runs here.
   * @param {number} tabId @param {string} text @param {Mode} mode
   * @param {{ fresh?: boolean }} [opts] fresh: the model sees only this prompt (a scheduled task); the panel's transcript keeps what came before
   * @returns {Promise<{ ok: true, outcome: Promise<RunOutcome>, stop: () => void } | { ok: false, code: string, message: string }>}
   */
  async function beginRun(tabId, text, mode, opts = {}) {
    const s = session(tabId);
    if (s.running) return { ok: false, code: 'BUSY', message: 'A run is already in progress in this tab. Stop it first.' };
    if (!text.trim()) return { ok: false, code: 'EMPTY', message: 'Type a message first.' };
    const conf = await settings.get();
    const tab = await ops.getTab(tabId);
    const prompt = systemPrompt({ mode, url: tab?.url, title: tab?.title });
    if (opts.fresh) s.messages.length = 0;
    if (s.messages[0]?.role === 'system') s.messages[0] = { role: 'system', content: prompt };
    else s.messages.unshift({ role: 'system', content: prompt });
    s.messages.push({ role: 'user', content: text });
    const controller = new AbortController();
    s.run = controller;
    s.setRunning(true);
    s.addUser(text, mode);

    const provider = createProvider(conf.provider, { fetch: globalThis.fetch.bind(globalThis) });
    const outcome = runAgent({
      provider, mode, messages: s.messages, signal: controller.signal, maxSteps: conf.maxSteps,
      toolContext: { tabId, browser: ops, signal: controller.signal, jobs: jobs.access },
      emit: (e) => s.apply(e),
      newId: () => s.newId(),
    }).catch((err) => {
      const message = `The run failed unexpectedly: ${err instanceof Error ? err.message : err}`;
      s.addError('INTERNAL_ERROR', message);
      return /** @type {RunOutcome} */ ({ status: 'error', error: { code: 'INTERNAL_ERROR', message }, steps: 0 });
    }).finally(() => { if (s.run === controller) s.run = null; s.setRunning(false); });
    return { ok: true, outcome, stop: () => controller.abort() };
  }

  const jobs = startJobs({ beginRun, ops, isBusy: (tabId) => Boolean(sessions.get(tabId)?.running) });

  browser.runtime.onMessage.addListener((/** @type {any} */ msg, /** @type {any} */ sender, /** @type {(r: unknown) => void} */ sendResponse) => {
    if (!msg || typeof msg.type !== 'string' || !/^(chat|tool|settings|provider|jobs)\./.test(msg.type)) return false;
    if (!fromExtensionPage(sender)) {
      sendResponse({ ok: false, code: 'FORBIDDEN', message: 'Only Tabwright\'s own pages may send this request.' });
      return false;
    }
    handle(msg).then(sendResponse, (err) => sendResponse({ ok: false, code: 'INTERNAL_ERROR', message: err instanceof Error ? err.message : String(err) }));
    return true;
  });

  browser.runtime.onConnect.addListener((/** @type {any} */ port) => {
    const m = /^panel:(\d+)$/.exec(port.name ?? '');
    if (!m || !fromExtensionPage(port.sender ?? {})) { port.disconnect(); return; }
    const s = session(Number(m[1]));
    /** @param {PanelEvent} e */
    const listener = (e) => port.postMessage(e);
    s.listeners.add(listener);
    port.onDisconnect.addListener(() => s.listeners.delete(listener));
    port.postMessage({ type: 'state', items: s.items, running: s.running });
  });

  browser.tabs.onRemoved.addListener((/** @type {number} */ tabId) => {
    sessions.get(tabId)?.run?.abort();
    sessions.delete(tabId);
  });

  platform.setupPanel();
  return { sessions, jobs };
}
