// The scheduler's named parts on their own: what a run leaves on its job (run-record.js), the
// wake-up time and the book of jobs (job-book.js), dedupe, due runs, edits and the job controls.
import { expect } from 'chai';
import { applyWaiting, deferBusy, moveOn, record, recoverRun, settleRun } from '../../src/chrome/agent/scheduler/run-record.js';
import { clone, createJobBook, nextWake, notFound } from '../../src/chrome/agent/scheduler/job-book.js';
import { isDuplicate, targetKey } from '../../src/chrome/agent/scheduler/dedupe.js';
import { ASK_FIRST_TEXT, askFirst, createDueRuns } from '../../src/chrome/agent/scheduler/due-runs.js';
import { createJobEdits, patchedInput, reschedule } from '../../src/chrome/agent/scheduler/job-edits.js';
import { createJobControls, resumeJob, runJobNow } from '../../src/chrome/agent/scheduler/job-controls.js';
import { DEFAULTS } from '../../src/chrome/agent/scheduler/scheduler.js';
import { say } from '../../src/chrome/agent/error-codes.js';

/** @import { Job, JobRun } from '../../src/chrome/types/jobs' */

const T0 = Date.parse('2026-05-01T10:00:00Z');
const MIN = 60_000;

/** @param {Partial<Job>} [extra] @returns {Job} */
function job(extra = {}) {
  return {
    id: 'j1', kind: 'task', title: 'Check', prompt: 'Check the total', mode: 'act', target: { type: 'url', url: 'https://example.test/' },
    schedule: { kind: 'interval', minutes: 10, anchorAt: T0 }, state: 'running', nextRunAt: null, createdAt: T0, updatedAt: T0,
    deferrals: 0, recoveries: 0, hasRun: false, history: [], ...extra,
  };
}

/** A book over an in-memory store, with what it woke for and told. @param {Job[]} [stored] */
function bookOver(stored = []) {
  const clock = { t: T0 };
  /** @type {(number | null)[]} */
  const wakes = [];
  /** @type {{ job: Job, run: JobRun }[]} */
  const notes = [];
  let saved = clone(stored);
  const store = { async load() { return clone(saved); }, /** @param {Job[]} jobs */ async save(jobs) { saved = clone(jobs); } };
  const book = createJobBook({ clock: { now: () => clock.t }, store, wake: (at) => wakes.push(at), notify: (j, run) => notes.push({ job: j, run }), opts: DEFAULTS });
  return { book, clock, wakes, notes, saved: () => saved };
}

describe('scheduler parts: run-record', () => {
  it('record keeps the newest runs up to the limit and sets the last result', () => {
    const j = job();
    for (let i = 0; i < 4; i++) record(j, { startedAt: i, finishedAt: i, status: 'completed' }, 3);
    expect(j.history.map((r) => r.startedAt)).to.deep.equal([1, 2, 3]);
    expect(j.lastResult?.startedAt).to.equal(3);
  });
  it('recoverRun queues an interrupted run again, and fails it after too many restarts', () => {
    const j = job({ runStartedAt: T0 - MIN });
    expect(recoverRun(j, T0, DEFAULTS)).to.equal(null);
    expect(j).to.include({ state: 'queued', nextRunAt: T0, recoveries: 1 });
    expect(j.history[0]).to.deep.include({ status: 'interrupted', error: { code: 'RESTARTED', message: say('RESTARTED', 'it runs again') } });
    const looping = job({ runStartedAt: T0 - MIN, recoveries: DEFAULTS.maxRecoveries });
    expect(recoverRun(looping, T0, DEFAULTS)).to.deep.include({ status: 'failed' });
    expect(looping).to.include({ state: 'failed', nextRunAt: null });
    expect(recoverRun(job(), T0, DEFAULTS)).to.equal(null);
  });
  it('deferBusy tries again after the delay, then gives up', () => {
    const j = job();
    expect(deferBusy(j, T0, T0, DEFAULTS)).to.equal(null);
    expect(j).to.include({ state: 'queued', nextRunAt: T0 + DEFAULTS.retryDelayMs, deferrals: 1 });
    const tired = job({ deferrals: DEFAULTS.maxDeferrals });
    expect(deferBusy(tired, T0, T0, DEFAULTS)?.error?.code).to.equal('TAB_BUSY');
    expect(tired.state).to.equal('failed');
  });
  it('moveOn: a recurring job is pending for its next time; paused after run wins; permanent fails', () => {
    const j = job();
    moveOn(j, { status: 'completed' }, T0 + MIN);
    expect(j).to.include({ state: 'pending', nextRunAt: T0 + 10 * MIN });
    const p = job({ pauseAfterRun: true });
    moveOn(p, { status: 'completed' }, T0);
    expect(p).to.include({ state: 'paused', nextRunAt: null }).and.not.have.property('pauseAfterRun');
    const gone = job();
    moveOn(gone, { status: 'failed', permanent: true }, T0);
    expect(gone.state).to.equal('failed');
    const once = job({ schedule: { kind: 'once', runAt: T0 } });
    moveOn(once, { status: 'completed' }, T0);
    expect(once).to.include({ state: 'completed', nextRunAt: null });
  });
  it('settleRun records the run, resets the counters and returns nothing to tell for a cancelled run', () => {
    const j = job({ runStartedAt: T0, deferrals: 3, recoveries: 1, waitingFor: { code: 'X', message: 'x' } });
    const run = settleRun(j, { status: 'completed', text: 'Total 5' }, T0, T0 + MIN, DEFAULTS);
    expect(run).to.deep.equal({ startedAt: T0, finishedAt: T0 + MIN, status: 'completed', text: 'Total 5' });
    expect(j).to.include({ deferrals: 0, recoveries: 0, hasRun: true }).and.not.have.any.keys('runStartedAt', 'waitingFor');
    expect(settleRun(job(), { status: 'cancelled' }, T0, T0, DEFAULTS)).to.equal(null);
  });
  it('applyWaiting: waits with its reason, changes reason, goes on, or changes nothing', () => {
    const j = job({ runStartedAt: T0 });
    const first = applyWaiting(j, true, { code: 'SIGN_IN', message: 'Sign in' }, T0 + 1);
    expect(first.run).to.deep.equal({ startedAt: T0, finishedAt: T0 + 1, status: 'needs_user_input', text: 'Sign in' });
    expect(applyWaiting(j, true, { code: 'SIGN_IN', message: 'Sign in' }, T0 + 2)).to.deep.equal({ changed: false });
    expect(applyWaiting(j, true, { code: 'CODE', message: 'Code' }, T0 + 3)).to.deep.equal({ changed: true });
    expect(j.waitingFor).to.deep.equal({ code: 'CODE', message: 'Code' });
    expect(applyWaiting(j, false, undefined, T0 + 4)).to.deep.equal({ changed: true });
    expect(j.state).to.equal('running');
    expect(applyWaiting(j, false, undefined, T0 + 5)).to.deep.equal({ changed: false });
  });
});

