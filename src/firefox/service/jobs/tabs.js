import { errorOf } from '../../agent/error-codes.js';
// The tab a job's run uses: the job's own tab, or (URL target) a background tab opened for it,
// reused by the job's next run while it stays open and closed when a run ends.
/** @import { BrowserOps } from '../../types/core' */
/** @import { Job, JobRunResult } from '../../types/jobs' */

export const LOAD_TIMEOUT_MS = 30_000;

/**
 * @param {object} deps
 * @param {BrowserOps} deps.ops
 * @param {(tabId: number) => boolean} deps.isBusy
 * @param {() => Promise<boolean>} deps.closeTabs whether a run closes the tab it opened (settings: closeJobTabs)
 * @param {import('../mcp/calls.js').RunPlaces} [deps.places] the tab group a job's tabs go in
 * @param {number} [deps.loadTimeoutMs]
 */
export function createJobTabs({ ops, isBusy, closeTabs, places, loadTimeoutMs = LOAD_TIMEOUT_MS }) {
  /** Tabs opened for URL targets, by job id. @type {Map<string, number>} */
  const openedTabs = new Map();

  /**
   * @param {Job} job
   * @returns {Promise<{ ok: true, tabId: number } | { ok: false, result: JobRunResult }>}
   */
  async function targetTab(job) {
    if (job.target.type === 'tab') {
      if (await ops.getTab(job.target.tabId)) return { ok: true, tabId: job.target.tabId };
      return { ok: false, result: { status: 'failed', permanent: true, error: errorOf('TAB_GONE', 'the tab this job was made for; edit the job to open a URL instead') } };
    }
    const reused = openedTabs.get(job.id);
    if (reused !== undefined && (await ops.getTab(reused)) && !isBusy(reused)) {
      const nav = await ops.navigate(reused, job.target.url);
      if (!nav.ok) return { ok: false, result: { status: 'failed', error: { code: nav.code, message: nav.message }, tabId: reused } };
      return { ok: true, tabId: reused };
    }
    // Opened straight at the URL: Firefox reports the blank page's own load of a new tab first, so
    // a tab opened blank and then navigated could look loaded before the URL had started.
    const created = await browser.tabs.create({ url: job.target.url, active: false });
    const tabId = /** @type {number} */ (created.id);
    openedTabs.set(job.id, tabId);
    // The job's tabs are a group of their own, named for the job, beside whatever the person does.
    void places?.groups.join(`job:${job.id}`, job.title, [tabId]);
    if (!(await tabLoaded(tabId, loadTimeoutMs))) {
      return { ok: false, result: { status: 'failed', error: errorOf('NAVIGATION_TIMEOUT', `${job.target.url}, within ${loadTimeoutMs / 1000} s; check that the page opens, then use Run now`), tabId } };
    }
    return { ok: true, tabId };
  }

  /**
   * A tab the job opened for its URL is closed when the run ends (fifty due jobs leave no fifty
   * tabs), unless the user turned that off or the run waits for them there.
   * @param {Job} job @param {number} tabId @param {JobRunResult | undefined} result
   */
  async function closeOpenedTab(job, tabId, result) {
    if (openedTabs.get(job.id) !== tabId || result?.status === 'needs_user_input') return;
    if (!(await closeTabs().catch(() => true))) return;
    openedTabs.delete(job.id);
    await browser.tabs.remove(tabId).catch(() => { /* closed by the user already */ });
  }

  return { targetTab, closeOpenedTab };
}

/** Waits until a new tab has loaded its page (not the initial about:blank). @param {number} tabId @param {number} timeoutMs */
export async function tabLoaded(tabId, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const tab = await browser.tabs.get(tabId).catch(() => null);
    if (!tab) return false;
    if (tab.status === 'complete' && tab.url && tab.url !== 'about:blank') return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
