// The ways a run begins in a tab: a message (the panel's Send, a job, an MCP client), Retry after
// an error or a Stop, and Continue after the background was stopped mid-run.
/** @import { Mode } from '../../types/core' */
/** @import { RouterReply } from '../../types/messages' */
/** @import { Session } from '../session.js' */
/** @import { RunsContext, RunExtra, StartedRun } from '../runs.js' */
import { findPersonSecrets } from '../../agent/handoff/person-secrets.js';
import { originOf } from '../../agent/safety/scope.js';
import { startRun } from './start.js';
import { errorOf, fail } from '../../agent/error-codes.js';

/**
 * Starts an agent run in a tab's session and returns at once with a promise of its outcome:
 * the panel's Send and scheduled jobs (service/jobs.js) both start runs here.
 * @param {RunsContext} ctx @param {number} tabId @param {string} text @param {Mode} mode
 * @param {{ fresh?: boolean, onlyTools?: readonly string[], skill?: string, origin?: import('../../types/messages').RunOrigin } & RunExtra} [opts] origin: who started it (a job, an MCP client; the panel when absent); fresh: the model sees only this prompt (a scheduled task); the panel's transcript keeps what came before; onlyTools: a skill's tools, the only ones offered; skill: the skill's name, shown with the message
 * @returns {Promise<StartedRun>}
 */
export async function beginRun(ctx, tabId, text, mode, opts = {}) {
  const s = await ctx.session(tabId);
  if (s.running) return fail('BUSY');
  if (typeof text !== 'string' || !text.trim()) return fail('EMPTY', 'type a message first');
  if (s.interrupted) s.prepareContinue();
  if (opts.fresh) s.messages.length = 0;
  const said = await keepSecrets(ctx.ops, s, text);
  s.messages.push({ role: 'user', content: said });
  const firstItem = s.items.length;
  s.addUser(opts.skill ? `/${opts.skill}\n${said}` : said, mode);
  // Said once per message that held a password or code (the panel shows it in the person's language by its code).
  if (said !== text) s.upsert({ kind: 'notice', id: s.newId(), ...errorOf('PASSWORD_IN_MESSAGE') });
  return startRun(ctx, s, mode, firstItem, opts.onlyTools, opts);
}

/**
 * A password or code in the person's message becomes a secret of the tab's site: the vault masks
 * it everywhere, and the model (and the panel, History, storage) see its name, "[secret 1]".
 * @param {RunsContext['ops']} ops @param {Session} s @param {string} text @returns {Promise<string>} the message as the model sees it
 */
export async function keepSecrets(ops, s, text) {
  const found = findPersonSecrets(text, s.personSecrets.length + 1);
  if (!found.values.length) return text;
  const origin = originOf((await ops.getTab(s.tabId).catch(() => null))?.url ?? '') ?? '';
  s.secrets.add(found.values, origin);
  found.values.forEach((value) => s.personSecrets.push({ name: `[secret ${s.personSecrets.length + 1}]`, value, origin }));
  return found.text;
}

/**
 * Retry after an error, or go on after Stop: a new run over the conversation as it stands (its
 * last message is the user's, or a tool result the model has not answered yet).
 * @param {RunsContext} ctx @param {number} tabId @returns {Promise<RouterReply>}
 */
export async function retryChat(ctx, tabId) {
  const s = await ctx.session(tabId);
  if (s.running) return fail('BUSY');
  if (s.interrupted) return continueChat(ctx, tabId);
  if (!s.messages.some((m) => m.role === 'user')) return fail('NOTHING_TO_CONTINUE', 'there is nothing to retry in this tab');
  // A run that ended while its model was answering a call left no answer: drop the assistant turn whose calls have no results.
  const last = s.messages[s.messages.length - 1];
  if (last?.role === 'assistant' && last.toolCalls?.length) s.messages.pop();
  await startRun(ctx, s, s.mode === 'plan' ? 'act' : s.mode, s.items.length);
  return { ok: true, data: { started: true } };
}

/** Resume a run the stopped service worker interrupted. @param {RunsContext} ctx @param {number} tabId @returns {Promise<RouterReply>} */
export async function continueChat(ctx, tabId) {
  const s = await ctx.session(tabId);
  if (s.running) return fail('BUSY');
  if (!s.interrupted) return fail('NOTHING_TO_CONTINUE');
  s.prepareContinue();
  // An interrupted plan goes on as Act: its approved steps are in the conversation.
  await startRun(ctx, s, s.mode === 'plan' ? 'act' : s.mode, continuedFrom(s));
  return { ok: true, data: { started: true } };
}

/**
 * The history record of a continued run starts at the message that began it: the part before the
 * stop was never recorded (the worker died with it). @param {Session} s @returns {number} a transcript index
 */
export function continuedFrom(s) {
  let firstItem = s.items.length;
  while (firstItem > 0 && s.items[firstItem - 1].kind !== 'user') firstItem--;
  return Math.max(0, firstItem - 1);
}
