// What the rule tests build: the policy's memory for a task, a tool call's facts, a held request
// and the step it came from. Each rule is asked on its own, outside the table.
import { createPolicyMemory } from '../../../src/chrome/agent/safety/policy-memory.js';
import { createTaskScope } from '../../../src/chrome/agent/safety/scope.js';
import { createSecretVault } from '../../../src/chrome/agent/safety/secrets.js';

/** @import { PolicyOptions } from '../../../src/chrome/agent/safety/policy-memory.js' */
/** @import { CallFacts, RequestFacts, Verdict } from '../../../src/chrome/agent/safety/rules/rule.js' */
/** @import { HeldRequest } from '../../../src/chrome/types/safety' */

export const PAGE = 'https://shop.test/cart';

/** @param {Partial<PolicyOptions>} [more] @param {string} [userText] */
export function memoryOf(more = {}, userText = 'buy the red shoes on shop.test') {
  return createPolicyMemory({ scope: createTaskScope(PAGE, userText), secrets: createSecretVault(), ...more });
}

/** @param {Partial<CallFacts>} f @returns {CallFacts} */
export function call(f) {
  return { tool: 'click', args: {}, effects: ['acts_on_page'], url: PAGE, target: null, mode: 'act', ...f };
}

/** @param {Partial<HeldRequest>} r @param {Partial<RequestFacts['ctx']>} [ctx] @returns {RequestFacts} */
export function held(r, ctx = {}) {
  return {
    req: { kind: 'request', method: 'POST', url: 'https://shop.test/api/order', type: 'fetch', topLevel: false, ...r },
    ctx: { pageUrl: PAGE, cause: 'click button "Buy" on shop.test', target: null, ...ctx },
  };
}

/** The card of an ask verdict (throws on any other). @param {Verdict | null} v */
export function cardOf(v) {
  if (!v || v.action !== 'ask') throw new Error(`expected a card, got ${JSON.stringify(v)}`);
  return v.request;
}
