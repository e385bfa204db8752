// What a run needs before the model is asked: settings, the tab, the system prompt, providers
// (which throw on a kind Tabwright does not know), the policy and the agent's options.
/** @import { AgentEvent, Mode } from '../../types/core' */
/** @import { Settings } from '../../types/messages' */
/** @import { Session } from '../session.js' */
/** @import { RunsContext } from '../runs.js' */
import { systemPrompt } from '../../agent/prompts.js';
import { createPolicy } from '../../agent/safety/policy.js';
import { withOrgRules } from '../../agent/safety/org-rules.js';
import { createTaskScope } from '../../agent/safety/scope.js';
import { createFence } from '../../agent/untrusted.js';
import { textOf } from '../../agent/compaction.js';
import { PAGE_TOOLS, pageTools } from '../../agent/tools/webmcp.js';
import { assertProvidersAllowed, assertModeAllowed } from '../settings-managed.js';
import { createPanelInteraction } from '../interaction.js';
import { storedProviders } from '../settings.js';
import { recordingLimits } from '../recording-limits.js';
import { reportWaiting } from './waiting.js';
import { errorOf } from '../../agent/error-codes.js';

/** @typedef {import('../../agent/loop.js').RunOptions} RunOptions */

/**
 * @param {RunsContext} ctx @param {Session} s @param {Mode} mode @param {AbortController} controller @param {() => boolean} current
 * @param {readonly string[]} [onlyTools]
 * @returns {Promise<{ tab: { url?: string, title?: string } | null, options: RunOptions }>}
 */
export async function prepareRun(ctx, s, mode, controller, current, onlyTools) {
  const conf = await ctx.settings.get();
  // The organization's policy: a provider it does not allow is never sent the page, nor is Act run under Ask only.
  assertProvidersAllowed(conf);
  assertModeAllowed(conf, mode);
  const tab = await ctx.ops.getTab(s.tabId);
  const fence = createFence();
  // With the developer tools on, an acting run keeps the tab's request log from its first step.
  if (conf.devTools === true && mode === 'act') await ctx.ops.devtools.network.watch(s.tabId).catch(() => {});
  /** @param {Mode} m */
  const systemFor = (m) => systemPrompt({ mode: m, url: tab?.url, title: tab?.title, fence });
  if (s.messages[0]?.role === 'system') s.messages[0] = { role: 'system', content: systemFor(mode) };
  else s.messages.unshift({ role: 'system', content: systemFor(mode) });
  const providers = runProviders(ctx, conf, s, current);
  const interact = reportWaiting(ctx, s, createPanelInteraction(s));
  const policy = await runPolicy(ctx, conf, s, tab?.url ?? '');
  /** @type {RunOptions} */
  const options = {
    ...providers, screenshots: conf.screenshotPolicy, mode, messages: s.messages, signal: controller.signal, maxSteps: conf.maxSteps,
    checkpoint: () => (current() ? ctx.checkpoint(s).catch(() => {}) : Promise.resolve()),
    ...await toolOptions(ctx, conf, s.tabId, mode, controller.signal),
    onlyTools,
    toolTier: conf.provider.toolTier,
    emit: emitTo(s, current),
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
  await ctx.spend?.begin(s.tabId, conf.budget, options);
  return { tab, options };
}

/**
 * The run's models: the main provider and the one each role (executor, planner, vision) is set to.
 * A provider that is waiting before a retry says so on the panel's status line.
 * @param {RunsContext} ctx @param {Settings} conf @param {Session} s @param {() => boolean} current
 */
export function runProviders(ctx, conf, s, current) {
  const deps = {
    fetch: globalThis.fetch.bind(globalThis),
    languageModel: ctx.platform.languageModel(),
    onWaiting: (/** @type {any} */ w) => { if (current()) s.apply({ type: 'waiting', ...w }); },
  };
  return {
    provider: ctx.providerFor(conf.provider, deps),
    executorProvider: roleProvider(ctx.providerFor, conf, 'executor', deps),
    plannerProvider: roleProvider(ctx.providerFor, conf, 'planner', deps),
    visionProvider: roleProvider(ctx.providerFor, conf, 'vision', deps),
  };
}

/**
 * The provider a role (planner, executor, vision) is set to in settings, or undefined for "the
 * main model". An empty model means that provider's own model.
 * @param {RunsContext['providerFor']} providerFor @param {Settings} conf @param {'planner' | 'executor' | 'vision'} role
 * @param {Parameters<RunsContext['providerFor']>[1]} deps
 */
export function roleProvider(providerFor, conf, role, deps) {
  const r = conf.roles?.[role];
  if (!r || (!r.providerId && !r.model)) return undefined;
  const base = storedProviders(conf).find((p) => p.id === r.providerId) ?? conf.provider;
  return providerFor({ ...base, model: r.model || base.model }, deps);
}

/**
 * The safety policy over the task: the site the user started on and the sites they named in their
 * request, the sites settings always allow or confirm, the sensitive sites, and the organization's rules.
 * @param {Pick<RunsContext, 'knowledge'>} ctx @param {Settings} conf @param {Session} s @param {string} url the tab's URL
 */
export async function runPolicy({ knowledge }, conf, s, url) {
  const request = [...s.messages].reverse().find((m) => m.role === 'user');
  return withOrgRules(createPolicy({
    scope: createTaskScope(url, request ? textOf(request.content) : ''),
    alwaysAllow: conf.sites?.allow, alwaysConfirm: conf.sites?.confirm, strictSecrets: conf.strictSecrets === true, secrets: s.secrets,
    sensitiveSite: knowledge ? await knowledge.sensitiveSites() : undefined,
  }), conf.managed);
}

/**
 * What the tools may reach (the tab, jobs, skills, recording, workflows) and which tools are offered.
 * @param {Pick<RunsContext, 'ops' | 'jobs' | 'knowledge' | 'workflows'>} ctx @param {Settings} conf @param {number} tabId @param {Mode} mode @param {AbortSignal} signal
 * @returns {Promise<Pick<RunOptions, 'toolContext' | 'developerTools' | 'hasWorkflows' | 'siteGuide' | 'extraTools'>>}
 */
export async function toolOptions({ ops, jobs, knowledge, workflows }, conf, tabId, mode, signal) {
  return {
    toolContext: { tabId, browser: ops, signal, jobs: jobs().access, skills: knowledge?.skillsAccess, recording: recordingLimits(conf), workflows: workflows?.().access },
    developerTools: conf.devTools === true,
    hasWorkflows: workflows ? (await workflows().access.list().catch(() => [])).length > 0 : false,
    siteGuide: knowledge ? (url) => knowledge.siteGuide(url) : undefined,
    // WebMCP (Settings): the page's own tools; calling one acts, so only Act mode offers it.
    extraTools: conf.webmcp === true ? (mode === 'act' ? [...PAGE_TOOLS] : [pageTools]) : undefined,
  };
}

/**
 * The loop's events, while the run is the session's: the run's state follows them and the session
 * folds them into the transcript. A run ended by its tab closing says that, not "Stopped".
 * @param {Session} s @param {() => boolean} current @returns {(e: AgentEvent) => void}
 */
export function emitTo(s, current) {
  return (e) => {
    if (!current()) return;
    if (e.type === 'error' && e.code === 'ABORTED' && s.stopReason === 'tab_closed') e = { type: 'error', ...errorOf('TAB_CLOSED') };
    if (e.type === 'text_delta' || e.type === 'tool_result') s.state.transition('stream');
    else if (e.type === 'tool_call') s.state.transition('act');
    s.apply(e);
  };
}
