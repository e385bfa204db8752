// The background's message router: panels and other extension pages talk to it; it owns the
// per-tab sessions, starts agent runs, and exposes the tool runner.
/** @import { Mode, ToolContext } from '../types/core' */
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
import { createHistoryStore } from './history-store.js';
import { mergeProviderKeys } from './settings-io.js';
import { maskSecretArgs } from './secret-args.js';
import { isExtensionPage } from './sender.js';

/** @param {{ platform: Platform }} deps */
export function startRouter({ platform }) {
  const settings = createSettingsStore(browser.storage.local);
  const ops = createBrowserOps(platform);
  const history = createHistoryStore();
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
        s?.broadcast({ type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } });
        return { ok: true, data: null };
      }
      case 'chat.state': {
        const s = session(msg.tabId);
        return { ok: true, data: { items: s.items, running: s.running } };
      }
      case 'tool.run': return runTool(msg.tabId, msg.name, msg.args ?? {});
      case 'tool.list': return { ok: true, data: ALL_TOOLS.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters, readOnly: t.readOnly })) };
      case 'provider.models': {
        const conf = await settings.get();
        // The options page may test a provider before saving it; a redacted key means the stored one.
        const target = msg.provider ? mergeProviderKeys([msg.provider], storedProviders(conf))[0] : conf.provider;
        try {
          const models = await createProvider(target, { fetch: globalThis.fetch.bind(globalThis) }).listModels();
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
        return { ok: true, data: redactSettings(await settings.set(patch)) };
      }
      default:
        return { ok: false, code: 'UNKNOWN_REQUEST', message: `Unknown request type "${/** @type {{type: string}} */ (msg).type}".` };
    }
  }

  /** The stored providers, including a lone provider saved before the list existed. @param {import('../types/messages').Settings} conf */
  function storedProviders(conf) {
    return [...(conf.providers ?? []), { ...conf.provider, id: conf.provider.id ?? 'default' }];
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
    const s = session(tabId);
    if (s.running) return { ok: false, code: 'BUSY', message: 'A run is already in progress in this tab. Stop it first.' };
    if (!text.trim()) return { ok: false, code: 'EMPTY', message: 'Type a message first.' };
    const conf = await settings.get();
    const tab = await ops.getTab(tabId);
    const prompt = systemPrompt({ mode, url: tab?.url, title: tab?.title });
    if (s.messages[0]?.role === 'system') s.messages[0] = { role: 'system', content: prompt };
    else s.messages.unshift({ role: 'system', content: prompt });
    s.messages.push({ role: 'user', content: text });
    const controller = new AbortController();
    s.run = controller;
    s.setRunning(true);
    const firstItem = s.items.length;
    const startedAt = Date.now();
    const usageBefore = s.usage;
    s.addUser(text, mode);
    // The on-page indicator shows that the agent may act; Ask mode only reads, so it stays hidden.
    if (mode === 'act') showIndicator(tabId, true);

    const provider = createProvider(conf.provider, { fetch: globalThis.fetch.bind(globalThis) });
    runAgent({
      provider, mode, messages: s.messages, signal: controller.signal, maxSteps: conf.maxSteps,
      toolContext: { tabId, browser: ops, signal: controller.signal },
      emit: (e) => s.apply(e),
      newId: () => s.newId(),
    }).catch((err) => s.addError('INTERNAL_ERROR', `The run failed unexpectedly: ${err instanceof Error ? err.message : err}`))
      .finally(async () => {
        if (mode === 'act') showIndicator(tabId, false);
        // The run is in the history before the panel hears it ended, so "idle" means "recorded".
        // The history is a convenience: a failed or stuck write never keeps the run going.
        const usage = { inputTokens: s.usage.inputTokens - usageBefore.inputTokens, outputTokens: s.usage.outputTokens - usageBefore.outputTokens };
        const save = ops.getTab(tabId).then((t) => history.save({
          id: `${tabId}-${startedAt}`, tabId, url: t?.url ?? tab?.url ?? '', title: t?.title ?? tab?.title ?? '', mode,
          startedAt, endedAt: Date.now(), items: s.items.slice(firstItem).map(maskSecretArgs), usage,
        }));
        await Promise.race([save.catch(() => {}), new Promise((r) => setTimeout(r, 2000))]);
        if (s.run === controller) s.run = null;
        s.setRunning(false);
      });
    return { ok: true, data: { started: true } };
  }

  /** @param {number} tabId @param {boolean} show */
  function showIndicator(tabId, show) {
    ops.sendToContent(tabId, { type: 'content.indicator', show })
      .catch(() => { /* pages Tabwright cannot script show no indicator */ });
  }

  browser.runtime.onMessage.addListener((/** @type {any} */ msg, /** @type {any} */ sender, /** @type {(r: unknown) => void} */ sendResponse) => {
    // The Stop button of the on-page indicator: a content script may stop its own tab's run, nothing else.
    if (msg?.type === 'indicator.stop' && sender?.id === browser.runtime.id && typeof sender.tab?.id === 'number') {
      const s = sessions.get(sender.tab.id);
      s?.run?.abort();
      sendResponse({ ok: true, data: { stopped: Boolean(s?.run) } });
      return false;
    }
    if (!msg || typeof msg.type !== 'string' || !/^(chat|tool|settings|provider|history)\./.test(msg.type)) return false;
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
    port.postMessage({ type: 'usage', usage: s.usage });
  });

  browser.tabs.onRemoved.addListener((/** @type {number} */ tabId) => {
    sessions.get(tabId)?.run?.abort();
    sessions.delete(tabId);
  });

  platform.setupPanel();
  return { sessions };
}
