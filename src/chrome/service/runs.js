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
import { withOrgRules } from '../agent/safety/org-rules.js';
import { assertProvidersAllowed, assertModeAllowed } from './settings-managed.js';
import { createTaskScope } from '../agent/safety/scope.js';
import { createFence } from '../agent/untrusted.js';
import { textOf } from '../agent/compaction.js';
import { createProvider } from '../providers/index.js';
import { createPanelInteraction } from './interaction.js';
import { maskSecretArgs } from './secret-args.js';
import { storedProviders } from './settings.js';
import { PAGE_TOOLS, pageTools } from '../agent/tools/webmcp.js';
import { recordingLimits } from './recording-limits.js';
import { budgetSentence } from '../agent/run/spend-check.js';
import { createPersonTurn } from './person-turn.js';
import { findPersonSecrets } from '../agent/handoff/person-secrets.js';
import { originOf } from '../agent/safety/scope.js';

/** Said once per message that held a password or code (the panel shows it in the person's language by its code). */
const PASSWORD_NOTICE = 'A password or code in your message is kept as a secret: the model sees only its name ([secret 1]), and Tabwright types it only into a password or code field of this site. Next time you can leave it out: when a site asks you to sign in, Tabwright hands you the tab.';

/**
 * @param {object} deps
 * @param {Platform} deps.platform
 * @param {ReturnType<typeof import('./settings.js').createSettingsStore>} deps.settings
 * @param {ReturnType<typeof import('./browser-ops.js').createBrowserOps>} deps.ops
 * @param {ReturnType<typeof import('./history-store.js').createHistoryStore>} deps.history
 * @param {(tabId: number) => Promise<Session>} deps.session
 * @param {() => ReturnType<typeof import('./jobs.js').startJobs>} deps.jobs the scheduler, which itself starts runs here
 * @param {typeof createProvider} [deps.providerFor] makes a provider from its settings (tests give a scripted one)
 * @param {(s: Session) => Promise<void>} [deps.checkpoint] writes the session down now (service/session-store.js), not after a debounce
 * @param {ReturnType<typeof import('./knowledge.js').createKnowledge>} [deps.knowledge] site adapters and skills (absent: the run is told nothing about sites)
 * @param {import('./traces.js').Traces} [deps.traces] records each run's trace (absent: no traces)
 * @param {() => import('./workflows.js').Workflows} [deps.workflows] the saved workflows, for the run_workflow tool
 * @param {import('./spend.js').Spend} [deps.spend] each run's tokens and cost, today's, and the budgets (absent: nothing counted or capped)
 */
