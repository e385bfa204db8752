// The person hears about a job's run: a notification when it completed, failed or needs them, and
// a click on one opens the jobs page at the job, or brings the tab that waits for them forward.
/** @import { Job, JobRun } from '../../types/jobs' */
import { needKey } from '../../agent/handoff/need.js';

/**
 * @param {Job} job @param {JobRun} run
 * @param {number | undefined} tabId the tab the job's run is in, if it still runs
 */
export function notifyJob(job, run, tabId) {
  if (!browser.notifications) return;
  // The run waits for the person in its tab (a sign-in, a code, a challenge): say what, and bring that tab forward on click.
  if (run.status === 'needs_user_input' && job.waitingFor?.kind && job.waitingFor.site && tabId !== undefined) {
    const m = /** @type {import('../../types/jobs').JobWaitingFor} */ (job.waitingFor);
    void browser.notifications.create(`tabwright-turn:${tabId}:${run.finishedAt}`, {
      type: 'basic',
      iconUrl: browser.runtime.getURL('icons/tabwright-128.png'),
      title: browser.i18n.getMessage('jobNotifyNeedsUser', [job.title]) || job.title,
      message: browser.i18n.getMessage(needKey(m), [m.site]) || m.site,
    }).catch(() => {});
    return;
  }
  const key = run.status === 'completed' ? 'jobNotifyCompleted' : run.status === 'needs_user_input' ? 'jobNotifyNeedsUser' : 'jobNotifyFailed';
  const detail = run.status === 'completed' ? (run.text ?? '') : (run.text ?? run.error?.message ?? '');
  void browser.notifications.create(`tabwright-job:${job.id}:${run.finishedAt}`, {
    type: 'basic',
    iconUrl: browser.runtime.getURL('icons/tabwright-128.png'),
    title: browser.i18n.getMessage(key, [job.title]) || job.title,
    message: detail.slice(0, 300),
  }).catch(() => { /* notifications blocked by the user or the system: the jobs page still shows the result */ });
}

/** A click on one of Tabwright's notifications; others are not ours. @param {string} id */
export function onNotificationClicked(id) {
  // "Your turn" (a sign-in, a challenge): the tab that waits comes forward.
  const turn = /^tabwright-turn:(\d+):/.exec(id);
  if (turn) { void focusTab(Number(turn[1])); void browser.notifications.clear(id); return; }
  if (!id.startsWith('tabwright-job:')) return;
  void browser.tabs.create({ url: browser.runtime.getURL(`ui/jobs.html#${id.split(':')[1]}`) });
  void browser.notifications.clear(id);
}

/** @param {number} tabId */
async function focusTab(tabId) {
  const tab = await browser.tabs.update(tabId, { active: true }).catch(() => null);
  if (tab?.windowId !== undefined) await browser.windows.update(tab.windowId, { focused: true }).catch(() => {});
}
