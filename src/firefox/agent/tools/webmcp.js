// WebMCP (Settings, off by default): tools a page declares itself through the browser's WebMCP API
// (document.modelContext / navigator.modelContext: getTools, executeTool). page_tools lists them,
// call_page_tool calls one. A page tool is the page's own code doing whatever it does, so every call
// asks the user first (the policy's page_tool rule) and runs as an acting step, its requests held.
// Not in the registry's ALL_TOOLS: runs offer them only when the setting is on (service/runs.js,
// mcp-protocol/catalog.js). The page side is content/webmcp.js and content/webmcp-world.js.
/** @import { Tool } from '../../types/core' */

/** How long a page's tool may take. */
const PAGE_TOOL_MS = 30_000;

/** @type {Tool} */
export const pageTools = {
  name: 'page_tools',
  description: "List the tools this page declares for agents through WebMCP (the browser's navigator.modelContext / document.modelContext API): name, description, JSON schema of its input. Call one with call_page_tool. Pages without WebMCP have none.",
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  effects: ['reads_page'],
  says: (t) => t('toolSays_page_tools'),
  run: (_args, ctx) => ctx.browser.sendToContent(ctx.tabId, { type: 'content.webmcpList' }),
};

/** @type {Tool} */
export const callPageTool = {
  name: 'call_page_tool',
  description: "Call one of the page's own WebMCP tools (from page_tools) with its input. The page's code runs it; the user is asked first, every time.",
  parameters: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 200, description: 'The tool name, as page_tools lists it.' },
      input: { type: 'object', description: "The tool's input, matching its inputSchema." },
    },
    required: ['name'],
    additionalProperties: false,
  },
  effects: ['reads_page', 'acts_on_page', 'calls_page_tool'],
  says: (t, c) => t('toolSays_call_page_tool', c.quoted?.('name') ?? ''),
  run: (args, ctx) => ctx.browser.sendToContent(ctx.tabId, { type: 'content.webmcpCall', name: args.name, input: args.input ?? {}, timeoutMs: PAGE_TOOL_MS }, { deadlineMs: PAGE_TOOL_MS + 2_000 }),
};

/** @type {readonly Tool[]} */
export const PAGE_TOOLS = Object.freeze([pageTools, callPageTool]);
