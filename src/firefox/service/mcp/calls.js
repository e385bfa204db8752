// What a signed-in bridge may ask, method by method: the tool list, the tabs it was granted, one
// tool call (through the gate: service/mcp/gate.js), and a whole Tabwright run (run.task: the
// panel's own path, runs.beginRun, its progress streamed back). Every call names a tab the client
// was granted at pairing (mcp-protocol/grants.js); results leave masked and, when they carry page content,
// fenced as untrusted (agent/untrusted.js), as for Tabwright's own model.
/** @import { Frame } from '../../mcp-protocol/frames.js' */
/** @import { ClientsStore, ClientRecord } from './clients-store.js' */
/** @import { Gate } from './gate.js' */
/** @import { Drivers } from './drivers.js' */
/** @import { Session } from '../session.js' */
/** @import { ToolResult, RunOutcome } from '../../types/core' */
/** @import { Fence } from '../../agent/untrusted.js' */
import { clientTools, mcpToolList } from '../../mcp-protocol/catalog.js';
import { grantAllows, isWebPage } from '../../mcp-protocol/grants.js';
import { formatToolResult } from '../../agent/tool-result.js';
import { carriesPageContent } from '../../agent/safety/effects.js';
import { createFence } from '../../agent/untrusted.js';
import { fail } from '../../agent/error-codes.js';

/**
 * @param {object} deps
 * @param {ClientsStore} deps.clients
 * @param {Gate} deps.gate
 * @param {Drivers} deps.drivers
 * @param {(tabId: number) => Promise<Session>} deps.session
 * @param {ReturnType<typeof import('../runs.js').createRuns>} deps.runs
 * @param {ReturnType<typeof import('../settings.js').createSettingsStore>} deps.settings
 * @param {RunPlaces} [deps.places] the slots runs wait for and the tab groups they go in (absent: neither)
 */
