// The scheduler's browser glue: one browser.alarms alarm wakes the core (agent/scheduler/), jobs live
// in storage.local, a job's prompt runs in its tab through the router's beginRun, and finished runs
// raise a notification. browser.alarms is the same API in Chrome and Firefox, so this is shared code.
// The parts, in jobs/: the alarm and the storage (wake.js), a job's tab (tabs.js), its run
// (run-job.js), the notifications (notify.js) and the requests (requests.js).
/** @import { BrowserOps, Mode, RunOutcome } from '../types/core' */
/** @import { Job, JobsRequest } from '../types/jobs' */
/** @import { RouterReply } from '../types/messages' */
/** @import { Scheduler } from '../agent/scheduler/scheduler.js' */
import { createScheduler } from '../agent/scheduler/scheduler.js';
import { JOBS_ALARM, jobStorage, wakeAt } from './jobs/wake.js';
import { createJobTabs } from './jobs/tabs.js';
import { createJobRunner } from './jobs/run-job.js';
import { notifyJob, onNotificationClicked } from './jobs/notify.js';
import { handleJobsRequest, jobsAccess } from './jobs/requests.js';

export { JOBS_ALARM } from './jobs/wake.js';
export { withVerdict } from './jobs/run-job.js';

/**
 * @typedef {(tabId: number, text: string, mode: Mode, opts?: { fresh?: boolean, origin?: import('../types/messages').RunOrigin }) =>
 *   Promise<{ ok: true, outcome: Promise<RunOutcome>, stop: () => void } | { ok: false, code: string, message: string }>} BeginRun
 */

/**
 * @param {{ beginRun: BeginRun, ops: BrowserOps, isBusy: (tabId: number) => boolean, closeTabs?: () => Promise<boolean>, beginWorkflow?: (tabId: number, job: Job) => ReturnType<BeginRun>, controls?: () => Promise<import('../agent/scheduler/scheduler.js').JobControls>, places?: import('./mcp/calls.js').RunPlaces }} deps
 *   closeTabs: whether a run closes the tab it opened for a URL when it ends (settings: closeJobTabs);
 *   beginWorkflow: replays a "workflow" job's workflow in its tab (service/workflows.js);
 *   controls: pause all, ask before every run, the scheduler switched off (settings and the organization's policy);
 *   places: the slots a due job waits for (Settings → runs at once) and the tab group its tabs go in
 */
export function startJobs({ beginRun, ops, isBusy, closeTabs = async () => true, beginWorkflow, controls, places }) {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const tabs = createJobTabs({ ops, isBusy, closeTabs, places });
  const runner = createJobRunner({ beginRun, beginWorkflow, isBusy, places, tabs });
  const scheduler = createScheduler({
    clock: { now: () => Date.now() },
    store: jobStorage,
    runJob: runner.runJob,
    wake: wakeAt,
    notify: (job, run) => notifyJob(job, run, runner.tabOf(job.id)),
    timeZone,
    controls,
  });
  listenForJobs(scheduler);
  // Recover runs a restart cut short and run what came due while the browser was closed.
  void scheduler.start();

  return {
    scheduler,
    /** @param {JobsRequest} msg @returns {Promise<RouterReply>} */
    handle: (msg) => handleJobsRequest(scheduler, ops, timeZone, msg),
    access: jobsAccess(scheduler, ops, timeZone),
    /**
     * The confirmation-gate hook: call with true when the run in this tab stops to wait for
     * the user, and with false when it goes on. A scheduled run then shows as needs_user_input and
     * the user gets a notification. Runs not started by a job are ignored.
     * @param {number} tabId @param {boolean} waiting @param {import('../types/jobs').JobWaitReason} [why] what it waits for, when it says (a budget reached, what a site needs of the person)
     */
    setWaitingForUser(tabId, waiting, why) { runner.setWaiting(tabId, waiting, why); },
    /** The job whose run is in this tab, if any. @param {number} tabId */
    jobIn(tabId) { return runner.jobIn(tabId); },
  };
}

/**
 * The browser events that wake the scheduler, registered synchronously at start-up: an MV3 worker
 * woken by the alarm must have its listener in place.
 * @param {Scheduler} scheduler
 */
function listenForJobs(scheduler) {
  // Pause all lifted, asking first turned off, a policy changed: due jobs are looked at again now.
  browser.storage.onChanged.addListener((/** @type {Record<string, unknown>} */ changes, /** @type {string} */ area) => {
    if (area === 'managed' || (area === 'local' && changes.settings)) void scheduler.tick();
  });
  browser.alarms.onAlarm.addListener((/** @type {{ name: string }} */ alarm) => {
    if (alarm.name === JOBS_ALARM) void scheduler.tick();
  });
  // A listener here makes Chrome start the worker when the browser starts, so runs missed while it was
  // closed run then (Chrome may drop alarms across a browser restart).
  browser.runtime.onStartup.addListener(() => { void scheduler.tick(); });
  browser.notifications?.onClicked.addListener(onNotificationClicked);
  // Firefox's background page unloads on quit (and on reload); its runs are cut before it goes.
  // beforeunload comes first, before the page's fetches are aborted. Chrome's worker has no such event: it just stops.
  globalThis.addEventListener?.('beforeunload', () => scheduler.freeze());
  globalThis.addEventListener?.('pagehide', () => scheduler.freeze());
}
