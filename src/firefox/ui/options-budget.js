// Settings → Budget: a cap per run and per day, each in tokens or US dollars (empty: none), and
// what today's runs have spent so far.
/** @import { Settings } from '../types/messages' */
/** @import { BudgetCap, BudgetSettings, SpendTally } from '../types/spend' */
import { t } from './i18n.js';
import { tallyText } from './spend-format.js';

/** @param {string} id */
const field = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/**
 * @param {Settings} s @param {(req: import('../types/messages').RouterRequest) => Promise<any>} request
 */
export async function fillBudget(s, request) {
  for (const scope of /** @type {const} */ (['run', 'day'])) {
    const cap = s.budget?.[scope];
    field(`budget${scope === 'run' ? 'Run' : 'Day'}Amount`).value = cap ? String(cap.amount) : '';
    field(`budget${scope === 'run' ? 'Run' : 'Day'}Unit`).value = cap?.unit ?? 'tokens';
  }
  const reply = await request({ type: 'spend.status' });
  const today = document.getElementById('budget-today');
  if (!today || !reply?.ok) return;
  const day = /** @type {SpendTally} */ (reply.data.day);
  // Money for the day is shown only when every call of it had a known price.
  today.textContent = t('budgetToday', [tallyText(day, day.unpricedCalls === 0 && day.calls > 0, t, navigator.language)]);
}

/** @returns {{ ok: true, budget: BudgetSettings } | { ok: false, message: string }} */
export function readBudget() {
  /** @type {BudgetSettings} */
  const budget = {};
  for (const scope of /** @type {const} */ (['run', 'day'])) {
    const name = scope === 'run' ? 'Run' : 'Day';
    const raw = field(`budget${name}Amount`).value.trim();
    if (raw === '') continue;
    const amount = Number(raw);
    if (!Number.isFinite(amount) || amount <= 0) return { ok: false, message: t('errBudget') };
    budget[scope] = /** @type {BudgetCap} */ ({ unit: field(`budget${name}Unit`).value === 'usd' ? 'usd' : 'tokens', amount });
  }
  return { ok: true, budget };
}
