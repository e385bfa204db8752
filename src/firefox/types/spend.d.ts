// What runs spend and what they may spend: the tallies of tokens and money (agent/spend/), the
// budgets in Settings, the pause before a call that would pass one, and the figures the panel and
// the runs overview show for a run.

/** A budget: so many tokens (input and output together) or so many US dollars. */
export interface BudgetCap { unit: 'tokens' | 'usd'; amount: number }

/** Settings → Budget: per run and per day (the day in the browser's local time); absent means no cap. */
export interface BudgetSettings { run?: BudgetCap; day?: BudgetCap }

/** Tokens and money spent by a run or a day, as the providers reported them (or estimated where they did not). */
export interface SpendTally {
  inputTokens: number;
  outputTokens: number;
  /** input tokens served from a prompt cache */
  cachedInputTokens: number;
  /** model calls counted */
  calls: number;
  /** US dollars of the calls whose price is known */
  costUsd: number;
  /** calls whose model has no known price: their money is not in costUsd */
  unpricedCalls: number;
  /** calls whose provider reported no usage: their tokens are Tabwright's estimate */
  estimatedCalls: number;
}

/** Why a run paused before a model call: the budget it would pass, what was used, what the call would add. */
export interface BudgetPause {
  scope: 'run' | 'day';
  unit: 'tokens' | 'usd';
  /** spent so far in the unit (the run's, or the day's) */
  used: number;
  cap: number;
  /** what the next call would add in the unit: its input tokens estimated from the request (and their price) */
  next: number;
}

/** One run's spending as the panel's footer and the runs overview show it. */
export interface RunCostView {
  tabId: number;
  /** this run's calls */
  run: SpendTally;
  /** today's, all runs and jobs together */
  day: SpendTally;
  /** the caps in force for this run (a raised one included) */
  caps: BudgetSettings;
  /** whether the run's main model has a price: money is shown only then */
  priced: boolean;
  running: boolean;
  /** the pause the run is waiting in, if any */
  paused?: BudgetPause;
}

/** What a run is given to keep to its budgets (RunOptions.spend): the tallies, the caps, and raising one. */
export interface SpendControl {
  /** what this run and today have spent so far */
  used(): { run: SpendTally; day: SpendTally };
  /** the caps in force now */
  caps(): BudgetSettings;
  /** the person raised a cap to go on: the run's for this run, the day's for the rest of the day */
  raise(scope: 'run' | 'day', cap: BudgetCap): void;
  /** the run waits in this pause (null: it goes on); for the overview and a job's reason */
  paused?(pause: BudgetPause | null): void;
}
