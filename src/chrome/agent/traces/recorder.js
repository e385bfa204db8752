// The trace of one run: every request sent to a provider (its messages, the tools offered,
// the model, the tokens, the answer, the time), every tool call (arguments, result, time, the tab's
// URL, the outline it saw), and which page data went to which provider. It watches the run from
// outside: the providers are wrapped (wrapProvider) and the loop's events are read (onEvent), so
// agent/loop.js knows nothing of it. Browser-free: the tab, the clock and thumbnails are injected.
// Secrets are masked when the trace is finished (the vault then knows every secret of the run).
/** @import { AgentEvent, ChatMessage, ChatRequest, Provider, RunOutcome, StreamEvent, Usage } from '../../types/core' */
/** @import { SecretVault } from '../../types/safety' */
/** @import { ModelStep, PageDataEntry, ToolStep, Trace, TraceMessage, TraceProvider, TraceStep } from '../../types/traces' */
import { findTool } from '../tools/index.js';
import { maskTokens } from '../safety/secret-patterns.js';
import { SUMMARY_PROMPT } from '../prompts.js';
import { outlineHash, providerOrigin, siteOf } from './trace-util.js';
import { addToolCallDelta } from '../../providers/tool-calls.js';

/** A tool result's strings longer than this are cut in the trace (an outline keeps more: workflows read it). */
const RESULT_CHARS = 20_000;
const OUTLINE_CHARS = 60_000;
/** Thumbnails still being made when the run ends are waited for this long at most. */
const THUMB_WAIT_MS = 3_000;
/** Marks the requests a workflow replay makes to repair one step (agent/workflows/repair.js). */
export const REPAIR_MARK = '[Tabwright workflow repair]';

/**
 * @typedef {object} RecorderDeps
 * @property {string} id the run's id (its history record's)
 * @property {number} tabId
 * @property {'agent' | 'replay'} kind
 * @property {import('../../types/core').Mode} mode
 * @property {string} task the user's request or the workflow's name
 * @property {string} url the tab's URL when the run began
 * @property {string} title
 * @property {string} [workflowId]
 * @property {(tabId: number) => Promise<{ url: string, title: string } | null>} getTab
 * @property {SecretVault} [secrets] the tab's vault: everything is masked with it at the end
 * @property {(dataUrl: string) => Promise<string | null>} [thumbnail] a small JPEG data URL of a screenshot
 * @property {(provider: Provider) => { input: number, output: number } | undefined} [price] USD per million tokens
 * @property {string} [origin] where the main provider sends requests, when its label does not say
 * @property {() => number} [now]
 */

/**
 * @typedef {object} TraceState one run's trace as it grows
 * @property {RecorderDeps} deps
 * @property {() => number} now
 * @property {number} startedAt
 * @property {TraceStep[]} steps
 * @property {ReturnType<typeof createMessagePool>} pool every message sent, once
 * @property {Set<number>} sent messages a request already carried (pool indexes): the next one's page data is fresh only when new
 * @property {Map<string, ToolStep>} open tool calls without their result yet
 * @property {(p: Promise<unknown>) => void} track work to wait for before the trace is finished (thumbnails, tab reads)
 * @property {Set<Promise<unknown>>} pending
 * @property {TraceProvider | null} mainProvider
 * @property {string | undefined} lastHash the last outline's hash
 * @property {string} lastUrl
 */

