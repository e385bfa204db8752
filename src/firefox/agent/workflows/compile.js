// "Save as workflow": a finished run's tool calls compiled into a value-free workflow.
// Each step keeps its tool, its target as a fingerprint (role, name, landmark: fingerprint.js),
// the page it ran on (origin and URL family) and a heading the page showed; what was typed
// becomes a named parameter with the typed value as its default (a secret: a parameter with no
// default, never stored). Reading the page for the model (snapshot) is left out: a replay looks
// for itself. Browser-free; the draft goes to the user to name, review and edit.
/** @import { CompileNote, Fingerprint, Workflow, WorkflowParam, WorkflowStep } from '../../types/workflows' */
/** @import { Trace, ToolStep } from '../../types/traces' */
/** @import { TranscriptItem } from '../../types/messages' */
import { fingerprintOf, headingsOf } from './fingerprint.js';
import { pagePattern, paramName } from './params.js';
import { MASK } from '../safety/secret-patterns.js';
import { ALL_TOOLS, findTool } from '../tools/index.js';
import { snapshot } from '../tools/perception.js';
import { done } from '../tools/control.js';
import { navigate } from '../tools/navigation.js';

/** One tool call of the run, as the compiler reads it. */
/** @typedef {{ name: string, args: Record<string, any>, ok: boolean, result?: unknown, url: string, target?: { role: string, name: string }, outline?: string }} RunCall */

/** How each step is replayed is the tool's own fact (types/core.d.ts Tool.replay). @param {string} name */
const replayOf = (name) => findTool(name)?.replay;
/** Every tool a workflow step may use: those acting on an element first, then those that may name one, then page steps. */
export const REPLAYABLE = new Set(['targeted', 'target-optional', 'page'].flatMap((kind) => ALL_TOOLS.filter((t) => t.replay === kind).map((t) => t.name)));
/** Arguments that address an element; the fingerprint replaces them. */
const TARGET_ARGS = ['ref', 'text', 'selector', 'x', 'y', 'frame_id'];

/**
 * @param {{ calls: RunCall[], startUrl: string, summary?: string, runId?: string, now: number }} run
 * @returns {{ workflow: Workflow, notes: CompileNote[] }}
 */
export function compileRun({ calls, startUrl, summary, runId, now }) {
  /** @type {WorkflowStep[]} */
  const steps = [];
  /** @type {WorkflowParam[]} */
  const params = [];
  /** @type {CompileNote[]} */
  const notes = [];
  const taken = new Set();
  /** typed value → parameter name, so one value typed twice is one parameter */
  const byValue = new Map();
  calls.forEach((c, i) => {
    // The model's own reading and bookkeeping is never a step: a replay looks for itself.
    if (replayOf(c.name) === 'silent') return;
    if (!c.ok) { notes.push({ call: i, tool: c.name, reason: 'it failed in the run' }); return; }
    if (!REPLAYABLE.has(c.name)) { notes.push({ call: i, tool: c.name, reason: 'this tool is not replayed' }); return; }
    const step = stepOf(c, notes, i);
    if (!step) return;
    // What was typed becomes a parameter.
    const key = findTool(c.name)?.typedArg;
    if (key && typeof step.args[key] === 'string') step.args[key] = parameterFor(String(step.args[key]), step.target?.name ?? key);
    steps.push(step);
  });
  /** @param {string} value @param {string} label */
  function parameterFor(value, label) {
    if (value === MASK) {
      const name = paramName(label, taken);
      params.push({ name, label, secret: true });
      return `{{${name}}}`;
    }
    if (!value) return value;
    let name = byValue.get(value);
    if (!name) {
      name = paramName(label, taken);
      byValue.set(value, name);
      params.push({ name, label, default: value });
    }
    return `{{${name}}}`;
  }
  const templated = withPlaceholders(summary ?? '', params);
  return {
    workflow: {
      v: 1, id: '', name: '', description: '', start: { url: startUrl }, params, steps,
      ...(templated ? { summary: templated } : {}), ...(runId ? { fromRun: runId } : {}), createdAt: now, updatedAt: now,
    },
    notes,
  };
}

/**
 * @param {RunCall} c @param {CompileNote[]} notes @param {number} i
 * @returns {WorkflowStep | null}
 */
