// schedule_task and schedule_resume: Act mode only, checked arguments, and jobs created through the
// real scheduler core (fake clock, in-memory store).
import { expect } from 'chai';
import { scheduleTask, scheduleResume } from '../../src/chrome/agent/tools/schedule.js';
import { toolsForMode } from '../../src/chrome/agent/tools/index.js';
import { createScheduler } from '../../src/chrome/agent/scheduler/scheduler.js';
import { fakeBrowser } from './fake-browser.js';

/** @import { Job, JobsAccess } from '../../src/chrome/types/jobs' */
/** @import { ToolContext } from '../../src/chrome/types/core' */

const T0 = Date.parse('2026-05-01T10:00:00Z');

function setup() {
  /** @type {Job[]} */
  let saved = [];
  const scheduler = createScheduler({
    clock: { now: () => T0 },
    store: { async load() { return saved; }, async save(j) { saved = j; } },
    runJob: () => new Promise(() => {}),
    wake: () => {},
    timeZone: 'Europe/Berlin',
  });
  /** @type {JobsAccess} */
  const jobs = { timeZone: 'Europe/Berlin', create: (input) => scheduler.create(input) };
  /** @type {ToolContext} */
  const ctx = { tabId: 5, browser: fakeBrowser(), jobs };
  return { scheduler, ctx };
}

describe('schedule tools', () => {
  it('are offered in Act mode only, and their descriptions say to use them only when the user asks', () => {
    expect(toolsForMode('act').map((t) => t.name)).to.include.members(['schedule_task', 'schedule_resume']);
    expect(toolsForMode('ask').map((t) => t.name)).to.not.include.members(['schedule_task']);
    expect(toolsForMode('ask').map((t) => t.name)).to.not.include('schedule_resume');
    for (const t of [scheduleTask, scheduleResume]) expect(t.description).to.match(/ONLY when the user/);
  });

  it('schedule_task creates a weekday job in the user zone for the current tab, and a repeat call is deduplicated', async () => {
    const { scheduler, ctx } = setup();
    const args = { title: 'Morning check', prompt: 'Open the dashboard and report new orders.', schedule: 'calendar', repeat: 'weekdays', time: '08:30' };
    const r = await scheduleTask.run(args, ctx);
    expect(r.ok).to.equal(true);
    expect(r.ok && r.data).to.match(/^Scheduled: "Morning check" \(id \S+\), next run 4 May 2026, 08:30 \(Europe\/Berlin\)/);
    const [job] = await scheduler.list();
    expect(job).to.deep.include({ kind: 'task', mode: 'act', target: { type: 'tab', tabId: 5 }, state: 'pending' });
    expect(job.schedule).to.deep.equal({ kind: 'calendar', repeat: 'weekdays', time: '08:30', timeZone: 'Europe/Berlin' });
    const again = await scheduleTask.run(args, ctx);
    expect(again.ok && again.data).to.match(/^This job already exists/);
    expect(await scheduler.list()).to.have.length(1);
  });

  it('schedule_task with a URL target and an interval; bad input comes back as a fixable error', async () => {
    const { scheduler, ctx } = setup();
    const ok = await scheduleTask.run({ title: 'Prices', prompt: 'Read the price list.', schedule: 'interval', every_minutes: 120, target: 'url', url: 'https://shop.example/prices', mode: 'ask' }, ctx);
    expect(ok.ok).to.equal(true);
    const [job] = await scheduler.list();
    expect(job).to.deep.include({ mode: 'ask', target: { type: 'url', url: 'https://shop.example/prices' }, nextRunAt: T0 + 120 * 60_000 });
    for (const bad of [
      { title: 'x', prompt: 'y', schedule: 'once', after_seconds: 10 },
      { title: 'x', prompt: 'y', schedule: 'interval', every_minutes: 0 },
      { title: 'x', prompt: 'y', schedule: 'calendar', repeat: 'monthly', time: '09:00', day_of_month: 40 },
      { title: 'x', prompt: 'y', schedule: 'once', target: 'url', url: 'file:///etc/passwd', after_seconds: 0 },
    ]) {
      const r = await scheduleTask.run(bad, ctx);
      expect(r.ok, JSON.stringify(bad)).to.equal(false);
      if (!r.ok) expect(r.retryable).to.equal(true);
    }
    expect(await scheduler.list()).to.have.length(1);
  });

  it('schedule_resume is terminal and schedules the conversation to continue in this tab', async () => {
    const { scheduler, ctx } = setup();
    expect(scheduleResume.terminal).to.equal(true);
    const r = await scheduleResume.run({ reason: 'Waiting for the CI build', resume_instruction: 'Check whether the build passed and merge if green.', after_seconds: 900 }, ctx);
    expect(r.ok && r.data).to.match(/^Paused: Waiting for the CI build\. This task continues in this tab at 1 May 2026, 12:15/);
    const [job] = await scheduler.list();
    expect(job).to.deep.include({ kind: 'resume', title: 'Waiting for the CI build', target: { type: 'tab', tabId: 5 }, nextRunAt: T0 + 900_000 });
    expect(await scheduleResume.run({ reason: 'x', resume_instruction: 'y', after_seconds: 5 }, ctx)).to.include({ ok: false, code: 'INVALID_ARGUMENTS' });
    expect(await scheduleResume.run({ reason: 'x', resume_instruction: 'y' }, ctx)).to.include({ ok: false, code: 'INVALID_ARGUMENTS' });
  });

  it('says so when scheduling is not available', async () => {
    const r = await scheduleTask.run({ title: 'x', prompt: 'y', schedule: 'once', after_seconds: 0 }, { tabId: 1, browser: fakeBrowser() });
    expect(r).to.include({ ok: false, code: 'UNAVAILABLE' });
  });
});