/** @param {RecorderDeps} deps */
export function createTraceRecorder(deps) {
  const now = deps.now ?? Date.now;
  /** @type {Set<Promise<unknown>>} */
  const pending = new Set();
  /** @param {Promise<unknown>} p */
  const track = (p) => { const q = p.catch(() => {}); pending.add(q); q.finally(() => pending.delete(q)); };
  /** @type {TraceState} */
  const t = {
    deps, now, startedAt: now(), steps: [], pool: createMessagePool(deps.thumbnail, track), sent: new Set(), open: new Map(),
    track, pending, mainProvider: null, lastHash: undefined, lastUrl: deps.url,
  };
  return {
    /**
     * The provider with its requests recorded; everything else about it is unchanged.
     * @param {Provider} provider @param {boolean} [main] the run's main model (the trace's provider)
     * @returns {Provider}
     */
    wrapProvider(provider, main = false) {
      const who = describeProvider(provider, deps.origin);
      if (main || !t.mainProvider) t.mainProvider = who;
      return new Proxy(provider, {
        get(target, prop, receiver) {
          if (prop === 'chatStream') return (/** @type {ChatRequest} */ req) => recordStream(t, target, req, who);
          const v = Reflect.get(target, prop, receiver);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
    },
    /** The loop's events: tool calls and their results. @param {AgentEvent} e */
    onEvent(e) {
      if (e.type === 'tool_call') toolCalled(t, e);
      else if (e.type === 'tool_result') toolAnswered(t, e);
    },
    /** Notes on a replayed step (its workflow index, how its target was bound). @param {string} id @param {NonNullable<ToolStep['replay']>} info */
    noteReplay(id, info) {
      const step = t.steps.find((s) => s.kind === 'tool' && s.id === id);
      if (step && step.kind === 'tool') step.replay = info;
    },
    /** The finished trace, secrets masked. @param {RunOutcome} outcome */
    finish: (/** @type {RunOutcome} */ outcome) => finishTrace(t, outcome),
    get steps() { return t.steps; },
  };
}

/** @param {Provider} p @param {string} [origin] @returns {TraceProvider} */
function describeProvider(p, origin) {
  return { kind: p.kind, label: p.label, model: p.model, origin: providerOrigin(p.label) || origin || '' };
}

/**
 * The messages of a run's requests, each kept once (a request names them by index): an image's
 * data becomes its size and a thumbnail (filled in later).
 * @param {((dataUrl: string) => Promise<string | null>) | undefined} thumbnail @param {(p: Promise<unknown>) => void} track
 */
function createMessagePool(thumbnail, track) {
  /** @type {TraceMessage[]} */
  const messages = [];
  /** @type {Map<string, number>} */
  const index = new Map();
  return {
    messages,
    /** @param {ChatMessage} m @returns {number} its index in the pool */
    add(m) {
      const tm = traceMessage(m);
      const key = JSON.stringify(tm);
      let i = index.get(key);
      if (i !== undefined) return i;
      i = messages.length;
      messages.push(tm);
      index.set(key, i);
      if (Array.isArray(m.content) && thumbnail) {
        m.content.forEach((c, k) => {
          if (c.type !== 'image') return;
          const slot = /** @type {any[]} */ (tm.content)[k];
          track(thumbnail(`data:${c.mediaType};base64,${c.data}`).then((th) => { if (th) slot.thumbnail = th; }));
        });
      }
      return i;
    },
  };
}

/** A message as the trace keeps it: an image's data becomes its size. @param {ChatMessage} m @returns {TraceMessage} */
function traceMessage(m) {
  const parts = typeof m.content === 'string' ? m.content : m.content.map((c) => (c.type === 'image' ? { type: /** @type {const} */ ('image'), mediaType: c.mediaType, bytes: Math.round(c.data.length * 0.75) } : c));
  /** @type {TraceMessage} */
  const tm = { role: m.role, content: parts };
  if (m.toolCalls?.length) tm.toolCalls = m.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }));
  if (m.toolCallId) tm.toolCallId = m.toolCallId;
  if (m.name) tm.name = m.name;
  return tm;
}

/** What page data a request carried, from the messages it sent. @param {TraceState} t @param {ChatMessage[]} messages @param {number[]} ids */
function pageDataOf(t, messages, ids) {
  /** @type {PageDataEntry[]} */
  const out = [];
  messages.forEach((m, k) => {
    const fresh = !t.sent.has(ids[k]);
    const text = typeof m.content === 'string' ? m.content : m.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    if (m.role === 'system') out.push({ source: 'system', url: t.deps.url, chars: text.length, fresh });
    else if (m.role === 'tool' && text.includes('<untrusted_page_content')) {
      const step = /** @type {ToolStep | undefined} */ (t.steps.find((s) => s.kind === 'tool' && s.id === m.toolCallId));
      out.push({ source: 'tool', tool: m.name, toolCallId: m.toolCallId, url: step?.url ?? t.lastUrl, chars: text.length, fresh });
    }
    if (Array.isArray(m.content)) for (const c of m.content) if (c.type === 'image') out.push({ source: 'image', url: t.lastUrl, chars: c.data.length, fresh });
  });
  return out;
}

