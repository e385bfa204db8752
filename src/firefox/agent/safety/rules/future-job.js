// A job that runs later, unattended (schedule_task, schedule_resume): always asked, at high
// severity when it repeats. The card says what will run, where, when and in which mode.
/** @import { ConfirmRequest } from '../../../types/safety' */
/** @import { PolicyMemory } from '../policy-memory.js' */
/** @import { CallFacts, CallRule } from './rule.js' */
import { siteLabel } from '../scope.js';
import { maskDetail } from './cards.js';
import { ask, has } from './rule.js';

/** @type {CallRule} */
export const futureJob = {
  name: 'future_job',
  appliesTo: (f) => has(f, 'creates_jobs'),
  decide: (f, m) => ask(jobRequest(m, f)),
};

/** When a job runs, in words. @param {Record<string, any>} a schedule_task's arguments */
function recurrence(a) {
  if (a.schedule === 'interval') return `every ${a.every_minutes} minutes`;
  if (a.schedule === 'calendar') return `${a.repeat}${a.time ? ` at ${a.time}` : ''}${a.cron ? ` (${a.cron})` : ''}${a.days ? ` on days ${a.days}` : ''}${a.day_of_month ? ` on day ${a.day_of_month}` : ''}`;
  return a.run_at ? `once, at ${a.run_at}` : a.after_seconds !== undefined ? `once, in ${a.after_seconds} s` : 'once';
}

/** @param {PolicyMemory} m @param {CallFacts} f @returns {ConfirmRequest} */
function jobRequest(m, f) {
  const a = f.args;
  const resume = f.tool === 'schedule_resume';
  const thisTab = resume || a.target !== 'url';
  const details = [
    { label: 'title', value: String(resume ? a.reason : a.title ?? '') },
    { label: 'prompt', value: String(resume ? a.resume_instruction : a.prompt ?? '') },
    { label: 'runs on', value: thisTab ? `this tab (${siteLabel(f.url)})` : String(a.url ?? '') },
    { label: 'when', value: resume ? (a.run_at ? `at ${a.run_at}` : `in ${a.after_seconds} s`) : recurrence(a) },
    { label: 'mode', value: resume ? 'act' : String(a.mode ?? 'act') },
  ].map((d) => maskDetail(m, d));
  return {
    category: 'job', rule: 'future_job', severity: a.schedule && a.schedule !== 'once' ? 'high' : 'normal',
    action: resume ? 'Continue this task later, unattended' : `Create a ${a.schedule === 'once' || !a.schedule ? 'one-time' : 'recurring'} job that runs unattended`,
    site: thisTab ? siteLabel(f.url) : siteLabel(String(a.url ?? '')), details,
    reason: 'The agent wants to schedule work that will run later without you watching.',
  };
}
