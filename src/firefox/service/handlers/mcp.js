// mcp.*: Settings → MCP bridge (status, pairing, grants, revoke) and the Stop of "Driven by" in
// the panel. The background's side of the bridge is service/mcp/.
/** @import { Handler } from './index.js' */
import { parseGrant } from '../../mcp-protocol/grants.js';
import { required, tabId, text, id } from './request-fields.js';
import { fail } from '../../agent/error-codes.js';

/** @type {import('./request-fields.js').FieldCheck} */
const grant = (v) => (parseGrant(v) ? null : 'must be a grant: { kind: "active" }, { kind: "all" } or { kind: "group", groupId }');

/** @type {Handler[]} */
export const MCP_HANDLERS = [
  {
    type: 'mcp.status',
    fields: {},
    handle: async (_msg, d) => ({ ok: true, data: await d.mcp.status() }),
  },
  {
    type: 'mcp.pair',
    fields: { code: required(text), grant: required(grant) },
    handle: (msg, d) => d.mcp.pair(msg.code, /** @type {import('../../mcp-protocol/grants.js').Grant} */ (parseGrant(msg.grant))),
  },
  {
    type: 'mcp.grant',
    fields: { id: required(id), grant: required(grant) },
    async handle(msg, d) {
      const ok = await d.mcp.setGrant(msg.id, /** @type {import('../../mcp-protocol/grants.js').Grant} */ (parseGrant(msg.grant)));
      return ok ? { ok: true, data: null } : fail('MCP_NOT_PAIRED', 'no paired client has that id');
    },
  },
  {
    type: 'mcp.revoke',
    fields: { id: required(id) },
    handle: async (msg, d) => ({ ok: true, data: { revoked: await d.mcp.revoke(msg.id) } }),
  },
  {
    type: 'mcp.stop',
    fields: { tabId: required(tabId) },
    handle: async (msg, d) => ({ ok: true, data: { stopped: d.mcp.stopTab(msg.tabId) } }),
  },
  {
    type: 'mcp.driver',
    fields: { tabId: required(tabId) },
    handle: async (msg, d) => ({ ok: true, data: { name: d.mcp.driver(msg.tabId) } }),
  },
];
