// The scheduler's clock in the browser: its jobs in storage.local, and one browser.alarms alarm
// that wakes it (the events that tick it are in service/jobs.js).
/** @import { Job } from '../../types/jobs' */

export const JOBS_ALARM = 'tabwright-jobs';
const STORAGE_KEY = 'jobs';

/** The jobs in storage.local, for the scheduler's store. */
export const jobStorage = {
  /** @returns {Promise<Job[]>} */
  async load() {
    const { [STORAGE_KEY]: jobs } = await browser.storage.local.get(STORAGE_KEY);
    return Array.isArray(jobs) ? jobs : [];
  },
  /** @param {Job[]} jobs */
  async save(jobs) { await browser.storage.local.set({ [STORAGE_KEY]: jobs }); },
};

/** Arms the alarm for `at`, or clears it when nothing is due. @param {number | null} at */
export function wakeAt(at) {
  if (at === null) { void browser.alarms.clear(JOBS_ALARM); return; }
  // A time already passed fires as soon as the browser allows (Chrome: 30 s for packed extensions).
  void browser.alarms.create(JOBS_ALARM, { when: Math.max(at, Date.now() + 200) });
}
