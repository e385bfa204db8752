// The budget guard before every model call of a run: the call's input tokens are estimated from
// the request as it will be sent, and a call that would pass the run's budget or the day's waits
// for the person, with what was used, the cap and what the call would add. They raise the cap and
// it goes on, or Stop ends it. Without anyone to ask (a caller with no interaction) the run ends
// with the reason. Browser-free: the tallies and caps come in RunOptions.spend.
/** @import { ChatRequest, Provider } from '../../types/core' */
/** @import { BudgetPause } from '../../types/spend' */
/** @import { Run } from './prepare.js' */
import { estimateInputTokens } from '../spend/estimate.js';
import { overCap } from '../spend/caps.js';

/** The run may not make the call: its budget is reached and nobody raised it. */
export class BudgetReachedError extends Error {
  /** @param {BudgetPause} pause */
  constructor(pause) {
    super(budgetSentence(pause));
    this.name = 'BudgetReachedError';
    this.pause = pause;
  }
}

/**
 * Waits while the call would pass a budget; returns when it fits (a cap raised, or none reached).
 * @param {Run} run @param {ChatRequest} req @param {Provider} provider the model the call goes to (its price)
 */
export async function checkSpend(run, req, provider) {
  const spend = run.opts.spend;
  if (!spend) return;
  const next = { inputTokens: estimateInputTokens(req), price: provider.capabilities?.().price };
  for (let pause = overCap(spend.used(), spend.caps(), next); pause; pause = overCap(spend.used(), spend.caps(), next)) {
    const ask = run.opts.interact?.budget;
    if (!ask) throw new BudgetReachedError(pause);
    spend.paused?.(pause);
    /** @type {number | null} */
    let amount;
    try { amount = await ask(pause, run.signal); } finally { spend.paused?.(null); }
    if (amount === null) throw new BudgetReachedError(pause);
    spend.raise(pause.scope, { unit: pause.unit, amount });
  }
}

/** What the pause says, for the model-free places (an error line, a job's reason). @param {BudgetPause} p */
export function budgetSentence(p) {
  const n = (/** @type {number} */ v) => (p.unit === 'usd' ? `$${v.toFixed(v < 1 ? 4 : 2)}` : `${Math.round(v)} tokens`);
  const whose = p.scope === 'run' ? 'This run has used' : 'Today\'s runs have used';
  return `${whose} ${n(p.used)} of ${p.scope === 'run' ? 'its' : 'the daily'} budget of ${n(p.cap)}; the next model call would add about ${n(p.next)}. Raise the cap to go on.`;
}
