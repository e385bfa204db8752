// tool.*: the tool runner, a tool run exactly as the agent would run it (tests, evals, debugging),
// and the list of tools with their schemas and effects.
/** @import { Handler } from './index.js' */
/** @import { ToolContext } from '../../types/core' */
import { ALL_TOOLS, findTool } from '../../agent/tools/index.js';
import { parseToolArgs } from '../../agent/tool-args.js';
import { required, optional, tabId, text, object } from './request-fields.js';
import { fail } from '../../agent/error-codes.js';

/** @type {Handler[]} */
export const TOOL_HANDLERS = [
  {
    type: 'tool.run',
    fields: { tabId: required(tabId), name: required(text), args: optional(object) },
    async handle(msg, d) {
      const tool = findTool(msg.name);
      if (!tool) return fail('UNKNOWN_TOOL', `"${msg.name}"; the tools are ${ALL_TOOLS.map((t) => t.name).join(', ')}`);
      const parsed = parseToolArgs(JSON.stringify(msg.args ?? {}), tool.parameters);
      if (!parsed.ok) return parsed;
      /** @type {ToolContext} */
      const ctx = { tabId: msg.tabId, browser: d.ops };
      return tool.run(parsed.args, ctx);
    },
  },
  {
    type: 'tool.list',
    fields: {},
    handle: async () => ({ ok: true, data: ALL_TOOLS.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters, effects: t.effects })) }),
  },
];
