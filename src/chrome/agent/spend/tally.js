// Adding up what model calls spent: tokens as the provider reported them, money where the model's
// price is known, and a count of the calls whose price or usage was not known, so what is shown
// can say so. Browser-free.
/** @import { Usage } from '../../types/core' */
/** @import { SpendTally, BudgetCap } from '../../types/spend' */

/** @returns {SpendTally} */
export function emptyTally() {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, calls: 0, costUsd: 0, unpricedCalls: 0, estimatedCalls: 0 };
}

/**
 * The tally with one call's usage added (a new object). A usage without costUsd is a call whose price is unknown.
 * @param {SpendTally} tally @param {Usage} usage @returns {SpendTally}
 */
export function addUsage(tally, usage) {
  return {
    inputTokens: tally.inputTokens + usage.inputTokens,
    outputTokens: tally.outputTokens + usage.outputTokens,
    cachedInputTokens: tally.cachedInputTokens + (usage.cachedInputTokens ?? 0),
    calls: tally.calls + 1,
    costUsd: tally.costUsd + (usage.costUsd ?? 0),
    unpricedCalls: tally.unpricedCalls + (usage.costUsd === undefined ? 1 : 0),
    estimatedCalls: tally.estimatedCalls + (usage.estimated ? 1 : 0),
  };
}

/** What a tally counts against a cap of this unit. @param {SpendTally} tally @param {BudgetCap['unit']} unit */
export function spentIn(tally, unit) {
  return unit === 'usd' ? tally.costUsd : tally.inputTokens + tally.outputTokens;
}

/** A tally read back from storage: anything missing or not a number counts as 0. @param {unknown} v @returns {SpendTally} */
export function tallyFrom(v) {
  const src = /** @type {Record<string, unknown>} */ (v && typeof v === 'object' ? v : {});
  const out = emptyTally();
  for (const k of /** @type {(keyof SpendTally)[]} */ (Object.keys(out))) {
    const n = src[k];
    if (typeof n === 'number' && Number.isFinite(n) && n >= 0) out[k] = n;
  }
  return out;
}