/** A request and its streamed answer, recorded as a model step. @param {TraceState} t @param {Provider} provider @param {ChatRequest} req @param {TraceProvider} who */
async function* recordStream(t, provider, req, who) {
  const ids = req.messages.map((m) => t.pool.add(m));
  const first = req.messages[0];
  const firstText = typeof first?.content === 'string' ? first.content : '';
  const purpose = firstText.startsWith(REPAIR_MARK) ? 'repair' : req.tools.length ? 'turn' : firstText === SUMMARY_PROMPT ? 'summary' : 'other';
  /** @type {ModelStep} */
  const step = {
    kind: 'model', i: t.steps.length, at: t.now(), ms: 0, purpose, provider: who, messages: ids,
    tools: req.tools.map((x) => x.name), toolChars: JSON.stringify(req.tools).length,
    pageData: pageDataOf(t, req.messages, ids), reply: { text: '', toolCalls: [] },
  };
  for (const i of ids) t.sent.add(i);
  t.steps.push(step);
  /** @type {Map<number, { id: string, name: string, arguments: string }>} */
  const calls = new Map();
  try {
    for await (const ev of provider.chatStream(req)) {
      step.firstMs ??= t.now() - step.at;
      takeEvent(t, step, calls, ev, provider);
      yield ev;
    }
  } catch (err) {
    step.error = { code: /** @type {any} */ (err)?.code ?? 'ERROR', message: err instanceof Error ? err.message : String(err) };
    throw err;
  } finally {
    step.ms = t.now() - step.at;
    step.reply.toolCalls = [...calls.values()];
  }
}

/**
 * @param {TraceState} t @param {ModelStep} step @param {Map<number, { id: string, name: string, arguments: string }>} calls
 * @param {StreamEvent} ev @param {Provider} provider
 */
function takeEvent(t, step, calls, ev, provider) {
  if (ev.type === 'text') step.reply.text += ev.text;
  else if (ev.type === 'tool_call_delta') addToolCallDelta(calls, ev);
  else if (ev.type === 'usage') {
    step.usage = ev.usage;
    step.costUsd = costOf(ev.usage, t.deps.price?.(provider));
  }
}

/** A tool call starts a tool step, with the tab's URL and title read as it runs. @param {TraceState} t @param {Extract<AgentEvent, { type: 'tool_call' }>} e */
function toolCalled(t, e) {
  /** @type {ToolStep} */
  const step = { kind: 'tool', i: t.steps.length, at: t.now(), ms: 0, id: e.id, name: e.name, args: e.args, url: t.lastUrl, time: timeOf(e.name), ...(t.lastHash ? { outlineHash: t.lastHash } : {}) };
  t.steps.push(step);
  t.open.set(e.id, step);
  t.track(t.deps.getTab(t.deps.tabId).then((tab) => { if (tab) { step.url = tab.url; step.title = tab.title; t.lastUrl = tab.url; } }));
}

/** Its result closes the step; an outline's hash is kept for the next steps. @param {TraceState} t @param {Extract<AgentEvent, { type: 'tool_result' }>} e */
function toolAnswered(t, e) {
  const step = t.open.get(e.id);
  if (!step) return;
  t.open.delete(e.id);
  step.ms = e.ms ?? t.now() - step.at;
  if (e.args !== undefined) step.args = e.args;
  if (e.target) step.target = e.target;
  step.result = keepResult(t, step, e.result);
  if (e.name === 'snapshot' && e.result.ok && typeof e.result.data === 'string') {
    t.lastHash = outlineHash(e.result.data);
    step.outlineHash = t.lastHash;
  }
}

/**
 * A result as the trace keeps it: long strings cut, an image as a thumbnail.
 * @param {TraceState} t @param {ToolStep} step @param {import('../../types/core').ToolResult} result
 * @returns {import('../../types/core').ToolResult}
 */
function keepResult(t, step, result) {
  const cap = step.name === 'snapshot' ? OUTLINE_CHARS : RESULT_CHARS;
  if (!result.ok) return { ...result, message: cut(result.message, cap) };
  const { image, ...rest } = result;
  const thumb = t.deps.thumbnail;
  if (image && thumb) t.track(thumb(`data:${image.mediaType};base64,${image.data}`).then((th) => { if (th) step.thumbnail = th; }));
  return { ...rest, data: capStrings(rest.data, cap, 0) };
}

/**
 * The finished trace, secrets masked (the vault now knows every secret of the run).
 * @param {TraceState} t @param {RunOutcome} outcome @returns {Promise<Trace>}
 */
