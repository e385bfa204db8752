// Tool calling for models without it: the tools are described in the system prompt, the model
// answers with a JSON object, and a tolerant parser finds it in prose, fenced blocks, or JSON with
// trailing commas and single quotes (the usual small-model slips: json-repair.js).
/** @import { ChatMessage, ChatRequest, Provider, StreamEvent, ToolSchema } from '../types/core' */
import { textOf } from './message-parts.js';
import { repairJSON } from './json-repair.js';

/** Ids for calls found in text; unique across the conversation. */
let callSeq = 0;

/** @param {ToolSchema[]} tools */
export function toolPrompt(tools) {
  const list = tools.map((t) => `- ${t.name}: ${t.description}\n  arguments (JSON schema): ${JSON.stringify(t.parameters)}`).join('\n');
  return [
    'You can call tools. To call one, reply with a single JSON object in a ```json fenced block, and nothing after it:',
    '```json\n{"tool": "<tool name>", "arguments": { … }}\n```',
    'Call one tool per reply. The result comes back in the next message as "Tool result for <name>: …".',
    'When you need no tool, answer in plain text without any JSON block.',
    'Tools:',
    list,
  ].join('\n');
}

/**
 * Finds tool calls in a model's text answer: fenced blocks first, then any balanced {…} in prose
 * that names a known tool. Accepts {"tool"|"name"|"function": …, "arguments"|"args"|"parameters": …}.
 * @param {string} text
 * @param {string[]} toolNames
 * @returns {{ text: string, calls: { name: string, arguments: string }[] }}
 */
export function parseToolCalls(text, toolNames) {
  const candidates = [];
  const fence = /```(?:json|tool|tool_call)?\s*\n?([\s\S]*?)```/g;
  for (let m; (m = fence.exec(text));) candidates.push({ start: m.index, end: m.index + m[0].length, body: m[1] });
  if (!candidates.length) {
    for (const span of balancedObjects(text)) candidates.push({ start: span.start, end: span.end, body: text.slice(span.start, span.end) });
  }
  const calls = [];
  let prose = text;
  for (const c of candidates.reverse()) {
    const parsed = repairJSON(c.body);
    if (!parsed.ok || !parsed.value || typeof parsed.value !== 'object') continue;
    const v = /** @type {Record<string, any>} */ (parsed.value);
    const name = v.tool ?? v.name ?? v.function?.name ?? v.function;
    if (typeof name !== 'string' || !toolNames.includes(name)) continue;
    const args = v.arguments ?? v.args ?? v.parameters ?? v.function?.arguments ?? {};
    calls.unshift({ name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });
    prose = prose.slice(0, c.start) + prose.slice(c.end);
  }
  return { text: calls.length ? prose.trim() : text, calls };
}

/** Top-level balanced {…} spans, string-aware. @param {string} s */
function balancedObjects(s) {
  const spans = [];
  let depth = 0;
  let start = -1;
  /** @type {string | null} */
  let quote = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) { if (c === '\\') i++; else if (c === quote) quote = null; continue; }
    if ((c === '"' || c === "'") && depth > 0) quote = c;
    else if (c === '{') { if (depth++ === 0) start = i; }
    else if (c === '}' && depth > 0 && --depth === 0) spans.push({ start, end: i + 1 });
  }
  return spans;
}

/**
 * Runs a provider without native tools through the prompt protocol: tools go into the system
 * prompt, earlier calls and results become text, and the answer is parsed for a call. Text is
 * held until the answer is complete, so a JSON call never flashes up in the panel as prose.
 * @param {Provider} inner
 * @returns {Provider}
 */
export function withPromptTools(inner) {
  return {
    ...inner,
    capabilities: () => ({ ...(inner.capabilities?.() ?? { vision: false, contextWindow: 4096, maxOutput: 1024 }), tools: false }),
    async *chatStream(req) {
      if (!req.tools.length) { yield* inner.chatStream(req); return; }
      /** @type {ChatRequest} */
      const plain = { ...req, tools: [], messages: toPromptMessages(req.messages, req.tools) };
      let text = '';
      /** @type {StreamEvent[]} */
      const tail = [];
      for await (const ev of inner.chatStream(plain)) {
        if (ev.type === 'text') text += ev.text;
        else tail.push(ev);
      }
      const { text: prose, calls } = parseToolCalls(text, req.tools.map((t) => t.name));
      if (prose) yield { type: 'text', text: prose };
      for (let i = 0; i < calls.length; i++) {
        yield { type: 'tool_call_delta', index: i, id: `pcall_${(++callSeq).toString(36)}`, name: calls[i].name, argumentsDelta: calls[i].arguments };
      }
      for (const ev of tail) yield ev.type === 'finish' && calls.length ? { type: 'finish', reason: 'tool_calls' } : ev;
    },
  };
}

/** @param {ChatMessage[]} messages @param {ToolSchema[]} tools @returns {ChatMessage[]} */
export function toPromptMessages(messages, tools) {
  const protocol = toolPrompt(tools);
  /** @type {ChatMessage[]} */
  const out = [];
  let sawSystem = false;
  for (const m of messages) {
    if (m.role === 'system' && !sawSystem) { sawSystem = true; out.push({ role: 'system', content: `${textOf(m.content)}\n\n${protocol}` }); }
    else if (m.role === 'assistant' && m.toolCalls?.length) {
      const calls = m.toolCalls.map((c) => '```json\n' + JSON.stringify({ tool: c.name, arguments: safeParse(c.arguments) }) + '\n```').join('\n');
      out.push({ role: 'assistant', content: [textOf(m.content), calls].filter(Boolean).join('\n') });
    } else if (m.role === 'tool') out.push({ role: 'user', content: `Tool result for ${m.name ?? 'the tool'}:\n${textOf(m.content)}` });
    else out.push({ role: m.role, content: m.content });
  }
  if (!sawSystem) out.unshift({ role: 'system', content: protocol });
  return out;
}

/** @param {string} s */
function safeParse(s) { const r = repairJSON(s || '{}'); return r.ok ? r.value : s; }