export function createCalls({ clients, gate, drivers, session, runs, settings, places }) {
  /** One fence for what clients read; the bridge's instructions tell them what it means. */
  const fence = createFence();

  /**
   * @param {string} bridgeId @param {Frame} f @param {AbortSignal} signal
   * @param {(message: string, progress?: number, total?: number) => void} progress
   * @returns {Promise<{ ok: boolean } & Record<string, any>>}
   */
  async function handle(bridgeId, f, signal, progress) {
    const client = await clients.get(bridgeId);
    if (!client) return fail('MCP_REVOKED');
    const params = f.params ?? {};
    const conf = await settings.get();
    if (f.method === 'tools.list') return { ok: true, data: { tools: mcpToolList({ webmcp: conf.webmcp === true, developer: conf.devTools === true }) } };
    if (f.method === 'tabs.list') return { ok: true, data: { tabs: await grantedTabs(client) } };
    await clients.update(bridgeId, { lastUsed: Date.now() });
    if (f.method === 'tool.call') return toolCall(client, params, signal, progress, { webmcp: conf.webmcp === true, developer: conf.devTools === true });
    if (f.method === 'run.task') return runTask(client, params, signal, progress);
    return fail('UNKNOWN_REQUEST', `method ${f.method}`);
  }

  /** @param {ClientRecord} client */
  async function grantedTabs(client) {
    const active = await activeTabId();
    const all = /** @type {any[]} */ (await browser.tabs.query({}));
    return all.filter((t) => grantAllows(client.grant, t, active).ok)
      .map((t) => ({ id: t.id, title: fence.inline(String(t.title ?? '')), url: t.url, active: t.id === active }));
  }

  /**
   * The tab a call names (or the active one), if the client may use it.
   * @param {ClientRecord} client @param {unknown} tabId
   * @returns {Promise<{ ok: true, tabId: number } | { ok: false, code: string, message: string }>}
   */
  async function tabFor(client, tabId) {
    const active = await activeTabId();
    const id = typeof tabId === 'number' ? tabId : active;
    if (id === null) return fail('NO_SUCH_TAB', 'no web page is open in the active tab; pass a tabId from list_tabs');
    const tab = await browser.tabs.get(id).catch(() => null);
    const allowed = grantAllows(client.grant, tab, active);
    return allowed.ok ? { ok: true, tabId: id } : allowed;
  }

  /** @param {ClientRecord} client @param {Record<string, any>} params @param {AbortSignal} signal @param {(m: string) => void} progress @param {{ webmcp: boolean, developer: boolean }} can */
  async function toolCall(client, params, signal, progress, can) {
    const name = String(params.name ?? '');
    const tool = clientTools(can).find((t) => t.name === name);
    if (!tool) return fail('UNKNOWN_TOOL', `"${name}", for MCP clients`);
    const { tabId, ...args } = params.arguments && typeof params.arguments === 'object' ? params.arguments : {};
    const tab = await tabFor(client, tabId);
    if (!tab.ok) return tab;
    if (name === 'tabs' && typeof args.tab_id === 'number') {
      const other = await tabFor(client, args.tab_id);
      if (!other.ok) return other;
    }
    const controller = linked(signal);
    const end = drivers.begin(tab.tabId, client.name, controller);
    try {
      const result = await gate.call({ clientId: client.id, tabId: tab.tabId, tool, args, signal: controller.signal, onWaiting: (m) => progress(m) });
      return asReply(result, carriesPageContent(tool), tab.tabId, fence);
    } finally { end(); }
  }

  /**
   * A whole Tabwright run, as the panel starts it; its steps stream back as progress.
   * @param {ClientRecord} client @param {Record<string, any>} params @param {AbortSignal} signal
   * @param {(message: string, progress?: number) => void} progress
   */
  async function runTask(client, params, signal, progress) {
    const task = typeof params.task === 'string' ? params.task.trim() : '';
    if (!task) return fail('INVALID_ARGUMENTS', 'run_task needs a task');
    const mode = params.mode === 'act' ? 'act' : 'ask';
    const tab = await tabFor(client, params.tabId);
    if (!tab.ok) return tab;
    const s = await session(tab.tabId);
    const controller = linked(signal);
    const end = drivers.begin(tab.tabId, client.name, controller);
    let steps = 0;
    /** @param {any} e */
    const listener = (e) => {
      if (e.type !== 'upsert') return;
      const item = e.item;
      if (item.kind === 'tool' && item.result === undefined) progress(`Step ${++steps}: ${item.name}`, steps);
      else if (item.kind === 'confirm' && item.status === 'pending') progress(`Waiting for the user to confirm in Tabwright's panel: ${item.action} on ${item.site}.`, steps);
      else if (item.kind === 'error') progress(`Error ${item.code}: ${item.message}`, steps);
    };
    s.listeners.add(listener);
    try {
      const run = await beginInSlot(client, tab.tabId, task, mode, controller.signal, progress);
      if (!run.ok) return run;
      const stop = () => run.stop();
      controller.signal.addEventListener('abort', stop, { once: true });
      progress(`Tabwright started the task in ${mode === 'act' ? 'Act' : 'Ask'} mode.`, 0);
      const outcome = await run.outcome;
      controller.signal.removeEventListener('abort', stop);
      return outcomeReply(outcome, s, fence);
    } finally {
      s.listeners.delete(listener);
      end();
    }
  }

  /**
   * A client's run waits for a free slot like a job (Settings → runs at once), then starts in the
   * client's own tab group, named for the client, and shows in the runs overview as the client's.
   * @param {ClientRecord} client @param {number} tabId @param {string} task @param {'ask' | 'act'} mode
   * @param {AbortSignal} signal @param {(message: string, progress?: number) => void} progress
   */
  async function beginInSlot(client, tabId, task, mode, signal, progress) {
    const id = `mcp:${client.name}:${tabId}`;
    /** @type {(() => void) | null} */
    let release = () => {};
    if (places) {
      release = await places.slots.acquire({ id, kind: 'mcp', title: `${client.name}: ${task}` }, signal, () => progress('Waiting for a free slot: Tabwright runs a limited number of tasks at once (Settings → Runs at once).', 0));
      if (!release) return fail('ABORTED', 'before it started');
      void places.groups.join(`mcp:${client.name}`, `MCP · ${client.name}`, [tabId]);
    }
    try {
      return await runs.beginRun(tabId, `${task}\n\n(Asked by ${client.name}, an MCP client.)`, mode, { origin: { kind: 'mcp', label: client.name, task } });
    } finally { release(); }
  }

  return { handle };
}