function stepOf(c, notes, i) {
  /** @type {Record<string, unknown>} */
  const args = { ...c.args };
  // What a tool types (type's `text`) is not a target.
  const typed = findTool(c.name)?.typedArg;
  const targetKeys = TARGET_ARGS.filter((k) => k !== typed);
  const addressed = targetKeys.some((k) => args[k] !== undefined);
  /** @type {Fingerprint | undefined} */
  let target;
  if (addressed) {
    const found = typeof args.ref === 'string' && c.outline ? fingerprintOf(c.outline, args.ref) : null;
    target = found ?? (c.target ? { role: c.target.role, name: c.target.name, landmark: '' } : undefined);
    if (!target || !target.name) { notes.push({ call: i, tool: c.name, reason: 'its element has no role and name to find it by again' }); return null; }
    for (const k of targetKeys) delete args[k];
  } else if (replayOf(c.name) === 'targeted') {
    notes.push({ call: i, tool: c.name, reason: 'it named no element' });
    return null;
  }
  const seen = c.outline && outlineUrl(c.outline) === c.url ? headingsOf(c.outline)[0] : undefined;
  return { tool: c.name, ...(target ? { target } : {}), args, page: pagePattern(c.url), ...(seen ? { sees: seen } : {}) };
}

/** The URL of a snapshot's result ("Page: title (url)" on its first line). @param {string} outline */
export function outlineUrl(outline) {
  const m = /^Page: .* \((\S+)\)$/m.exec(outline.split('\n', 1)[0] ?? '');
  return m ? m[1] : '';
}

/** The summary with each parameter's default written as its placeholder. @param {string} text @param {WorkflowParam[]} params */
function withPlaceholders(text, params) {
  let out = text;
  for (const p of [...params].sort((a, b) => (b.default?.length ?? 0) - (a.default?.length ?? 0))) {
    if (p.default && p.default.length >= 3) out = out.split(p.default).join(`{{${p.name}}}`);
  }
  return out;
}

/**
 * A trace's tool calls, each with the outline the model had seen last before it.
 * @param {Trace} trace @returns {{ calls: RunCall[], startUrl: string, summary?: string, runId: string }}
 */
export function callsFromTrace(trace) {
  /** @type {RunCall[]} */
  const calls = [];
  let outline = '';
  let summary;
  for (const s of /** @type {ToolStep[]} */ (trace.steps.filter((x) => x.kind === 'tool'))) {
    const args = s.args && typeof s.args === 'object' ? /** @type {Record<string, any>} */ (s.args) : {};
    const ok = Boolean(s.result?.ok);
    calls.push({ name: s.name, args, ok, result: s.result, url: s.url, target: s.target, outline });
    if (s.name === snapshot.name && ok && !args.ref && typeof (/** @type {any} */ (s.result)).data === 'string') outline = /** @type {any} */ (s.result).data;
    if (s.name === done.name && ok) summary = String(args.summary ?? '');
  }
  return { calls, startUrl: trace.url, summary, runId: trace.id };
}

/**
 * The same from a history record's transcript (when no trace was kept): the URL of each call is
 * the page of the last outline or navigation before it.
 * @param {{ id: string, url: string, items: TranscriptItem[] }} record
 */
export function callsFromHistory(record) {
  /** @type {RunCall[]} */
  const calls = [];
  let outline = '';
  let url = '';
  /** @type {string | undefined} */
  let summary;
  const tools = /** @type {Extract<TranscriptItem, { kind: 'tool' }>[]} */ (record.items.filter((x) => x.kind === 'tool'));
  const start = tools.map((t) => (t.name === snapshot.name && t.result?.ok ? outlineUrl(String(t.result.data)) : '')).find(Boolean);
  url = start || record.url;
  for (const t of tools) {
    const args = t.args && typeof t.args === 'object' ? /** @type {Record<string, any>} */ (t.args) : {};
    const ok = Boolean(t.result?.ok);
    if (t.name === snapshot.name && ok && !args.ref) { outline = String(/** @type {any} */ (t.result).data); url = outlineUrl(outline) || url; }
    calls.push({ name: t.name, args, ok, result: t.result, url, target: t.target, outline });
    const nav = ok ? /** @type {any} */ (t.result).data?.effects?.navigated?.url ?? (t.name === navigate.name ? /** @type {any} */ (t.result).data?.url : undefined) : undefined;
    if (typeof nav === 'string') url = nav;
    if (t.name === done.name && ok) summary = String(args.summary ?? '');
  }
  return { calls, startUrl: start || record.url, summary, runId: record.id };
}
