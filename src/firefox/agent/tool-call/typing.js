// What the agent types: a person's secret by its name ("[secret 1]") only into a secret field of
// its site, and into a secret field only what the person gave (agent/handoff/person-secrets.js).
// What goes into a secret field is a secret from now on (masked everywhere after this call);
// anything else typed is remembered so it cannot leave for another site unasked.
/** @import { ToolResult } from '../../types/core' */
/** @import { CallFacts } from '../safety/policy.js' */
/** @import { CallEnv } from '../tool-call.js' */
import { textOf } from '../compaction.js';
import { resolveSecretTyping } from '../handoff/person-secrets.js';
import { fail } from '../error-codes.js';
import { originOf } from '../safety/scope.js';

/** @typedef {{ ok: true, args: Record<string, any> } | { ok: false, result: ToolResult }} Typing */

/** The arguments the tool runs with, or why it does not run. @param {CallFacts} facts @param {CallEnv} env @returns {Typing} */
export function typedArgs(facts, env) {
  const { args, effects, target, url } = facts;
  const origin = originOf(url) ?? '';
  const given = env.personSecrets ? secretTyping(facts, env) : { ok: /** @type {const} */ (true), args };
  if (!given.ok) {
    // What the agent wanted to type into a secret field is masked from now on, typed or not.
    if (target?.secretField) env.secrets?.add([String(args.text ?? args.value ?? '')], origin);
    return given;
  }
  const typed = effects.includes('touches_secrets') ? String(given.args.text ?? given.args.value ?? '') : '';
  if (typed && target?.secretField) env.secrets?.add([typed], origin);
  else if (typed) env.guard.policy.remember(typed);
  return given;
}

/** A person's secret by its name, resolved where it may go. @param {CallFacts} facts @param {CallEnv} env @returns {Typing} */
function secretTyping(facts, env) {
  const { args, effects, target, url } = facts;
  const key = typeof args.text === 'string' ? 'text' : typeof args.value === 'string' ? 'value' : null;
  if (!effects.includes('touches_secrets') || !key) return { ok: true, args };
  const said = env.messages.filter((m) => m.role === 'user').map((m) => textOf(m.content)).join('\n');
  const r = resolveSecretTyping(args[key], { secretField: target?.secretField === true, origin: originOf(url) ?? '', given: env.personSecrets ?? [], said });
  return r.ok ? { ok: true, args: { ...args, [key]: r.text } } : { ok: false, result: fail(r.code, r.message) };
}
