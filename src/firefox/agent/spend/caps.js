// The cap decision: before a model call, would it pass the run's budget or the day's? The call's
// input tokens are estimated from the request (its output is not known until it is written, so a
// run may end a call a little past its cap, never start one that its input alone would pass).
// Browser-free.
/** @import { SpendTally, BudgetSettings, BudgetPause, BudgetCap } from '../../types/spend' */
/** @import { Capabilities } from '../../types/core' */
import { spentIn } from './tally.js';

/**
 * What the next call would add in a unit: its input tokens, or their price. A model without a
 * known price adds no known money, so a money budget cannot stop its calls (Settings says so).
 * @param {number} inputTokens @param {BudgetCap['unit']} unit @param {Capabilities['price']} price
 */
export function nextAmount(inputTokens, unit, price) {
  if (unit === 'tokens') return inputTokens;
  return price ? (inputTokens * price.input) / 1_000_000 : 0;
}

/**
 * The budget the next call would pass, the run's before the day's, or null when it fits both.
 * @param {{ run: SpendTally, day: SpendTally }} used
 * @param {BudgetSettings} caps
 * @param {{ inputTokens: number, price?: Capabilities['price'] }} next
 * @returns {BudgetPause | null}
 */
export function overCap(used, caps, next) {
  for (const scope of /** @type {const} */ (['run', 'day'])) {
    const cap = caps[scope];
    if (!cap || !(cap.amount >= 0)) continue;
    const spent = spentIn(used[scope], cap.unit);
    const add = nextAmount(next.inputTokens, cap.unit, next.price);
    if (spent + add > cap.amount) return { scope, unit: cap.unit, used: spent, cap: cap.amount, next: add };
  }
  return null;
}

/**
 * The raised cap the card offers first: room for the next call and about as much again as was
 * spent, rounded up (a thousand tokens, a cent). The person may type any other.
 * @param {BudgetPause} p @returns {number}
 */
export function suggestedCap(p) {
  const want = Math.max(p.cap * 2, p.used + p.next * 3);
  return p.unit === 'tokens' ? Math.ceil(want / 1_000) * 1_000 : Math.ceil(want * 100) / 100;
}

/**
 * Whether a raised cap lets the paused call through: anything less would pause again at once.
 * @param {BudgetPause} p @param {number} amount
 */
export function capLetsThrough(p, amount) {
  return Number.isFinite(amount) && amount >= p.used + p.next && amount > p.cap;
}
