// Agent runs in a tab: the panel's Send and Continue, and scheduled jobs (service/jobs.js) start them
// here. A run gets its provider(s), confirmation policy and panel interaction from settings, shows the
// on-page indicator while it may act, and is recorded in the history when it ends.
/** @import { Mode, RunOutcome, Interaction } from '../types/core' */
/** @import { RouterReply, Settings } from '../types/messages' */
/** @import { Platform } from '../types/platform' */
/** @import { Session } from './session.js' */
import { runAgent } from '../agent/loop.js';
import { systemPrompt } from '../agent/prompts.js';
import { createPolicy } from '../agent/safety/policy.js';
import { createTaskScope } from '../agent/safety/scope.js';
import { createFence } from '../agent/untrusted.js';
import { textOf } from '../agent/compaction.js';
import { createProvider } from '../providers/index.js';
import { createPanelInteraction } from './interaction.js';
import { maskSecretArgs } from './secret-args.js';
import { storedProviders } from './settings.js';

/**
 * @param {object} deps
 * @param {Platform} deps.platform
 * @param {ReturnType<typeof import('./settings.js').createSettingsStore>} deps.settings
 * @param {import('../types/core').BrowserOps} deps.ops
 * @param {ReturnType<typeof import('./history-store.js').createHistoryStore>} deps.history
 * @param {(tabId: number) => Promise<Session>} deps.session
 * @param {() => ReturnType<typeof import('./jobs.js').startJobs>} deps.jobs the scheduler, which itself starts runs here
 */
