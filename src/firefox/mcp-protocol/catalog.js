// What an MCP client sees: the Tabwright tools it may call (the page's read and acting tools, tabs),
// each with a tabId, plus list_tabs and run_task. Browser-free: the background answers the
// bridge's tools.list with this, and checks each call's tool against it.
/** @import { Tool } from '../types/core' */
import { ALL_TOOLS } from '../agent/tools/index.js';
import { PAGE_TOOLS } from '../agent/tools/webmcp.js';
import { onlyReads } from '../agent/safety/effects.js';

/** Effects that belong to a Tabwright run, not to a client driving a tab. */
const RUN_ONLY = new Set(['controls_run', 'creates_jobs', 'reads_skills', 'saves_skills']);
/** Tools that ask the person at the browser something mid-run: only Tabwright's own runs do that. */
const NOT_FOR_CLIENTS = new Set(['ask_user_which_element']);

/**
 * The Tabwright tools a client may call directly. The developer tools only when the user turned them
 * on (Settings → Developer tools), as for Tabwright's own runs; the tab recorder stays the user's.
 * @param {{ webmcp?: boolean, developer?: boolean }} [opts] webmcp: the page's own WebMCP tools (Settings) are offered too
 * @returns {Tool[]}
 */
export function clientTools(opts = {}) {
  const tools = ALL_TOOLS.filter((t) => !t.runnerOnly && !NOT_FOR_CLIENTS.has(t.name) && !t.effects.some((e) => RUN_ONLY.has(e))
    && (!t.developer || opts.developer === true) && !t.needs);
  return opts.webmcp ? [...tools, ...PAGE_TOOLS] : tools;
}

const TAB_ID = { type: 'integer', minimum: 0, description: 'The tab to use (from list_tabs). Default: the tab the user is looking at, when this client may use it.' };

/**
 * @typedef {{ name: string, description: string, inputSchema: Record<string, any>, annotations?: { readOnlyHint?: boolean, destructiveHint?: boolean, openWorldHint?: boolean } }} McpTool
 */

/** The client's own tools, beside Tabwright's. @type {McpTool[]} */
export const BRIDGE_TOOLS = [
  {
    name: 'list_tabs',
    description: 'The browser tabs this client may use (as the user granted at pairing): id, title, URL, whether active. Pass an id as tabId to the other tools.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'run_task',
    description: "Hand a whole task to Tabwright's own agent in a tab, in Ask mode (reads and answers) or Act mode (may click and type; every write waits for the user's confirmation in Tabwright's panel). Progress is streamed as notifications; the result is the agent's answer.",
    inputSchema: {
      type: 'object',
      properties: {
        task: { type: 'string', minLength: 1, maxLength: 20000, description: 'What to do or find out, in plain words.' },
        mode: { type: 'string', enum: ['ask', 'act'], description: 'ask: only reads the page (default); act: may act on it.' },
        tabId: TAB_ID,
      },
      required: ['task'],
      additionalProperties: false,
    },
  },
];

/**
 * Everything tools/list answers, in the MCP shape.
 * @param {{ webmcp?: boolean, developer?: boolean }} [opts] @returns {McpTool[]}
 */
export function mcpToolList(opts = {}) {
  const mine = clientTools(opts).map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: withTabId(t.parameters),
    annotations: { readOnlyHint: onlyReads(t), destructiveHint: !onlyReads(t), openWorldHint: true },
  }));
  return [...BRIDGE_TOOLS, ...mine];
}

/** A tool's schema with tabId added (and taken off again before the tool sees its arguments). @param {Record<string, any>} schema */
function withTabId(schema) {
  const s = schema && typeof schema === 'object' ? schema : { type: 'object', properties: {} };
  return { ...s, type: 'object', properties: { ...(s.properties ?? {}), tabId: TAB_ID } };
}
