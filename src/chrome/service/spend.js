// What runs spend and may spend: each run's tally of tokens and money from its metered providers,
// today's tally over every run and job (storage.local, so a restarted background keeps counting;
// it starts over at local midnight), the budgets from Settings and the caps the person raised. A
// run gets its providers metered and a SpendControl (agent/run/spend-check.js pauses before a call
// that would pass a cap); panels and the runs overview read a run's figures as a RunCostView.
/** @import { Usage } from '../types/core' */
/** @import { BudgetCap, BudgetPause, BudgetSettings, RunCostView, SpendControl, SpendTally } from '../types/spend' */
/** @import { RunOptions } from '../agent/loop.js' */
import { addUsage, emptyTally, tallyFrom } from '../agent/spend/tally.js';
import { meterProvider } from '../agent/spend/metered.js';
import { localDay } from '../agent/spend/day.js';

const STORAGE_KEY = 'spendDay';

/**
 * @typedef {{ day: string, tally: SpendTally, raised?: BudgetCap }} DayLedger
 * @typedef {{ run: SpendTally, caps: BudgetSettings, raisedRun?: BudgetCap, priced: boolean, running: boolean, paused?: BudgetPause }} RunSpend
 */

/**
 * @param {object} deps
 * @param {{ get(key: string): Promise<Record<string, any>>, set(items: Record<string, any>): Promise<void> }} deps.area storage.local
 * @param {() => number} [deps.now]
 * @param {(tabId: number, view: RunCostView) => void} [deps.onChange] a run's figures changed (pushed to its panels)
 */
export function createSpend({ area, now = Date.now, onChange = () => {} }) {
  /** @type {DayLedger | null} */
  let ledger = null;
  /** @type {Promise<void> | null} */
  let loading = null;
  /** Writes one after another, so an older snapshot never lands after a newer one. */
  let writing = Promise.resolve();
  /** @type {Map<number, RunSpend>} */
  const runs = new Map();

  function load() {
    return (loading ??= area.get(STORAGE_KEY).then((got) => {
      const v = got?.[STORAGE_KEY];
      ledger = v && typeof v.day === 'string' ? { day: v.day, tally: tallyFrom(v.tally), ...(validCap(v.raised) ? { raised: v.raised } : {}) } : { day: localDay(now()), tally: emptyTally() };
    }, () => { ledger = { day: localDay(now()), tally: emptyTally() }; }));
  }

  /** Today's ledger; a new local day starts an empty one (and drops a cap raised yesterday). @returns {DayLedger} */
  function today() {
    const day = localDay(now());
    if (!ledger || ledger.day !== day) ledger = { day, tally: emptyTally() };
    return ledger;
  }

  function save() {
    const snapshot = { ...today() };
    writing = writing.then(() => area.set({ [STORAGE_KEY]: snapshot })).catch(() => { /* storage full or gone: today's count lives on in memory */ });
  }

  /** The caps in force for a run: its own (or the one raised for it), and today's (or the one raised today). @param {RunSpend} r @returns {BudgetSettings} */
  function capsOf(r) {
    const raised = today().raised;
    const day = r.caps.day && raised && raised.unit === r.caps.day.unit && raised.amount > r.caps.day.amount ? raised : r.caps.day;
    return { ...(r.raisedRun ?? r.caps.run ? { run: r.raisedRun ?? r.caps.run } : {}), ...(day ? { day } : {}) };
  }

  /** @param {number} tabId @returns {RunCostView | null} */
  function view(tabId) {
    const r = runs.get(tabId);
    if (!r) return null;
    return { tabId, run: { ...r.run }, day: { ...today().tally }, caps: capsOf(r), priced: r.priced, running: r.running, ...(r.paused ? { paused: r.paused } : {}) };
  }

  /** @param {number} tabId */
  function changed(tabId) {
    const v = view(tabId);
    if (v) onChange(tabId, v);
  }

  return {
    /**
     * A run starts in a tab: its providers are metered, its options get the SpendControl.
     * @param {number} tabId @param {BudgetSettings | undefined} budget Settings → Budget
     * @param {RunOptions} options changed in place
     */
    async begin(tabId, budget, options) {
      await load();
      /** @type {RunSpend} */
      const r = { run: emptyTally(), caps: budget ?? {}, priced: Boolean(options.provider.capabilities?.().price), running: true };
      runs.set(tabId, r);
      /** @param {Usage} usage */
      const record = (usage) => {
        r.run = addUsage(r.run, usage);
        const d = today();
        d.tally = addUsage(d.tally, usage);
        save();
        changed(tabId);
      };
      const meter = (/** @type {RunOptions['provider'] | undefined} */ p) => (p ? meterProvider(p, record) : p);
      options.provider = meterProvider(options.provider, record);
      options.executorProvider = meter(options.executorProvider);
      options.plannerProvider = meter(options.plannerProvider);
      options.visionProvider = meter(options.visionProvider);
      /** @type {SpendControl} */
      const control = {
        used: () => ({ run: r.run, day: today().tally }),
        caps: () => capsOf(r),
        raise(scope, cap) {
          if (scope === 'run') r.raisedRun = cap;
          else { today().raised = cap; save(); }
          changed(tabId);
        },
        paused(pause) {
          if (pause) r.paused = pause; else delete r.paused;
          changed(tabId);
        },
      };
      options.spend = control;
      changed(tabId);
    },
    /** The run in a tab ended: its figures stay until the next run there. @param {number} tabId */
    end(tabId) {
      const r = runs.get(tabId);
      if (!r) return;
      r.running = false;
      delete r.paused;
      changed(tabId);
    },
    /** New chat or a closed tab: the tab's run figures go. @param {number} tabId */
    forget(tabId) { runs.delete(tabId); },
    view,
    /** Every tab's run figures and today's tally, for the runs overview. */
    async status() {
      await load();
      return { runs: [...runs.keys()].map((id) => /** @type {RunCostView} */ (view(id))), day: { ...today().tally }, date: today().day };
    },
  };
}

/** @param {unknown} v @returns {v is BudgetCap} */
function validCap(v) {
  const c = /** @type {BudgetCap} */ (v);
  return Boolean(c) && (c.unit === 'tokens' || c.unit === 'usd') && typeof c.amount === 'number' && c.amount >= 0;
}

/** @typedef {ReturnType<typeof createSpend>} Spend */
