// Which tool a call names: one of the tools offered in this mode, or a failure the model can act on
// (a tool that exists but changes something, asked for in a mode that only reads; no such tool).
/** @import { ToolCall, ToolResult, Tool } from '../../types/core' */
/** @import { CallEnv } from '../tool-call.js' */
import { findTool } from '../tools/index.js';
import { fail } from '../error-codes.js';

/** @param {ToolCall} call @param {CallEnv} env @returns {{ tool: Tool } | { tool?: undefined, result: ToolResult }} */
export function offeredTool(call, env) {
  const { offered, mode } = env;
  const tool = offered.find((t) => t.name === call.name);
  if (tool) return { tool };
  if (findTool(call.name) && mode !== 'act') {
    return { result: fail('NOT_ALLOWED_IN_ASK_MODE', `${call.name} would change the page${mode === 'plan' ? ', and planning is read-only' : ''}; answer from what you can read, or tell the user to switch to Act mode`) };
  }
  return { result: fail('UNKNOWN_TOOL', `"${call.name}"; the tools are ${offered.map((t) => t.name).join(', ')}`, { retryable: true }) };
}
