// The policy's verdict on a call before it runs: refused, allowed, or asked on a card. A step the
// person allowed on its own site's card (site_confirm, sensitive_site) need not ask again for what
// it sends there: one reply, one card.
/** @import { ToolResult } from '../../types/core' */
/** @import { CallFacts } from '../safety/policy.js' */
/** @import { CallEnv } from '../tool-call.js' */
import { raceAbort } from '../abort.js';
import { fail } from '../error-codes.js';
import { originOf } from '../safety/scope.js';

/**
 * @param {CallFacts} facts @param {CallEnv} env
 * @returns {Promise<{ ok: true, approvedOrigin?: string } | { ok: false, result: ToolResult }>}
 */
export async function gateCall(facts, env) {
  const verdict = env.guard.policy.checkCall(facts);
  if (verdict.action === 'refuse') return { ok: false, result: fail(verdict.code, verdict.message) };
  if (verdict.action === 'allow') return { ok: true };
  const answer = await raceAbort(env.guard.confirm(verdict.request), env.signal);
  if (answer === 'no') {
    return { ok: false, result: fail('USER_DECLINED', `${verdict.request.action} on ${verdict.request.site}; do not try it again another way: finish, or ask the user what they want instead`) };
  }
  const ownSite = verdict.request.rule === 'site_confirm' || verdict.request.rule === 'sensitive_site';
  return { ok: true, approvedOrigin: ownSite ? originOf(facts.url) ?? undefined : undefined };
}
