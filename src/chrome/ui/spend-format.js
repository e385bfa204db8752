// A run's spending in words, for the panel's footer, the budget card, the jobs page and the runs
// overview (fillRunCost fills any element, a `[data-run-cost]` cell included): tokens as the
// providers reported them (said "estimated" when some were not), money only when the price is
// known, and the budget beside it.
/** @import { BudgetPause, RunCostView, SpendTally } from '../types/spend' */

/** @typedef {(key: string, subs?: string | string[]) => string} T */

/**
 * An amount of a budget's unit: "1,200 tokens" or "$0.0120".
 * @param {number} v @param {'tokens' | 'usd'} unit @param {T} t @param {string} [locale]
 */
export function formatAmount(v, unit, t, locale) {
  if (unit === 'tokens') return t('usageTokens', [new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(v)]);
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', maximumFractionDigits: v < 1 ? 4 : 2 }).format(v);
}

/**
 * A tally's tokens and money: "1,200 tokens · $0.0120", "1,200 tokens (estimated) · price unknown".
 * @param {SpendTally} tally @param {boolean} priced the model's price is known @param {T} t @param {string} [locale]
 */
export function tallyText(tally, priced, t, locale) {
  const tokens = formatAmount(tally.inputTokens + tally.outputTokens, 'tokens', t, locale);
  const said = tally.estimatedCalls > 0 ? t('spendEstimated', [tokens]) : tokens;
  const money = priced && tally.unpricedCalls === 0 ? formatAmount(tally.costUsd, 'usd', t, locale) : t('spendPriceUnknown');
  return `${said} · ${money}`;
}

/**
 * The footer's line for a run: its tokens and cost, and its budget when one is set.
 * @param {RunCostView} v @param {T} t @param {string} [locale]
 */
export function runCostText(v, t, locale) {
  const spent = tallyText(v.run, v.priced, t, locale);
  const cap = v.caps.run;
  return cap ? t('spendRunOfCap', [spent, formatAmount(cap.amount, cap.unit, t, locale)]) : t('spendRun', [spent]);
}

/**
 * Fills an element with a run's figures, as text and as data attributes a test or the overview can read.
 * @param {HTMLElement} el @param {RunCostView | null} v @param {T} t @param {string} [locale]
 */
export function fillRunCost(el, v, t, locale) {
  if (!v || v.run.calls === 0) {
    el.textContent = '';
    el.hidden = true;
    for (const k of ['tokens', 'input', 'output', 'cost', 'estimated', 'paused']) delete el.dataset[k];
    return;
  }
  el.hidden = false;
  el.textContent = runCostText(v, t, locale);
  el.title = t('spendRunDetail', [String(v.run.inputTokens), String(v.run.outputTokens)]);
  el.dataset.tokens = String(v.run.inputTokens + v.run.outputTokens);
  el.dataset.input = String(v.run.inputTokens);
  el.dataset.output = String(v.run.outputTokens);
  el.dataset.estimated = String(v.run.estimatedCalls > 0);
  el.dataset.paused = String(Boolean(v.paused));
  if (v.priced && v.run.unpricedCalls === 0) el.dataset.cost = String(v.run.costUsd); else delete el.dataset.cost;
}

/**
 * Why a run paused, in a sentence: what was used of which cap, and what the next call would add.
 * @param {BudgetPause} p @param {T} t @param {string} [locale]
 */
export function pauseText(p, t, locale) {
  const subs = [formatAmount(p.used, p.unit, t, locale), formatAmount(p.cap, p.unit, t, locale), formatAmount(p.next, p.unit, t, locale)];
  return p.scope === 'run' ? t('budgetPausedRun', subs) : t('budgetPausedDay', subs);
}
