// The panel's token and cost counter. Cost is shown when the user set prices for the provider or
// the provider's model has a known list price.
/** @import { Usage } from '../types/core' */
import { t } from './i18n.js';

/**
 * @param {Usage} usage
 * @param {{ input: number, output: number } | undefined} pricing USD per million tokens
 * @param {string} [locale]
 */
export function formatUsage(usage, pricing, locale) {
  const nf = new Intl.NumberFormat(locale);
  const total = usage.inputTokens + usage.outputTokens;
  const counted = t('usageTokens', [nf.format(total)]);
  // Tokens a provider did not report are Tabwright's estimate, and said so.
  const tokens = usage.estimated ? t('spendEstimated', [counted]) : counted;
  // Prices the user entered win; otherwise the provider's own price table (providers/models.js)
  // may have priced the calls already.
  const cost = pricing
    ? (usage.inputTokens * pricing.input + usage.outputTokens * pricing.output) / 1e6
    : usage.costUsd;
  if (cost === undefined) return tokens;
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', maximumFractionDigits: cost < 1 ? 4 : 2 }).format(cost);
  return `${tokens} · ${money}`;
}

/** @param {Usage} usage */
export function usageTitle(usage) {
  return t('usageDetail', [String(usage.inputTokens), String(usage.outputTokens)]);
}