export function createRuns({ platform, settings, ops, history, session, jobs, knowledge, traces, workflows, spend, providerFor = createProvider, checkpoint = async () => {} }) {
  const personTurn = createPersonTurn({ ops, jobs, showIndicator: (tabId, show) => showIndicator(tabId, show) });
  /** @param {number} tabId @param {string} text @param {Mode} mode @returns {Promise<RouterReply>} */
  async function startChat(tabId, text, mode) {
    const run = await beginRun(tabId, text, mode);
    return run.ok ? { ok: true, data: { started: true } } : run;
  }

  /**
   * Starts an agent run in a tab's session and returns at once with a promise of its outcome:
   * the panel's Send and scheduled jobs (service/jobs.js) both start runs here.
   * @param {number} tabId @param {string} text @param {Mode} mode
   * @param {{ fresh?: boolean, onlyTools?: readonly string[], skill?: string, origin?: import('../types/messages').RunOrigin } & RunExtra} [opts] origin: who started it (a job, an MCP client; the panel when absent); fresh: the model sees only this prompt (a scheduled task); the panel's transcript keeps what came before; onlyTools: a skill's tools, the only ones offered; skill: the skill's name, shown with the message
   * @returns {Promise<{ ok: true, outcome: Promise<RunOutcome>, stop: () => void } | { ok: false, code: string, message: string }>}
   */
  async function beginRun(tabId, text, mode, opts = {}) {
    const s = await session(tabId);
    if (s.running) return { ok: false, code: 'BUSY', message: 'A run is already in progress in this tab. Stop it first.' };
    if (typeof text !== 'string' || !text.trim()) return { ok: false, code: 'EMPTY', message: 'Type a message first.' };
    if (s.interrupted) s.prepareContinue();
    if (opts.fresh) s.messages.length = 0;
    const said = await keepSecrets(s, text);
    s.messages.push({ role: 'user', content: said });
    const firstItem = s.items.length;
    s.addUser(opts.skill ? `/${opts.skill}\n${said}` : said, mode);
    if (said !== text) s.upsert({ kind: 'notice', id: s.newId(), code: 'PASSWORD_IN_MESSAGE', message: PASSWORD_NOTICE });
    return startRun(s, mode, firstItem, opts.onlyTools, opts);
  }

  /**
   * A password or code in the person's message becomes a secret of the tab's site: the vault masks
   * it everywhere, and the model (and the panel, History, storage) see its name, "[secret 1]".
   * @param {Session} s @param {string} text @returns {Promise<string>} the message as the model sees it
   */
  async function keepSecrets(s, text) {
    const found = findPersonSecrets(text, s.personSecrets.length + 1);
    if (!found.values.length) return text;
    const origin = originOf((await ops.getTab(s.tabId).catch(() => null))?.url ?? '') ?? '';
    s.secrets.add(found.values, origin);
    found.values.forEach((value) => s.personSecrets.push({ name: `[secret ${s.personSecrets.length + 1}]`, value, origin }));
    return found.text;
  }

  /**
   * Retry after an error, or go on after Stop: a new run over the conversation as it stands (its
   * last message is the user's, or a tool result the model has not answered yet).
   * @param {number} tabId @returns {Promise<RouterReply>}
   */
  async function retryChat(tabId) {
    const s = await session(tabId);
    if (s.running) return { ok: false, code: 'BUSY', message: 'A run is already in progress in this tab.' };
    if (s.interrupted) return continueChat(tabId);
    if (!s.messages.some((m) => m.role === 'user')) return { ok: false, code: 'NOTHING_TO_CONTINUE', message: 'There is nothing to retry in this tab. Send a message instead.' };
    // A run that ended while its model was answering a call left no answer: drop the assistant turn whose calls have no results.
    const last = s.messages[s.messages.length - 1];
    if (last?.role === 'assistant' && last.toolCalls?.length) s.messages.pop();
    await startRun(s, s.mode === 'plan' ? 'act' : s.mode, s.items.length);
    return { ok: true, data: { started: true } };
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
   * Starts a run in a tab whose run is settled. Every way out goes through the run's state
   * (service/run-state.js): a run that cannot start (an unknown provider kind, a settings read that
   * throws) ends failed, with its message in the transcript and the conversation kept; Stop while
   * it starts ends it stopped; the tab is never left busy.
   * @param {Session} s @param {Mode} mode
   * @param {number} firstItem the transcript index where this run starts (its history record holds what follows)
   * @param {readonly string[]} [onlyTools] a skill's tools
   * @param {RunExtra} [extra] a workflow replay's runner (instead of the agent loop)
   * @returns {Promise<{ ok: true, outcome: Promise<RunOutcome>, stop: () => void } | { ok: false, code: string, message: string }>}
   */
  async function startRun(s, mode, firstItem, onlyTools, extra = {}) {
    s.state.transition('start');
    s.origin = extra.origin ?? { kind: 'panel' };
    s.task = s.origin.task ?? textOf([...s.messages].reverse().find((m) => m.role === 'user')?.content ?? '');
    s.startedAt = Date.now();
    const generation = s.generation;
    const controller = new AbortController();
    s.run = controller;
    s.mode = mode;
    // This run may write to the session while it is the session's run: not after New chat, nor
    // once a newer run took the tab (after Stop, while this one still unwinds).
    const current = () => s.generation === generation && s.run === controller;
    // Write-ahead: the user's message is stored before anything else happens.
    await checkpoint(s).catch(() => {});
    const startedAt = Date.now();
    const usageBefore = { ...s.usage };
    const acting = mode !== 'ask';
    let shown = false;
    /** @type {Promise<RunOutcome>} */
    let outcome;
    /** @type {{ url?: string, title?: string } | null} */
    let tab = null;
    /** @type {import('./traces.js').TraceHandle | null} */
    let trace = null;
    try {
      const setup = await prepareRun(s, mode, controller, current, onlyTools);
      tab = setup.tab;
      // The run's trace: its requests, tool calls and page data, under the history record's id.
      const task = textOf([...s.messages].reverse().find((m) => m.role === 'user')?.content ?? '');
      trace = await traces?.begin({ id: `${s.tabId}-${startedAt}`, tabId: s.tabId, kind: extra.runner ? 'replay' : 'agent', mode, task, tab, secrets: s.secrets, workflowId: extra.workflowId }).catch(() => null) ?? null;
      trace?.wrap(setup.options);
      if (controller.signal.aborted) {
        outcome = Promise.resolve(/** @type {RunOutcome} */ ({ status: 'aborted', steps: 0 }));
      } else {
        // The on-page indicator shows that the agent may act; Ask mode only reads, so it stays hidden.
        if (acting) { showIndicator(s.tabId, true); shown = true; }
        s.state.transition('ready');
        outcome = (extra.runner ?? runAgent)(setup.options).catch((err) => {
          const message = `The run failed unexpectedly: ${err instanceof Error ? err.message : err}`;
          if (current()) s.addError('INTERNAL_ERROR', message);
          return /** @type {RunOutcome} */ ({ status: 'error', error: { code: 'INTERNAL_ERROR', message }, steps: 0 });
        });
      }
    } catch (err) {
      const message = `The run could not start: ${err instanceof Error ? err.message : String(err)}`;
      if (current()) s.addError('RUN_NOT_STARTED', message);
      outcome = Promise.resolve(/** @type {RunOutcome} */ ({ status: 'error', error: { code: 'RUN_NOT_STARTED', message }, steps: 0 }));
    }
    const ended = outcome.then(async (o) => {
      if (current()) spend?.end(s.tabId);
      // A newer run in this tab owns the indicator now; after New chat nobody does.
      if (shown && (s.run === controller || s.run === null)) showIndicator(s.tabId, false);
      if (!current()) return;
      // The run is in the history before the panel hears it ended, so "idle" means "recorded".
      await Promise.all([record(s, { firstItem, startedAt, usageBefore, mode, tab, status: o.status, outcome: o.outcome }), trace?.finish(o)]);
      if (!current()) return;
      s.run = null;
      s.state.transition(o.status === 'aborted' ? 'stop' : o.status === 'error' ? 'fail' : 'finish');
    });
    s.settled = ended;
    return { ok: true, outcome: ended.then(() => outcome), stop: () => stopRun(s) };
  }

  /**
   * What a run needs before the model is asked: settings, the tab, the system prompt, providers
   * (which throw on a kind Tabwright does not know), policy and the agent's options.
   * @param {Session} s @param {Mode} mode @param {AbortController} controller @param {() => boolean} current
   * @param {readonly string[]} [onlyTools]
   */
  async function prepareRun(s, mode, controller, current, onlyTools) {
    const tabId = s.tabId;
    const conf = await settings.get();
    // The organization's policy: a provider it does not allow is never sent the page, nor is Act run under Ask only.
    assertProvidersAllowed(conf);
    assertModeAllowed(conf, mode);
    const tab = await ops.getTab(tabId);
    const fence = createFence();
    // With the developer tools on, an acting run keeps the tab's request log from its first step.
    if (conf.devTools === true && mode === 'act') await ops.devtools.network.watch(tabId).catch(() => {});
    /** @param {Mode} m */
    const systemFor = (m) => systemPrompt({ mode: m, url: tab?.url, title: tab?.title, fence });
    if (s.messages[0]?.role === 'system') s.messages[0] = { role: 'system', content: systemFor(mode) };
    else s.messages.unshift({ role: 'system', content: systemFor(mode) });
    const deps = {
      fetch: globalThis.fetch.bind(globalThis),
      languageModel: platform.languageModel(),
      onWaiting: (/** @type {any} */ w) => { if (current()) s.apply({ type: 'waiting', ...w }); },
    };
    const provider = providerFor(conf.provider, deps);
    const executorProvider = roleProvider(conf, 'executor', deps);
    const plannerProvider = roleProvider(conf, 'planner', deps);
    const visionProvider = roleProvider(conf, 'vision', deps);
    const interact = reportWaiting(s, createPanelInteraction(s));
    // The task: the site the user started on and the sites they named in their request.
    const request = [...s.messages].reverse().find((m) => m.role === 'user');
    const policy = withOrgRules(createPolicy({
      scope: createTaskScope(tab?.url ?? '', request ? textOf(request.content) : ''),
      alwaysAllow: conf.sites?.allow, alwaysConfirm: conf.sites?.confirm, strictSecrets: conf.strictSecrets === true, secrets: s.secrets,
      sensitiveSite: knowledge ? await knowledge.sensitiveSites() : undefined,
    }), conf.managed);
    /** @type {Parameters<typeof runAgent>[0]} */
    const options = {
      provider, executorProvider, plannerProvider, visionProvider, screenshots: conf.screenshotPolicy, mode, messages: s.messages, signal: controller.signal, maxSteps: conf.maxSteps,
      checkpoint: () => (current() ? checkpoint(s).catch(() => {}) : Promise.resolve()),
      toolContext: { tabId, browser: ops, signal: controller.signal, jobs: jobs().access, skills: knowledge?.skillsAccess, recording: recordingLimits(conf), workflows: workflows?.().access },
      developerTools: conf.devTools === true,
      hasWorkflows: workflows ? (await workflows().access.list().catch(() => [])).length > 0 : false,
      siteGuide: knowledge ? (url) => knowledge.siteGuide(url) : undefined,
      onlyTools,
      toolTier: conf.provider.toolTier,
      // WebMCP (Settings): the page's own tools; calling one acts, so only Act mode offers it.
      extraTools: conf.webmcp === true ? (mode === 'act' ? [...PAGE_TOOLS] : [pageTools]) : undefined,
      emit: (e) => {
        if (!current()) return;
        // Ended because its tab was closed: say that, not "Stopped" (the history keeps the record).
        if (e.type === 'error' && e.code === 'ABORTED' && s.stopReason === 'tab_closed') e = { type: 'error', code: 'TAB_CLOSED', message: 'The tab was closed, and the run ended with it.' };
        if (e.type === 'text_delta' || e.type === 'tool_result') s.state.transition('stream');
        else if (e.type === 'tool_call') s.state.transition('act');
        s.apply(e);
      },
      newId: () => s.newId(),
      interact,
      policy,
      fence,
      secrets: s.secrets,
      personSecrets: s.personSecrets,
      pinned: s.pinned,
      systemFor,
      // The settle period after done: the product's default unless the settings say otherwise.
      holdTimes: conf.settleMs ? { afterDoneMs: conf.settleMs } : undefined,
    };
    // Every model call of the run is counted, and one that would pass a budget waits (agent/run/spend-check.js).
    await spend?.begin(tabId, conf.budget, options);
    return { tab, options };
  }

  /**
   * The finished run's history record. The history is a convenience: a failed or stuck write never
   * keeps the run going.
   * @param {Session} s @param {{ firstItem: number, startedAt: number, usageBefore: { inputTokens: number, outputTokens: number }, mode: Mode, tab: { url?: string, title?: string } | null, status?: import('../types/core').RunStatus, outcome?: import('../types/core').Outcome }} run
   */
  async function record(s, { firstItem, startedAt, usageBefore, mode, tab, status, outcome }) {
    const usage = { inputTokens: s.usage.inputTokens - usageBefore.inputTokens, outputTokens: s.usage.outputTokens - usageBefore.outputTokens };
    const save = ops.getTab(s.tabId).then((t) => history.save({
      id: `${s.tabId}-${startedAt}`, tabId: s.tabId, url: t?.url ?? tab?.url ?? '', title: t?.title ?? tab?.title ?? '', mode,
      startedAt, endedAt: Date.now(), status, items: s.secrets.maskDeep(s.items.slice(firstItem).map(maskSecretArgs)), usage,
      // The verdict History shows: the same one the panel showed, its receipt masked like the transcript.
      ...(outcome ? { outcome: s.secrets.maskDeep(outcome) } : {}),
    }));
    await Promise.race([save.catch(() => {}), new Promise((r) => setTimeout(r, 2000))]);
  }

  /**
   * Stop: ends the run in whatever state it is (starting included); a second Stop changes nothing.
   * @param {Session} s @param {'user' | 'tab_closed'} [reason] @returns {boolean} whether a run was stopped
   */
  function stopRun(s, reason = 'user') {
    if (s.running) s.stopReason = reason;
    s.run?.abort();
    return s.state.transition('stop');
  }

  /**
   * New chat: the old run is stopped and given a moment to be recorded, then the same session
   * starts empty, so the panel that listens to it shows the next run live.
   * @param {Session} s
   */
  async function newChat(s) {
    stopRun(s);
    await Promise.race([s.settled.catch(() => {}), new Promise((r) => setTimeout(r, 3000))]);
    spend?.forget(s.tabId);
    s.reset();
    // The style sheets inject_css added leave with the conversation that added them.
    await ops.devtools.revert(s.tabId).catch(() => {});
  }

  /**
   * While a run waits for the user (plan approval, confirmation, clarify, a budget) its state says so, and a
   * scheduled job's run shows as needs_user_input and the user is notified (service/jobs.js ignores
   * other runs). An answered confirmation lets a tool act; a plan or an answer goes back to the model.
   * @param {Session} s @param {import('../types/core').Interaction} inner
   * @returns {import('../types/core').Interaction}
   */
  function reportWaiting(s, inner) {
    /** @template T @param {() => Promise<T>} ask @param {'act' | 'stream'} after @param {import('../types/jobs').JobWaitReason} [why] @returns {Promise<T>} */
    const waiting = async (ask, after, why) => {
      s.state.transition('wait');
      jobs().setWaitingForUser(s.tabId, true, why);
      try { return await ask(); } finally {
        jobs().setWaitingForUser(s.tabId, false);
        s.state.transition(after);
      }
    };
    return {
      approvePlan: (id, steps, signal) => waiting(() => inner.approvePlan(id, steps, signal), 'stream'),
      confirm: (req, signal) => waiting(() => inner.confirm(req, signal), 'act'),
      clarify: (question, signal) => waiting(() => inner.clarify(question, signal), 'stream'),
      // A job paused at its budget says so on the jobs page.
      budget: (pause, signal) => waiting(() => (inner.budget ? inner.budget(pause, signal) : Promise.resolve(null)), 'stream', { code: 'BUDGET_REACHED', message: budgetSentence(pause), budget: pause }),
      handoff: (moment, signal) => personTurn(s, inner, moment, signal),
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
    return providerFor({ ...base, model: r.model || base.model }, deps);
  }

  return { startChat, beginRun, continueChat, retryChat, stopRun, newChat };
}

/**
 * @typedef {object} RunExtra
 * @property {(options: import('../agent/loop.js').RunOptions) => Promise<RunOutcome>} [runner] runs instead of the agent loop, with the same options (a workflow replay)
 * @property {string} [workflowId] the workflow a replay runs, for its trace
 * @property {import('../types/messages').RunOrigin} [origin] who started the run (the panel when absent)
 */