describe('scheduler parts: job-book and dedupe', () => {
  it('nextWake: the earliest due job not running, none while held, a watchdog while runs go on', () => {
    const jobs = [job({ id: 'a', state: 'pending', nextRunAt: T0 + 5 }), job({ id: 'b', state: 'pending', nextRunAt: T0 + 2 }), job({ id: 'c', state: 'paused', nextRunAt: T0 + 1 })];
    expect(nextWake(jobs, { heldAll: false, inFlight: new Map(), now: T0, watchdogMs: 100 })).to.equal(T0 + 2);
    expect(nextWake(jobs, { heldAll: false, inFlight: new Map([['b', 1]]), now: T0, watchdogMs: 100 })).to.equal(T0 + 5);
    expect(nextWake(jobs, { heldAll: true, inFlight: new Map(), now: T0, watchdogMs: 100 })).to.equal(null);
    expect(nextWake([], { heldAll: false, inFlight: new Map([['x', 1]]), now: T0, watchdogMs: 100 })).to.equal(T0 + 100);
  });
  it('a book loads once, recovers an interrupted run, saves and wakes', async () => {
    const { book, wakes, saved } = bookOver([job({ runStartedAt: T0 - MIN })]);
    await Promise.all([book.loaded(), book.loaded()]);
    expect(book.jobs).to.have.length(1);
    expect(book.find('j1')).to.include({ state: 'queued', nextRunAt: T0 });
    await book.idle();
    expect(saved()[0]).to.include({ state: 'queued' });
    expect(wakes).to.deep.equal([T0]);
    expect(book.remove('nope')).to.equal(false);
    expect(book.remove('j1')).to.equal(true);
    book.freeze();
    await book.persist();
    expect(saved()).to.have.length(1);
    expect(notFound('x')).to.include({ ok: false, code: 'NOT_FOUND' });
  });
  it('isDuplicate: same job within the window; another target, prompt or a later day is not', () => {
    const a = job({ state: 'pending' });
    expect(isDuplicate(a, job({ createdAt: T0 + MIN }), 5 * MIN)).to.equal(true);
    expect(isDuplicate(a, job({ createdAt: T0 + 6 * MIN }), 5 * MIN)).to.equal(false);
    expect(isDuplicate(a, job({ prompt: 'Other' }), 5 * MIN)).to.equal(false);
    expect(isDuplicate(a, job({ target: { type: 'url', url: 'https://other.test/' } }), 5 * MIN)).to.equal(false);
    expect(isDuplicate(job({ state: 'cancelled' }), job(), 5 * MIN)).to.equal(false);
    expect(targetKey({ target: { type: 'tab', tabId: 4, url: 'https://x.test/', title: 'X' } })).to.deep.equal({ type: 'tab', tabId: 4 });
  });
});

