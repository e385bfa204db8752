// The background's request handlers as one table: each handler declares the request type it
// answers and the fields it needs, in its own file by area. The router looks a request up here,
// checks its fields, and runs the handler; a type nobody handles is refused whole.
/** @import { RouterReply, Settings, ProviderSettings } from '../../types/messages' */
/** @import { Platform } from '../../types/platform' */
/** @import { BrowserOps } from '../../types/core' */
/** @import { Session } from '../session.js' */
/** @import { RequestField } from './request-fields.js' */
import { requestProblem } from './request-fields.js';
import { CHAT_HANDLERS } from './chat.js';
import { ANSWER_HANDLERS } from './answers.js';
import { TOOL_HANDLERS } from './tools.js';
import { SETTINGS_HANDLERS } from './settings.js';
import { HISTORY_HANDLERS } from './history.js';
import { JOB_HANDLERS } from './jobs.js';
import { KNOWLEDGE_HANDLERS } from './knowledge.js';
import { MCP_HANDLERS } from './mcp.js';
import { RECORDER_HANDLERS } from './recorder.js';
import { TRACE_HANDLERS } from './traces.js';
import { WORKFLOW_HANDLERS } from './workflows.js';
import { PAGE_HANDLERS } from './page.js';
import { SPEND_HANDLERS } from './spend.js';
import { OVERVIEW_HANDLERS } from './overview.js';
import { fail } from '../../agent/error-codes.js';

/**
 * What handlers work with: the router's stores, sessions and runs.
 * @typedef {object} HandlerDeps
 * @property {Platform} platform
 * @property {ReturnType<typeof import('../settings.js').createSettingsStore>} settings
 * @property {ReturnType<typeof import('../browser-ops.js').createBrowserOps>} ops
 * @property {ReturnType<typeof import('../history-store.js').createHistoryStore>} history
 * @property {Map<number, Session>} sessions the live sessions
 * @property {(tabId: number) => Promise<Session>} session a tab's session, rebuilt from storage when needed
 * @property {ReturnType<typeof import('../runs.js').createRuns>} runs
 * @property {() => ReturnType<typeof import('../jobs.js').startJobs>} jobs
 * @property {(conf: Settings, extra?: ProviderSettings) => Promise<void>} syncLocalEndpoints
 * @property {ReturnType<typeof import('../knowledge.js').createKnowledge>} knowledge site adapters and skills
 * @property {import('../trace-store.js').TraceStore} traces the runs' traces
 * @property {import('../workflows.js').Workflows} workflows saved workflows
 * @property {import('../mcp/index.js').Mcp} mcp the MCP bridge (service/mcp/)
 * @property {import('../spend.js').Spend} spend what runs spend, today's tally and the budgets (service/spend.js)
 * @property {ReturnType<typeof import('../runs-overview.js').createRunsOverview>} overview every active run and the work queued for a slot
 */

/**
 * @typedef {object} Handler
 * @property {string} type the request type it answers
 * @property {Record<string, RequestField>} fields what the request must (or may) carry besides its type
 * @property {(msg: any, deps: HandlerDeps) => Promise<RouterReply>} handle
 */

/** @type {readonly Handler[]} */
export const HANDLERS = Object.freeze([...CHAT_HANDLERS, ...ANSWER_HANDLERS, ...TOOL_HANDLERS, ...SETTINGS_HANDLERS, ...HISTORY_HANDLERS, ...JOB_HANDLERS, ...KNOWLEDGE_HANDLERS, ...MCP_HANDLERS, ...RECORDER_HANDLERS, ...PAGE_HANDLERS, ...TRACE_HANDLERS, ...WORKFLOW_HANDLERS, ...SPEND_HANDLERS, ...OVERVIEW_HANDLERS]);

/** @type {ReadonlyMap<string, Handler>} */
const BY_TYPE = new Map(HANDLERS.map((h) => [h.type, h]));

/** The request types the background answers. */
export const REQUEST_TYPES = Object.freeze([...BY_TYPE.keys()]);

/**
 * Runs the handler of a request, after checking the fields it declares.
 * @param {{ type: string } & Record<string, unknown>} msg @param {HandlerDeps} deps
 * @returns {Promise<RouterReply>}
 */
export async function dispatch(msg, deps) {
  const handler = BY_TYPE.get(msg.type);
  if (!handler) return fail('UNKNOWN_REQUEST', `"${msg.type}"`);
  const problem = requestProblem(msg, handler.fields);
  if (problem) return fail('INVALID_REQUEST', problem);
  return handler.handle(msg, deps);
}
