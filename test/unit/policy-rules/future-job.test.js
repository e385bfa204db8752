import { expect } from 'chai';
import { futureJob } from '../../../src/chrome/agent/safety/rules/future-job.js';
import { memoryOf, call, cardOf } from './facts.js';

describe('policy rule: future jobs', () => {
  const m = memoryOf();

  it('asks about every job: a one-time one at normal severity, a recurring one at high, saying when and where it runs', () => {
    expect(futureJob.appliesTo(call({ effects: ['creates_jobs'] }), m)).to.equal(true);
    expect(futureJob.appliesTo(call({}), m)).to.equal(false);
    const once = cardOf(futureJob.decide(call({ tool: 'schedule_task', effects: ['creates_jobs'], args: { title: 'Check', prompt: 'Check the cart', schedule: 'once', after_seconds: 120 } }), m));
    expect(once).to.deep.include({ rule: 'future_job', category: 'job', severity: 'normal', action: 'Create a one-time job that runs unattended', site: 'shop.test' });
    expect(once.details.map((d) => `${d.label}: ${d.value}`)).to.deep.equal(['title: Check', 'prompt: Check the cart', 'runs on: this tab (shop.test)', 'when: once, in 120 s', 'mode: act']);
    const daily = cardOf(futureJob.decide(call({ tool: 'schedule_task', args: { schedule: 'calendar', repeat: 'daily', time: '08:00', target: 'url', url: 'https://mail.test/' } }), m));
    expect(daily).to.deep.include({ severity: 'high', action: 'Create a recurring job that runs unattended', site: 'mail.test' });
    expect(daily.details.find((d) => d.label === 'when')?.value).to.equal('daily at 08:00');
  });

  it('names a resumed task as this task continued later', () => {
    const card = cardOf(futureJob.decide(call({ tool: 'schedule_resume', args: { reason: 'wait for the parcel', resume_instruction: 'go on', run_at: '2026-12-01T08:00' } }), m));
    expect(card.action).to.equal('Continue this task later, unattended');
    expect(card.details.find((d) => d.label === 'when')?.value).to.equal('at 2026-12-01T08:00');
  });
});