export function createRuns({ platform, settings, ops, history, session, jobs }) {
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
    const s = await session(tabId);
    if (s.running) return { ok: false, code: 'BUSY', message: 'A run is already in progress in this tab. Stop it first.' };
    if (!text.trim()) return { ok: false, code: 'EMPTY', message: 'Type a message first.' };
    if (s.interrupted) s.prepareContinue();
    if (opts.fresh) s.messages.length = 0;
    s.messages.push({ role: 'user', content: text });
    const firstItem = s.items.length;
    s.addUser(text, mode);
    return startRun(s, mode, firstItem);
  }

  /** Resume a run the stopped service worker interrupted. @param {number} tabId @returns {Promise<RouterReply>} */
  async function continueChat(tabId) {
    const s = await session(tabId);
    if (s.running) return { ok: false, code: 'BUSY', message: 'A run is already in progress in this tab.' };
    if (!s.interrupted) return { ok: false, code: 'NOTHING_TO_CONTINUE', message: 'There is no interrupted run in this tab. Send a message instead.' };
    s.prepareContinue();
    // The history record of a continued run starts at the message that began it: the part before
    // the stop was never recorded (the worker died with it).
    let firstItem = s.items.length;
    while (firstItem > 0 && s.items[firstItem - 1].kind !== 'user') firstItem--;
    // An interrupted plan goes on as Act: its approved steps are in the conversation.
    await startRun(s, s.mode === 'plan' ? 'act' : s.mode, Math.max(0, firstItem - 1));
    return { ok: true, data: { started: true } };
  }

  /**
   * @param {Session} s @param {Mode} mode
   * @param {number} firstItem the transcript index where this run starts (its history record holds what follows)
   * @returns {Promise<{ ok: true, outcome: Promise<RunOutcome>, stop: () => void }>}
   */
  async function startRun(s, mode, firstItem) {
    const tabId = s.tabId;
    const conf = await settings.get();
    const tab = await ops.getTab(tabId);
    const fence = createFence();
    /** @param {Mode} m */
    const systemFor = (m) => systemPrompt({ mode: m, url: tab?.url, title: tab?.title, fence });
    if (s.messages[0]?.role === 'system') s.messages[0] = { role: 'system', content: systemFor(mode) };
    else s.messages.unshift({ role: 'system', content: systemFor(mode) });
    s.mode = mode;
    const controller = new AbortController();
    s.run = controller;
    s.setRunning(true);
    const startedAt = Date.now();
    const usageBefore = { ...s.usage };
    // The on-page indicator shows that the agent may act; Ask mode only reads, so it stays hidden.
    const acting = mode !== 'ask';
    if (acting) showIndicator(tabId, true);

    const deps = {
      fetch: globalThis.fetch.bind(globalThis),
      languageModel: platform.languageModel(),
      onWaiting: (/** @type {any} */ w) => s.apply({ type: 'waiting', ...w }),
    };
    const provider = createProvider(conf.provider, deps);
    const executorProvider = roleProvider(conf, 'executor', deps);
    const interact = reportWaiting(tabId, createPanelInteraction(s));
    // The task: the site the user started on and the sites they named in their request.
    const request = [...s.messages].reverse().find((m) => m.role === 'user');
    const policy = createPolicy({
      scope: createTaskScope(tab?.url ?? '', request ? textOf(request.content) : ''),
      alwaysAllow: conf.sites?.allow, alwaysConfirm: conf.sites?.confirm, strictSecrets: conf.strictSecrets === true, secrets: s.secrets,
    });
    const outcome = runAgent({
      provider, executorProvider, mode, messages: s.messages, signal: controller.signal, maxSteps: conf.maxSteps,
      toolContext: { tabId, browser: ops, signal: controller.signal, jobs: jobs().access },
      emit: (e) => s.apply(e),
      newId: () => s.newId(),
      interact,
      policy,
      fence,
      secrets: s.secrets,
      pinned: s.pinned,
      systemFor,
    }).catch((err) => {
      const message = `The run failed unexpectedly: ${err instanceof Error ? err.message : err}`;
      s.addError('INTERNAL_ERROR', message);
      return /** @type {RunOutcome} */ ({ status: 'error', error: { code: 'INTERNAL_ERROR', message }, steps: 0 });
    }).finally(async () => {
        if (acting) showIndicator(tabId, false);
        // The run is in the history before the panel hears it ended, so "idle" means "recorded".
        // The history is a convenience: a failed or stuck write never keeps the run going.
        const usage = { inputTokens: s.usage.inputTokens - usageBefore.inputTokens, outputTokens: s.usage.outputTokens - usageBefore.outputTokens };
        const save = ops.getTab(tabId).then((t) => history.save({
          id: `${tabId}-${startedAt}`, tabId, url: t?.url ?? tab?.url ?? '', title: t?.title ?? tab?.title ?? '', mode,
          startedAt, endedAt: Date.now(), items: s.secrets.maskDeep(s.items.slice(firstItem).map(maskSecretArgs)), usage,
        }));
        await Promise.race([save.catch(() => {}), new Promise((r) => setTimeout(r, 2000))]);
        if (s.run === controller) s.run = null;
        s.setRunning(false);
      });
    return { ok: true, outcome, stop: () => controller.abort() };
  }

  /**
   * While a run waits for the user (plan approval, confirmation, clarify), a scheduled job's run
   * shows as needs_user_input and the user is notified (service/jobs.js ignores other runs).
   * @param {number} tabId @param {import('../types/core').Interaction} inner
   * @returns {import('../types/core').Interaction}
   */
  function reportWaiting(tabId, inner) {
    /** @template T @param {() => Promise<T>} ask @returns {Promise<T>} */
    const waiting = async (ask) => {
      jobs().setWaitingForUser(tabId, true);
      try { return await ask(); } finally { jobs().setWaitingForUser(tabId, false); }
    };
    return {
      approvePlan: (id, steps, signal) => waiting(() => inner.approvePlan(id, steps, signal)),
      confirm: (req, signal) => waiting(() => inner.confirm(req, signal)),
      clarify: (question, signal) => waiting(() => inner.clarify(question, signal)),
    };
  }

  /** @param {number} tabId @param {boolean} show */
  function showIndicator(tabId, show) {
    ops.sendToContent(tabId, { type: 'content.indicator', show })
      .catch(() => { /* pages Tabwright cannot script show no indicator */ });
  }

  /**
   * The provider a role (planner, executor, vision) is set to in settings, or undefined for "the
   * main model". An empty model means that provider's own model.
   * @param {import('../types/messages').Settings} conf @param {'planner' | 'executor' | 'vision'} role
   * @param {Parameters<typeof createProvider>[1]} deps
   */
  function roleProvider(conf, role, deps) {
    const r = conf.roles?.[role];
    if (!r || (!r.providerId && !r.model)) return undefined;
    const base = storedProviders(conf).find((p) => p.id === r.providerId) ?? conf.provider;
    return createProvider({ ...base, model: r.model || base.model }, deps);
  }

  return { startChat, beginRun, continueChat };
}
