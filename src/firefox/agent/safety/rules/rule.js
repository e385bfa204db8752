// A rule of the safety policy: its name, what it applies to, and what it decides. The policy runs a
// table of rules in order (index.js): the first rule that applies and decides gives the verdict;
// a rule that applies but finds nothing against the step (null) lets the next one look.
/** @import { ConfirmRequest, Effect, HeldRequest } from '../../../types/safety' */
/** @import { Mode } from '../../../types/core' */
/** @import { ErrorCode } from '../../error-codes.js' */
/** @import { PolicyMemory } from '../policy-memory.js' */
import { say } from '../../error-codes.js';

/**
 * @typedef {object} CallFacts
 * @property {string} tool
 * @property {Record<string, any>} args
 * @property {readonly Effect[]} effects what this call does (the tool's declaration for these arguments)
 * @property {string} url the acting tab's URL
 * @property {{ role: string, name: string, secretField?: boolean } | null} target the element acted on, when known
 * @property {Mode} mode the run's mode for this call (Plan mode's steps run as act)
 * @property {string | null} [dest] where the call goes, when it names a place (Tool.destination: a URL, or the tab it switches to)
 */
/**
 * @typedef {{ action: 'allow' } | { action: 'ask', request: ConfirmRequest } | { action: 'refuse', code: ErrorCode, message: string }} Verdict
 */
/** The step a held request came from. @typedef {{ pageUrl: string, cause: string, target?: { role: string, name: string } | null }} StepContext */
/** A request the page sent during a step, with that step. @typedef {{ req: HeldRequest, ctx: StepContext }} RequestFacts */

/**
 * @template F
 * @typedef {object} Rule
 * @property {string} name
 * @property {(facts: F, m: PolicyMemory) => boolean} appliesTo
 * @property {(facts: F, m: PolicyMemory) => Verdict | null} decide null: nothing against it here
 */
/** @typedef {Rule<CallFacts>} CallRule */
/** @typedef {Rule<RequestFacts>} RequestRule */

/**
 * The verdict of the first rule that applies and decides; allowed when none does.
 * @template F @param {readonly Rule<F>[]} rules @param {F} facts @param {PolicyMemory} m @returns {Verdict}
 */
export function runRules(rules, facts, m) {
  for (const rule of rules) {
    if (!rule.appliesTo(facts, m)) continue;
    const verdict = rule.decide(facts, m);
    if (verdict) return verdict;
  }
  return allow();
}

/** @returns {Verdict} */
export function allow() { return { action: 'allow' }; }

/** The catalog's sentence for the code, then the specifics. @param {ErrorCode} code @param {string} [detail] @returns {Verdict} */
export function refuse(code, detail) { return { action: 'refuse', code, message: say(code, detail) }; }

/** @param {ConfirmRequest} request @returns {Verdict} */
export function ask(request) { return { action: 'ask', request }; }

/** Does the call declare this effect? @param {CallFacts} f @param {Effect} effect */
export function has(f, effect) { return f.effects.includes(effect); }

/** Where a call goes: the place its tool names, else its url argument. @param {CallFacts} f */
export function destOf(f) { return f.dest ?? (typeof f.args.url === 'string' ? f.args.url : ''); }
