// Where runs side by side meet, wired once for the router: the slots background work waits for
// (run-slots.js), each run's tab group (run-groups.js) and the overview of them all (runs-overview.js),
// kept current from the sessions' changes and the tabs the runs open.
/** @import { Platform } from '../types/platform' */
/** @import { Session } from './session.js' */
import { createRunSlots, DEFAULT_MAX_RUNS } from './run-slots.js';
import { createRunGroups } from './run-groups.js';
import { createRunsOverview } from './runs-overview.js';

/**
 * @param {{ platform: Platform, sessions: Map<number, Session>, maxRuns: () => Promise<number | undefined>, getTab: (tabId: number) => Promise<{ url: string, title: string } | null>, costOf?: (tabId: number) => import('../types/spend').RunCostView | null }} deps
 */
export function createRunPlaces({ platform, sessions, maxRuns, getTab, costOf }) {
  const slots = createRunSlots({
    limit: () => maxRuns().then((n) => n ?? DEFAULT_MAX_RUNS),
    active: () => [...sessions.values()].filter((x) => x.running).length,
    onChange: () => overview.changed(),
  });
  const groups = createRunGroups({ platform, onChange: () => overview.changed() });
  const overview = createRunsOverview({ sessions, queued: slots.queued, groupOf: groups.of, getTab, costOf });
  /** Whether each session's run was active when last seen: a run that ends frees a slot. @type {WeakMap<Session, boolean>} */
  const wasRunning = new WeakMap();
  const inRun = (/** @type {number} */ id) => sessions.get(id)?.running === true;

  /** @param {number} opener @param {number} tabId */
  function opened(opener, tabId) {
    if (!inRun(opener) && !groups.of(opener)?.tabs.some(inRun)) return;
    void groups.joinOpener(opener, tabId, (id) => (inRun(id) ? sessions.get(id)?.task || null : null));
  }

  // A tab a run's tab opens (a target=_blank link the agent clicked; the tabs tool says so itself,
  // since Chrome gives tabs an extension creates no opener in this event) joins the run's group.
  browser.tabs.onCreated.addListener((/** @type {{ id?: number, openerTabId?: number }} */ t) => {
    if (t.id !== undefined && t.openerTabId !== undefined) opened(t.openerTabId, t.id);
  });
  browser.tabs.onRemoved.addListener((/** @type {number} */ tabId) => { groups.forget(tabId); });
  // A raised limit lets queued work start at once.
  browser.storage.onChanged.addListener((/** @type {Record<string, unknown>} */ changes, /** @type {string} */ area) => { if (area === 'local' && changes.settings) slots.recheck(); });

  return {
    slots,
    groups,
    overview,
    /** A session changed (its state, a card): the overview hears it, and a run that ended frees its slot. @param {Session} s */
    sessionChanged(s) {
      overview.changed();
      if (wasRunning.get(s) === s.running) return;
      wasRunning.set(s, s.running);
      if (!s.running) slots.recheck();
    },
    /** A tab opened from a tab a run acts in (or from one of its group) joins that run's group. */
    opened,
  };
}
