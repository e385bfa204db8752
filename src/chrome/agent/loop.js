// The agent loop: ask the model, run the tools it calls, feed the results back, until it answers,
// calls done, is stopped, or reaches the step cap. Browser-free: everything arrives as a parameter.
/** @import { AgentEvent, ChatMessage, Mode, Provider, RunOutcome, Tool, ToolCall, ToolContext, ToolResult } from '../types/core' */
import { parseToolArgs } from './tool-args.js';
import { formatToolResult } from './tool-result.js';
import { PAGE_CONTENT_TOOLS, findTool, toolsForMode } from './tools/index.js';
import { ProviderError } from '../providers/errors.js';

/**
 * @typedef {object} RunOptions
 * @property {Provider} provider
 * @property {Mode} mode
 * @property {ChatMessage[]} messages the conversation so far, system prompt and new user message included; the loop appends to it
 * @property {ToolContext} toolContext
 * @property {(e: AgentEvent) => void} emit
 * @property {AbortSignal} [signal]
 * @property {number} [maxSteps] model calls allowed in this run (default 100)
 * @property {() => string} [newId]
 */

/**
 * @param {RunOptions} opts
 * @returns {Promise<RunOutcome>}
 */
export async function runAgent(opts) {
  const { provider, mode, messages, toolContext, emit, signal } = opts;
  const maxSteps = opts.maxSteps ?? 100;
  let counter = 0;
  const newId = opts.newId ?? (() => `m${Date.now().toString(36)}${(counter++).toString(36)}`);
  const offered = toolsForMode(mode);
  const schemas = offered.map(({ name, description, parameters }) => ({ name, description, parameters }));

  for (let step = 1; step <= maxSteps; step++) {
    if (signal?.aborted) return stopped(step - 1);
    const messageId = newId();
    /** @type {{ text: string, calls: ToolCall[] }} */
    let reply;
    try {
      reply = await streamTurn(provider, { messages, tools: schemas, signal }, messageId, emit);
    } catch (err) {
      if (signal?.aborted) return stopped(step - 1);
      const e = err instanceof ProviderError
        ? { code: err.code, message: err.message }
        : { code: 'INTERNAL_ERROR', message: `Unexpected error while talking to ${provider.label}: ${err instanceof Error ? err.message : err}` };
      emit({ type: 'error', ...e });
      return { status: 'error', error: e, steps: step };
    }

    messages.push({ role: 'assistant', content: reply.text, ...(reply.calls.length ? { toolCalls: reply.calls } : {}) });
    emit({ type: 'assistant_done', messageId, text: reply.text });

    if (reply.calls.length === 0) {
      emit({ type: 'final', text: reply.text });
      return { status: 'answered', text: reply.text, steps: step };
    }

    for (let i = 0; i < reply.calls.length; i++) {
      const call = reply.calls[i];
      if (signal?.aborted) {
        // Keep the conversation well-formed: every call gets an answer.
        for (const c of reply.calls.slice(i)) messages.push(toolMessage(c, { ok: false, code: 'ABORTED', message: 'The user stopped the run.' }));
        return stopped(step);
      }
      emit({ type: 'tool_call', id: call.id, name: call.name, args: previewArgs(call.arguments) });
      const { result, tool } = await runToolCall(call, offered, mode, toolContext);
      emit({ type: 'tool_result', id: call.id, name: call.name, result });
      messages.push(toolMessage(call, result, PAGE_CONTENT_TOOLS.has(call.name)));
      if (tool?.terminal && result.ok) {
        for (const c of reply.calls.slice(i + 1)) messages.push(toolMessage(c, { ok: false, code: 'SKIPPED', message: 'The run ended with done before this call.' }));
        const text = String(result.data);
        emit({ type: 'final', text });
        return { status: 'done', text, steps: step };
      }
    }
  }
  const message = `Stopped after ${maxSteps} steps without finishing. Send a message to continue, or raise the step cap in Settings.`;
  emit({ type: 'error', code: 'STEP_LIMIT', message });
  return { status: 'step_limit', error: { code: 'STEP_LIMIT', message }, steps: maxSteps };

  /** @param {number} steps @returns {RunOutcome} */
  function stopped(steps) {
    emit({ type: 'error', code: 'ABORTED', message: 'Stopped. The conversation is kept; send a message to go on.' });
    return { status: 'aborted', steps };
  }
}

/**
 * Streams one model turn, emitting text as it arrives and assembling tool calls from their deltas.
 * @param {Provider} provider
 * @param {import('../types/core').ChatRequest} req
 * @param {string} messageId
 * @param {(e: AgentEvent) => void} emit
 */
async function streamTurn(provider, req, messageId, emit) {
  let text = '';
  /** @type {Map<number, ToolCall>} */
  const calls = new Map();
  for await (const ev of provider.chatStream(req)) {
    if (ev.type === 'text') {
      text += ev.text;
      emit({ type: 'text_delta', messageId, text: ev.text });
    } else if (ev.type === 'tool_call_delta') {
      let c = calls.get(ev.index);
      if (!c) { c = { id: '', name: '', arguments: '' }; calls.set(ev.index, c); }
      if (ev.id) c.id = ev.id;
      if (ev.name) c.name += ev.name;
      if (ev.argumentsDelta) c.arguments += ev.argumentsDelta;
    } else if (ev.type === 'usage') {
      emit({ type: 'usage', usage: ev.usage });
    }
  }
  const list = [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([i, c]) => ({ ...c, id: c.id || `call_${messageId}_${i}` }));
  return { text, calls: list };
}

/**
 * @param {ToolCall} call
 * @param {Tool[]} offered
 * @param {Mode} mode
 * @param {ToolContext} ctx
 * @returns {Promise<{ result: ToolResult, tool?: Tool }>}
 */
async function runToolCall(call, offered, mode, ctx) {
  const tool = offered.find((t) => t.name === call.name);
  if (!tool) {
    const known = findTool(call.name);
    if (known && mode === 'ask') {
      return { result: { ok: false, code: 'NOT_ALLOWED_IN_ASK_MODE', message: `${call.name} would change the page, and Ask mode is read-only. Answer from what you can read, or tell the user to switch to Act mode.` } };
    }
    return { result: { ok: false, code: 'UNKNOWN_TOOL', message: `There is no tool named "${call.name}". Available tools: ${offered.map((t) => t.name).join(', ')}.`, retryable: true } };
  }
  const parsed = parseToolArgs(call.arguments, tool.parameters);
  if (!parsed.ok) return { tool, result: parsed };
  try {
    return { tool, result: await tool.run(parsed.args, ctx) };
  } catch (err) {
    return { tool, result: { ok: false, code: 'TOOL_FAILED', message: `${call.name} failed: ${err instanceof Error ? err.message : err}` } };
  }
}

/** The arguments as the panel shows them: parsed when they parse, raw text otherwise. @param {string} raw */
function previewArgs(raw) {
  try { return JSON.parse(raw || '{}'); } catch { return raw; }
}

/**
 * @param {ToolCall} call
 * @param {ToolResult} result
 * @param {boolean} [pageContent]
 * @returns {ChatMessage}
 */
function toolMessage(call, result, pageContent = false) {
  return { role: 'tool', toolCallId: call.id, name: call.name, content: formatToolResult(result, { pageContent: pageContent && result.ok }) };
}
