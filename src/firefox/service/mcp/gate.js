// A client's tool call, run the way the agent's own calls run: agent/tool-call.js checks the
// arguments, asks the safety policy about the effects the tool declares, shows a card in the tab's
// panel when it asks (the call waits for the answer, or times out), and runs acting steps with the
// tab's requests held (agent/safety/guard.js). Each client has its own policy per tab, so "Allow
// for this task" lasts while it stays connected. The call and its result appear in the panel's
// transcript like the agent's steps; known secrets are masked in what goes back.
/** @import { Tool, ToolResult, Interaction, ConfirmAnswer } from '../../types/core' */
/** @import { Session } from '../session.js' */
/** @import { Guard } from '../../agent/safety/guard.js' */
import { runToolCall } from '../../agent/tool-call.js';
import { createPolicy } from '../../agent/safety/policy.js';
import { withOrgRules } from '../../agent/safety/org-rules.js';
import { createTaskScope } from '../../agent/safety/scope.js';
import { createGuard } from '../../agent/safety/guard.js';
import { withTimeout } from '../../agent/abort.js';
import { createPanelInteraction } from '../interaction.js';
import { maskSecretArgs } from '../secret-args.js';
import { fail } from '../../agent/error-codes.js';

/** How long a card waits for the user before the client's call fails with CONFIRMATION_TIMEOUT. */
export const CONFIRM_TIMEOUT_MS = 120_000;
/** A guard (and its hold on the tab's requests) is released this long after the client's last call. */
const IDLE_RELEASE_MS = 3_000;

/**
 * @param {object} deps
 * @param {import('../../types/core').BrowserOps} deps.ops
 * @param {(tabId: number) => Promise<Session>} deps.session
 * @param {ReturnType<typeof import('../settings.js').createSettingsStore>} deps.settings
 * @param {ReturnType<typeof import('../knowledge.js').createKnowledge>} [deps.knowledge]
 * @param {number} [deps.confirmTimeoutMs]
 */
