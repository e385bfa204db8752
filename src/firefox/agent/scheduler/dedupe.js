// The same job asked for twice within minutes (a double submit, a model repeating its call) is one job.
/** @import { Job } from '../../types/jobs' */

/**
 * Whether `b`, about to be created, repeats `a`: same kind, prompt, mode and target, created within
 * the window, and the same schedule (a once time within the window counts as the same).
 * @param {Job} a @param {Omit<Job, 'id'>} b @param {number} windowMs
 */
export function isDuplicate(a, b, windowMs) {
  if (a.state === 'cancelled' || b.createdAt - a.createdAt > windowMs) return false;
  if (a.kind !== b.kind || a.prompt !== b.prompt || a.mode !== b.mode) return false;
  if (JSON.stringify(targetKey(a)) !== JSON.stringify(targetKey(b))) return false;
  if (a.schedule.kind === 'once' && b.schedule.kind === 'once') return Math.abs(a.schedule.runAt - b.schedule.runAt) <= windowMs;
  if (a.schedule.kind === 'interval' && b.schedule.kind === 'interval') return a.schedule.minutes === b.schedule.minutes;
  return JSON.stringify(a.schedule) === JSON.stringify(b.schedule);
}

/** What names a job's target: the tab, or the URL (a tab target's remembered page does not count). @param {{ target: Job['target'] }} j */
export function targetKey(j) {
  return j.target.type === 'tab' ? { type: 'tab', tabId: j.target.tabId } : { type: 'url', url: j.target.url };
}
