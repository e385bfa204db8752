// What the jobs page, the panel and the schedule tools may ask of the scheduler.
/** @import { BrowserOps } from '../../types/core' */
/** @import { JobTarget, JobsAccess, JobsRequest } from '../../types/jobs' */
/** @import { RouterReply } from '../../types/messages' */
/** @import { Scheduler } from '../../agent/scheduler/scheduler.js' */

/**
 * The jobs.* requests (service/handlers/jobs.js), answered by the scheduler.
 * @param {Scheduler} scheduler @param {BrowserOps} ops @param {string} timeZone @param {JobsRequest} msg
 * @returns {Promise<RouterReply>}
 */
export async function handleJobsRequest(scheduler, ops, timeZone, msg) {
  switch (msg.type) {
    case 'jobs.list': return { ok: true, data: { jobs: await scheduler.list(), timeZone, now: Date.now() } };
    case 'jobs.create': return scheduler.create({ ...msg.job, target: await withTabDetails(ops, msg.job?.target) });
    case 'jobs.update': {
      const patch = msg.patch ?? {};
      return scheduler.update(msg.id, patch.target ? { ...patch, target: await withTabDetails(ops, patch.target) } : patch);
    }
    case 'jobs.pause': return scheduler.pause(msg.id);
    case 'jobs.resume': return scheduler.resume(msg.id);
    case 'jobs.runNow': return scheduler.runNow(msg.id);
    case 'jobs.delete': return scheduler.remove(msg.id);
  }
}

/**
 * What the schedule tools may do: create a job, in the user's zone.
 * @param {Scheduler} scheduler @param {BrowserOps} ops @param {string} timeZone @returns {JobsAccess}
 */
export function jobsAccess(scheduler, ops, timeZone) {
  return {
    timeZone,
    async create(input) {
      const r = await scheduler.create({ ...input, target: await withTabDetails(ops, input.target) });
      return r.ok ? r : { ok: false, code: r.code, message: r.message };
    },
  };
}

/** A tab target remembers the tab's page, so the jobs page can say which tab. @param {BrowserOps} ops @param {JobTarget} target */
export async function withTabDetails(ops, target) {
  if (target?.type !== 'tab' || target.url) return target;
  const tab = await ops.getTab(target.tabId);
  return tab ? { ...target, url: tab.url, title: tab.title } : target;
}