export function createGate({ ops, session, settings, knowledge, confirmTimeoutMs = CONFIRM_TIMEOUT_MS }) {
  /** Per client and tab: the policy (kept), the guard (released when idle), the queue of calls. @type {Map<string, TabGate>} */
  const gates = new Map();

  /**
   * @typedef {object} TabGate
   * @property {ReturnType<typeof createPolicy>} policy
   * @property {Guard | null} guard
   * @property {Promise<unknown>} queue
   * @property {{ signal: AbortSignal | null, timedOut: boolean, onWaiting: (text: string) => void }} current
   * @property {ReturnType<typeof setTimeout> | null} release
   */

  /** @param {string} clientId @param {number} tabId @param {Session} s @returns {Promise<TabGate>} */
  async function gateFor(clientId, tabId, s) {
    const key = `${clientId}:${tabId}`;
    let g = gates.get(key);
    if (g) return g;
    const conf = await settings.get();
    const tab = await ops.getTab(tabId);
    const policy = withOrgRules(createPolicy({
      scope: createTaskScope(tab?.url ?? '', ''),
      alwaysAllow: conf.sites?.allow, alwaysConfirm: conf.sites?.confirm, strictSecrets: conf.strictSecrets === true, secrets: s.secrets,
      sensitiveSite: knowledge ? await knowledge.sensitiveSites() : undefined,
    }), conf.managed);
    g = { policy, guard: null, queue: Promise.resolve(), current: { signal: null, timedOut: false, onWaiting: () => {} }, release: null };
    gates.set(key, g);
    return g;
  }

  /**
   * The panel's cards, with the client's call as the thing that stops waiting, and a deadline.
   * @param {Session} s @param {TabGate} g @returns {Interaction}
   */
  function timedInteraction(s, g) {
    const panel = createPanelInteraction(s);
    return {
      approvePlan: () => Promise.resolve({ approved: false, steps: [] }),
      clarify: () => Promise.resolve(''),
      async confirm(req, _signal) {
        const controller = new AbortController();
        const outer = g.current.signal;
        const abort = () => controller.abort();
        outer?.addEventListener('abort', abort, { once: true });
        const timer = setTimeout(() => { g.current.timedOut = true; abort(); }, confirmTimeoutMs);
        g.current.onWaiting(`Waiting for the user to answer a confirmation in Tabwright's panel: ${req.action} on ${req.site}.`);
        try {
          return /** @type {ConfirmAnswer} */ (await panel.confirm(req, controller.signal));
        } finally {
          clearTimeout(timer);
          outer?.removeEventListener('abort', abort);
        }
      },
    };
  }

  /**
   * Run one call of a client in a tab (calls of one client in one tab run one after the other).
   * @param {{ clientId: string, tabId: number, tool: Tool, args: Record<string, unknown>, signal: AbortSignal, onWaiting: (text: string) => void }} c
   * @returns {Promise<ToolResult>}
   */
  async function call(c) {
    const s = await session(c.tabId);
    if (s.running) return fail('BUSY', "Tabwright's own agent; wait for it to finish or use another tab");
    const g = await gateFor(c.clientId, c.tabId, s);
    const turn = g.queue.then(() => runOne(c, s, g));
    g.queue = turn.catch(() => {});
    return turn;
  }

  /** @param {Parameters<typeof call>[0]} c @param {Session} s @param {TabGate} g @returns {Promise<ToolResult>} */
  async function runOne(c, s, g) {
    if (c.signal.aborted) return stopped();
    if (g.release) { clearTimeout(g.release); g.release = null; }
    g.guard ??= createGuard({ policy: g.policy, interact: timedInteraction(s, g) });
    g.current = { signal: c.signal, timedOut: false, onWaiting: c.onWaiting };
    const id = s.newId();
    s.apply({ type: 'tool_call', id, name: c.tool.name, args: s.secrets.maskDeep(c.args) });
    // What the page shows as secret is learnt first, so it is masked in the result (as in the loop).
    const known = await withTimeout(ops.sendToContent(c.tabId, { type: 'content.secrets' }), 1500, null);
    const d = known?.ok ? /** @type {{ values?: string[], origin?: string }} */ (known.data) : null;
    if (d?.values?.length) s.secrets.add(d.values, d.origin ?? '');
    const started = Date.now();
    /** @type {ToolResult} */
    let result;
    try {
      const out = await runToolCall({ id, name: c.tool.name, arguments: JSON.stringify(c.args) }, {
        offered: [c.tool], mode: 'act', ctx: { tabId: c.tabId, browser: ops, signal: c.signal }, messages: [], guard: g.guard, signal: c.signal, secrets: s.secrets,
      });
      result = out.result;
      if (g.current.timedOut && !result.ok && result.code === 'USER_DECLINED') {
        result = fail('CONFIRMATION_TIMEOUT', `${Math.round(confirmTimeoutMs / 1000)} s in Tabwright's panel; ask the user to watch the panel and try again`);
      }
    } catch {
      result = stopped();
    }
    result = s.secrets.maskDeep(result);
    const item = s.toolItem(id);
    s.apply({ type: 'tool_result', id, name: c.tool.name, result, ms: Date.now() - started });
    if (item?.kind === 'tool') { const masked = maskSecretArgs({ ...item, result }); if (masked !== item) s.upsert(masked); }
    g.release = setTimeout(() => { g.release = null; const guard = g.guard; g.guard = null; void guard?.close(); }, IDLE_RELEASE_MS);
    return result;
  }

  /** @returns {ToolResult} */
  function stopped() {
    return fail('STOPPED_BY_USER');
  }

  return {
    call,
    /** A client went away: its policies go with it, and any hold still armed is released. @param {string} clientId */
    forget(clientId) {
      for (const [key, g] of gates) {
        if (!key.startsWith(`${clientId}:`)) continue;
        if (g.release) clearTimeout(g.release);
        void g.guard?.close();
        gates.delete(key);
      }
    },
  };
}
/** @typedef {ReturnType<typeof createGate>} Gate */
