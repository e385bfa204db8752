// How each agent event changes a tab's transcript: one small folder per event type, looked up by
// Session.apply. A folder updates the session's items (which reach open panels through upsert) or
// pushes a passing event (a delta, the usage, a provider's wait) to the panels.
/** @import { AgentEvent } from '../types/core' */
/** @import { Session } from './session.js' */
import { shownAs } from '../agent/tools/index.js';

/**
 * @template {AgentEvent['type']} K
 * @typedef {(s: Session, e: Extract<AgentEvent, { type: K }>) => void} Fold
 */

/** Streamed answer text: appended to its message's card, or a new card for its first delta. @type {Fold<'text_delta'>} */
export function foldTextDelta(s, e) {
  const item = s.item(e.messageId);
  if (item && item.kind === 'assistant') {
    item.text += e.text;
    s.broadcast({ type: 'delta', id: e.messageId, text: e.text });
    s.changed();
  } else {
    s.upsert({ kind: 'assistant', id: e.messageId, text: e.text, streaming: true });
  }
}

/** @type {Fold<'assistant_done'>} */
export function foldAssistantDone(s, e) {
  const item = s.item(e.messageId);
  if (item && item.kind === 'assistant') s.upsert({ ...item, streaming: false });
}

/** @type {Fold<'tool_call'>} */
export function foldToolCall(s, e) {
  s.upsert({ kind: 'tool', id: s.newToolItemId(e.id), name: e.name, args: e.args, shows: shownAs(e.name) });
}

/** The result lands on its call's card, with the arguments masked again, the time it took and its target. @type {Fold<'tool_result'>} */
export function foldToolResult(s, e) {
  const item = s.toolItem(e.id);
  if (item && item.kind === 'tool') s.upsert({ ...item, result: e.result, ...(e.args !== undefined ? { args: e.args } : {}), ...(e.ms !== undefined ? { ms: e.ms } : {}), ...(e.target ? { target: e.target } : {}) });
}

/** Only an image data: URL is kept on the card (the panel shows it as an img). @type {Fold<'tool_image'>} */
export function foldToolImage(s, e) {
  const item = s.toolItem(e.id);
  if (item && item.kind === 'tool' && /^data:image\/(png|jpeg|webp);base64,/.test(e.image)) s.upsert({ ...item, shot: e.image });
}

/** The final answer: the streamed card that already says it becomes final, or a new card. @type {Fold<'final'>} */
export function foldFinal(s, e) {
  const last = s.items[s.items.length - 1];
  const check = { ...(e.check ? { check: e.check } : {}), ...(e.outcome ? { outcome: e.outcome } : {}) };
  if (last && last.kind === 'assistant' && last.text === e.text) s.upsert({ ...last, streaming: false, final: true, ...check });
  else s.upsert({ kind: 'assistant', id: s.newId(), text: e.text, streaming: false, final: true, ...check });
}

/** @type {Fold<'error'>} */
export function foldError(s, e) {
  // An answer cut off by the error stops looking as if it were still arriving.
  for (const item of s.items) if (item.kind === 'assistant' && item.streaming) s.upsert({ ...item, streaming: false });
  s.addError(e.code, e.message);
}

/** A plan shown again with as many steps keeps its steps' progress. @type {Fold<'plan'>} */
export function foldPlan(s, e) {
  const old = s.item(e.planId);
  const same = old && old.kind === 'plan' && old.steps.length === e.steps.length;
  s.upsert({
    kind: 'plan', id: e.planId, steps: e.steps, status: e.status,
    stepStatus: same ? old.stepStatus : e.steps.map(() => 'pending'),
    outputs: same ? old.outputs : e.steps.map(() => ''),
  });
}

/** @type {Fold<'plan_step'>} */
export function foldPlanStep(s, e) {
  const item = s.item(e.planId);
  if (!item || item.kind !== 'plan') return;
  const stepStatus = [...item.stepStatus];
  const outputs = [...item.outputs];
  stepStatus[e.index] = e.status;
  if (e.output !== undefined) outputs[e.index] = e.output;
  s.upsert({ ...item, stepStatus, outputs });
}

/** The conversation's token (and cost) totals grow by each model call's usage. @type {Fold<'usage'>} */
export function foldUsage(s, e) {
  const u = s.usage;
  u.inputTokens += e.usage.inputTokens;
  u.outputTokens += e.usage.outputTokens;
  u.calls++;
  if (e.usage.costUsd !== undefined) u.costUsd = (u.costUsd ?? 0) + e.usage.costUsd;
  if (e.usage.estimated) u.estimated = true;
  s.broadcast({ type: 'usage', usage: { ...u } });
}

/** @type {{ [K in AgentEvent['type']]: Fold<K> }} */
export const EVENT_FOLDS = {
  text_delta: foldTextDelta,
  assistant_done: foldAssistantDone,
  tool_call: foldToolCall,
  tool_result: foldToolResult,
  tool_image: foldToolImage,
  final: foldFinal,
  error: foldError,
  compacted: (s, e) => s.upsert({ kind: 'compacted', id: s.newId(), reason: e.reason, before: e.before, after: e.after }),
  notice: (s, e) => s.upsert({ kind: 'notice', id: s.newId(), code: e.code, message: e.message, ...(e.args ? { args: e.args } : {}) }),
  guidance: (s, e) => s.upsert({ kind: 'guidance', id: s.newId(), name: e.name, site: e.site, adapterId: e.adapterId, skills: e.skills, text: e.text }),
  plan: foldPlan,
  plan_step: foldPlanStep,
  usage: foldUsage,
  // A provider waiting before a retry: said on the status line, not kept in the transcript.
  waiting: (s, e) => s.broadcast({ type: 'status', text: e.message }),
};
