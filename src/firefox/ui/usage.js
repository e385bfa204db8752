// The panel's token and cost counter. Cost is shown only when the active provider has prices set.
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
  const tokens = t('usageTokens', [nf.format(total)]);
  if (!pricing) return tokens;
  const cost = (usage.inputTokens * pricing.input + usage.outputTokens * pricing.output) / 1e6;
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', maximumFractionDigits: cost < 1 ? 4 : 2 }).format(cost);
  return `${tokens} · ${money}`;
}

/** @param {Usage} usage */
export function usageTitle(usage) {
  return t('usageDetail', [String(usage.inputTokens), String(usage.outputTokens)]);
}
