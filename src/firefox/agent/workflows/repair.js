// Repair of one workflow step: when a step cannot bind and the user allowed repair, the
// model gets one request about that one step (the workflow's steps as context, why it failed, the
// current page's outline fenced as untrusted) with only that step's tool offered, and answers one
// call. The values typed stay the user's (or their parameters'), never the model's.
/** @import { Provider, ToolCall } from '../../types/core' */
/** @import { Fence } from '../untrusted.js' */
/** @import { Workflow, WorkflowStep } from '../../types/workflows' */
import { addToolCallDelta, assembledCalls } from '../../providers/tool-calls.js';
import { raceAbort } from '../abort.js';
import { REPAIR_MARK } from '../traces/recorder.js';
import { findTool } from '../tools/index.js';
import { describeStep } from './fingerprint.js';
import { describePage } from './params.js';

/** Arguments that carry what the user typed: the workflow's, whatever the model answers. */
const VALUE_ARGS = ['text', 'value', 'label', 'labels', 'values', 'index', 'keys', 'submit', 'clear'];

/**
 * @param {object} o
 * @param {Provider} o.provider
 * @param {Workflow} o.workflow
 * @param {number} o.index the failing step
 * @param {Record<string, unknown>} o.args the step's arguments with values filled (secrets as the mask when shown)
 * @param {Record<string, unknown>} o.shownArgs what the model may see of them (secrets masked)
 * @param {string} o.reason why it failed
 * @param {string} o.outline the page's outline now
 * @param {Fence} o.fence
 * @param {AbortSignal} [o.signal]
 * @returns {Promise<{ ok: true, call: ToolCall, args: Record<string, unknown> } | { ok: false, message: string }>}
 */
export async function repairStep(o) {
  const step = o.workflow.steps[o.index];
  const tool = findTool(step.tool);
  if (!tool) return { ok: false, message: `There is no tool named ${step.tool} to repair the step with.` };
  const steps = o.workflow.steps.map((s, i) => `${i + 1}. ${describeStep(s)} on ${describePage(s.page)}${i === o.index ? '   ← this one' : ''}`).join('\n');
  const messages = /** @type {import('../../types/core').ChatMessage[]} */ ([
    { role: 'system', content: `${REPAIR_MARK} You repair one step of a saved browser workflow that Tabwright replays without a model. The step no longer matches the page. Answer with exactly one call of the tool offered, aimed at the element of the current page that does what the step did, by its ref from the outline. If nothing on the page fits, answer in text and say why. ${o.fence.explain()}` },
    { role: 'user', content: `Workflow "${o.workflow.name}":\n${steps}\n\nStep ${o.index + 1} failed: ${o.reason}\nIt was: ${describeStep(step)} with arguments ${JSON.stringify(o.shownArgs)}.\n\nThe page now:\n${o.fence.wrap(o.outline)}` },
  ]);
  /** @type {Map<number, ToolCall>} */
  const calls = new Map();
  let text = '';
  const it = o.provider.chatStream({ messages, tools: [{ name: tool.name, description: tool.description, parameters: tool.parameters }], signal: o.signal })[Symbol.asyncIterator]();
  while (true) {
    const { value: ev, done } = await raceAbort(it.next(), o.signal);
    if (done) break;
    if (ev.type === 'text') text += ev.text;
    else if (ev.type === 'tool_call_delta') addToolCallDelta(calls, ev);
  }
  const call = assembledCalls(calls, 'repair_').find((c) => c.name === tool.name);
  if (!call) return { ok: false, message: `The model found nothing on the page for this step${text.trim() ? `: ${text.trim().slice(0, 300)}` : '.'}` };
  /** @type {Record<string, unknown>} */
  let answered;
  try { answered = JSON.parse(call.arguments || '{}'); } catch { return { ok: false, message: 'The model answered with arguments that do not parse.' }; }
  /** @type {Record<string, unknown>} */
  const args = { ...answered };
  for (const k of VALUE_ARGS) {
    if (o.args[k] !== undefined) args[k] = o.args[k];
    // text names the element, except for the tool that types it (Tool.typedArg): then it is the user's.
    else if (k !== 'text' || tool.typedArg === 'text') delete args[k];
  }
  return { ok: true, call: { ...call, arguments: JSON.stringify(args) }, args };
}