/**
 * @typedef {object} RunPlaces
 * @property {ReturnType<typeof import('../run-slots.js').createRunSlots>} slots
 * @property {ReturnType<typeof import('../run-groups.js').createRunGroups>} groups
 */

/** The active web page's tab, for calls that name none. */
async function activeTabId() {
  const [t] = /** @type {any[]} */ (await browser.tabs.query({ active: true, lastFocusedWindow: true }));
  if (t && isWebPage(t.url)) return /** @type {number} */ (t.id);
  // A focused extension page (the settings, a panel opened as a tab): the active web page of any window.
  const [other] = /** @type {any[]} */ (await browser.tabs.query({ active: true })).filter((x) => isWebPage(x.url));
  return other ? /** @type {number} */ (other.id) : null;
}

/**
 * The run's answer and Tabwright's verdict on it (the same one the panel shows): the client reads
 * the verdict and its reasons beside the answer, never the answer alone.
 * @param {RunOutcome} o @param {Session} s @param {Fence} fence
 */
function outcomeReply(o, s, fence) {
  if (o.status === 'aborted') return fail('STOPPED_BY_USER', 'the run did not finish');
  if (o.status === 'error') return { ok: false, code: o.error?.code ?? 'INTERNAL_ERROR', message: `${o.error?.message ?? 'The run failed.'}${o.outcome?.verdict === 'failed' ? ` ${verdictLine(s.secrets.maskDeep(o.outcome))}` : ''}` };
  const last = [...s.items].reverse().find((i) => i.kind === 'assistant' && i.final);
  const text = o.text ?? (last && last.kind === 'assistant' ? last.text : '') ?? '';
  const outcome = o.outcome ? s.secrets.maskDeep(o.outcome) : undefined;
  return {
    ok: true,
    data: {
      text: `${fence.wrap(s.secrets.mask(text))}${outcome ? `\n\n${verdictLine(outcome)}` : ''}`, status: o.status, steps: o.steps,
      ...(outcome ? { verdict: outcome.verdict, reasons: outcome.reasons, receipt: outcome.receipt } : {}),
    },
  };
}

/**
 * A tool's result as the client reads it: fenced when it carries page content, an image apart.
 * @param {ToolResult} result @param {boolean} pageContent @param {number} tabId @param {Fence} fence
 * @returns {{ ok: boolean } & Record<string, any>}
 */
function asReply(result, pageContent, tabId, fence) {
  if (!result.ok) return { ok: false, code: result.code, message: formatToolResult(result, { fence, pageContent }).replace(/^Error [A-Z_0-9]+: /, '') };
  const data = /** @type {any} */ (result.data);
  const image = data && typeof data === 'object' && data.image?.data ? { mediaType: String(data.image.mediaType ?? 'image/png'), data: String(data.image.data) } : undefined;
  const rest = image ? { ...data, image: undefined } : data;
  return { ok: true, data: { text: formatToolResult({ ok: true, data: rest }, { fence, pageContent }), tabId, ...(image ? { image } : {}) } };
}

/**
 * Tabwright's verdict in words, outside the fence (it is Tabwright's, not the page's).
 * @param {import('../../types/core').Outcome} o
 */
export function verdictLine(o) {
  const head = o.verdict === 'verified' ? 'Verified' : o.verdict === 'failed' ? 'Failed' : 'Not verified';
  const why = o.reasons.map((r) => r.message).join(' ');
  const writes = o.receipt.map((r) => `${r.method} ${r.url} → ${r.status ?? 'no answer'} (${r.verdict.replace('_', ' ')}${r.echoed?.length ? `: ${r.echoed.join(', ')}` : ''}${r.said ? `: ${r.said}` : ''})`);
  return `[Tabwright's verdict] ${head}.${why ? ` ${why}` : ''}${writes.length ? `\nWrites: ${writes.join('; ')}` : ''}`;
}

/** A controller aborted with the call's signal. @param {AbortSignal} signal */
function linked(signal) {
  const c = new AbortController();
  if (signal.aborted) c.abort(); else signal.addEventListener('abort', () => c.abort(), { once: true });
  return c;
}