async function finishTrace(t, outcome) {
  const { deps } = t;
  await Promise.race([Promise.all([...t.pending]), new Promise((r) => setTimeout(r, THUMB_WAIT_MS))]);
  const endedAt = t.now();
  const vault = deps.secrets;
  /** @type {(s: string) => string} */
  const maskText = vault ? (s) => vault.mask(s) : maskTokens;
  const masked = (/** @type {any} */ v) => deepMask(v, maskText, 0);
  return {
    v: 1, id: deps.id, tabId: deps.tabId, kind: deps.kind, mode: deps.mode, task: masked(deps.task), url: deps.url, title: deps.title, site: siteOf(deps.url),
    ...(deps.workflowId ? { workflowId: deps.workflowId } : {}),
    status: outcome.status, ...(outcome.error ? { error: outcome.error } : {}),
    // The verdict and its receipt (each write's method, URL, status, what the server echoed, when).
    ...(outcome.outcome ? { outcome: masked(outcome.outcome) } : {}),
    startedAt: t.startedAt, endedAt, provider: t.mainProvider, messages: masked(t.pool.messages), steps: masked(t.steps), totals: totalsOf(t.steps, endedAt - t.startedAt),
  };
}
/** @typedef {ReturnType<typeof createTraceRecorder>} TraceRecorder */

/** @param {string} name @returns {'page' | 'tool'} */
function timeOf(name) {
  const effects = findTool(name)?.effects ?? [];
  return effects.some((e) => e === 'reads_page' || e === 'acts_on_page' || e === 'navigates') ? 'page' : 'tool';
}

/** @param {Usage} u @param {{ input: number, output: number } | undefined} price */
function costOf(u, price) {
  if (typeof u.costUsd === 'number') return u.costUsd;
  if (!price) return undefined;
  return (u.inputTokens * price.input + u.outputTokens * price.output) / 1_000_000;
}

/** @param {TraceStep[]} steps @param {number} wallMs @returns {Trace['totals']} */
export function totalsOf(steps, wallMs) {
  const t = { modelCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: /** @type {number | undefined} */ (undefined), modelMs: 0, toolMs: 0, pageMs: 0, wallMs, toolCalls: 0, errors: 0 };
  for (const s of steps) {
    if (s.kind === 'model') {
      t.modelCalls++;
      t.modelMs += s.ms;
      t.inputTokens += s.usage?.inputTokens ?? 0;
      t.outputTokens += s.usage?.outputTokens ?? 0;
      if (typeof s.costUsd === 'number') t.costUsd = (t.costUsd ?? 0) + s.costUsd;
      if (s.error) t.errors++;
    } else {
      t.toolCalls++;
      if (s.time === 'page') t.pageMs += s.ms; else t.toolMs += s.ms;
      if (s.result && !s.result.ok) t.errors++;
    }
  }
  if (t.costUsd === undefined) delete t.costUsd;
  return t;
}

/** @param {string} s @param {number} max */
function cut(s, max) {
  return typeof s === 'string' && s.length > max ? `${s.slice(0, max)}… [${s.length - max} more characters not kept in the trace]` : s;
}

/** @param {unknown} v @param {number} max @param {number} depth @returns {unknown} */
function capStrings(v, max, depth) {
  if (typeof v === 'string') return cut(v, max);
  if (!v || typeof v !== 'object' || depth > 16) return v;
  if (Array.isArray(v)) return v.slice(0, 500).map((x) => capStrings(x, max, depth + 1));
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [k, x] of Object.entries(v)) out[k] = capStrings(x, max, depth + 1);
  return out;
}

/**
 * Known secrets and token-shaped strings masked in every string, except thumbnails (image data
 * would look like a token).
 * @template T @param {T} v @param {(s: string) => string} mask @param {number} depth @returns {T}
 */
export function deepMask(v, mask, depth) {
  if (typeof v === 'string') return /** @type {T} */ (/** @type {unknown} */ (mask(v)));
  if (!v || typeof v !== 'object' || depth > 40) return v;
  if (Array.isArray(v)) return /** @type {T} */ (/** @type {unknown} */ (v.map((x) => deepMask(x, mask, depth + 1))));
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [k, x] of Object.entries(v)) out[k] = k === 'thumbnail' ? x : deepMask(x, mask, depth + 1);
  return /** @type {T} */ (/** @type {unknown} */ (out));
}