describe('scheduler parts: due runs, edits and controls', () => {
  it('a tick asks first when told to, and starts an approved job', async () => {
    const { book, notes } = bookOver([job({ id: 'a', state: 'pending', nextRunAt: T0 }), job({ id: 'b', state: 'queued', nextRunAt: T0, approved: true })]);
    /** @type {string[]} */
    const ran = [];
    const due = createDueRuns(book, { clock: { now: () => T0 }, runJob: async (j) => { ran.push(j.id); return { status: 'completed' }; }, notify: (j, run) => notes.push({ job: j, run }), controls: async () => ({ paused: false, askFirst: true }), opts: DEFAULTS });
    expect(await due.tick()).to.deep.equal(['b']);
    await book.idle();
    expect(ran).to.deep.equal(['b']);
    expect(book.find('a')).to.include({ state: 'needs_user_input' });
    expect(notes.map((n) => [n.job.id, n.run.status, n.run.text ?? ''])).to.deep.equal([['a', 'needs_user_input', ASK_FIRST_TEXT], ['b', 'completed', '']]);
  });
  it('a controls read that fails holds everything', async () => {
    const { book } = bookOver([job({ id: 'a', state: 'pending', nextRunAt: T0 })]);
    const due = createDueRuns(book, { clock: { now: () => T0 }, runJob: async () => ({ status: 'completed' }), notify: () => {}, controls: async () => { throw new Error('storage gone'); }, opts: DEFAULTS });
    expect(await due.tick()).to.deep.equal([]);
    expect(book.heldAll).to.equal(true);
  });
  it('patchedInput keeps the stored fields the patch leaves out; reschedule refuses a schedule that never runs', () => {
    const j = job({ state: 'completed' });
    expect(patchedInput(j, { title: 'New' })).to.deep.include({ title: 'New', prompt: 'Check the total', schedule: { kind: 'interval', minutes: 1 } });
    expect(reschedule(j, { kind: 'interval', minutes: 5, anchorAt: T0 + MIN }, T0)).to.equal(true);
    expect(j).to.include({ state: 'pending', nextRunAt: T0 + MIN, hasRun: false });
    expect(reschedule(job({ state: 'paused' }), { kind: 'once', runAt: T0 }, T0)).to.equal(true);
    expect(reschedule(j, { kind: 'calendar', repeat: 'cron', cron: 'bad', timeZone: 'UTC' }, T0)).to.equal(false);
  });
  it('edits create a job and dedupe its repeat; controls pause and delete it', async () => {
    const { book } = bookOver();
    const tick = async () => /** @type {string[]} */ ([]);
    const controls = async () => ({ paused: false, askFirst: false });
    const edits = createJobEdits(book, { clock: { now: () => T0 }, controls, tick, newId: () => 'n1', timeZone: 'UTC', dedupeWindowMs: 5 * MIN });
    const input = /** @type {const} */ ({ prompt: 'Check', mode: 'act', target: { type: 'url', url: 'https://example.test/' }, schedule: { kind: 'interval', minutes: 5 } });
    const made = await edits.create(input);
    expect(made).to.deep.include({ ok: true });
    expect((await edits.create(input))).to.have.nested.property('data.deduped', true);
    const ctl = createJobControls(book, { clock: { now: () => T0 }, controls, tick });
    expect((await ctl.pause('n1'))).to.have.nested.property('data.state', 'paused');
    expect(await ctl.remove('n1')).to.deep.equal({ ok: true, data: { deleted: 'n1' } });
    expect(await ctl.remove('n1')).to.include({ ok: false, code: 'NOT_FOUND' });
  });
  it('askFirst holds the job with its reason; resumeJob refuses a once job that ran; runJobNow approves a paused job and keeps it paused after', async () => {
    const held = job({ state: 'queued', nextRunAt: T0 });
    expect(askFirst(held, T0, 5)).to.deep.equal({ startedAt: T0, finishedAt: T0, status: 'needs_user_input', text: ASK_FIRST_TEXT });
    expect(held).to.include({ state: 'needs_user_input', nextRunAt: null });
    const { book } = bookOver([job({ id: 'once', state: 'completed', schedule: { kind: 'once', runAt: T0 - MIN }, hasRun: true }), job({ id: 'p', state: 'paused' })]);
    /** @type {number[]} */
    const ticks = [];
    const c = { book, clock: { now: () => T0 }, controls: async () => ({ paused: true, askFirst: false }), tick: async () => { ticks.push(1); return []; } };
    expect(await resumeJob(c, 'once')).to.include({ ok: false, code: 'NOTHING_TO_RESUME' });
    const now = await runJobNow(c, 'p');
    expect(now).to.have.nested.property('data.state', 'queued');
    expect(book.find('p')).to.include({ approved: true, pauseAfterRun: true, nextRunAt: T0 });
    expect(ticks).to.have.length(1);
  });
});
