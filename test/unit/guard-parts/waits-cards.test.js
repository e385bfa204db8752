// The guard's waits and its cards.
import { expect } from 'chai';
import { within, decisionsMade } from '../../../src/chrome/agent/safety/guard/waits.js';
import { confirm, confirmUnlessCovered } from '../../../src/chrome/agent/safety/guard/cards.js';
import { guardRun, person, flush } from './run.js';

describe('guard parts: waits', () => {
  it('waits for a promise at most so long, by the run\'s clock, and not at all once the run stopped', async () => {
    const { g, clock } = guardRun();
    let over = false;
    within(g, new Promise(() => {}), 1000).then(() => { over = true; });
    await clock.tick(999);
    expect(over).to.equal(false);
    await clock.tick(1);
    expect(over).to.equal(true);
    const stop = new AbortController();
    stop.abort();
    const stopped = guardRun({ signal: stop.signal });
    await within(stopped.g, new Promise(() => {}), 1000);
    expect(stopped.clock.pending()).to.equal(0);
  });

  it('waits for every decision still being made, also one added meanwhile', async () => {
    const { g } = guardRun();
    /** @type {(v?: unknown) => void} */
    let first = () => {};
    const p1 = new Promise((r) => { first = r; });
    g.pending.add(p1);
    p1.finally(() => g.pending.delete(p1));
    let done = false;
    decisionsMade(g).then(() => { done = true; });
    const p2 = Promise.resolve();
    g.pending.add(p2);
    p2.finally(() => g.pending.delete(p2));
    await flush();
    expect(done).to.equal(false);
    first();
    await flush();
    expect(done).to.equal(true);
  });
});

describe('guard parts: cards', () => {
  it('shows one card at a time, in order, and tells the policy each answer', async () => {
    const ui = person('task', 'no');
    const { g } = guardRun({ interact: ui });
    const card = /** @type {any} */ ({ rule: 'leave_scope', scopeKey: 'https://docs.test', severity: 'normal', action: 'Open', site: 'docs.test', details: [], reason: '' });
    const answers = await Promise.all([confirm(g, card), confirm(g, { ...card, scopeKey: 'https://b.test' })]);
    expect(answers).to.deep.equal(['task', 'no']);
    expect(g.policy.scope.has('https://docs.test/x')).to.equal(true);
    expect(g.policy.scope.has('https://b.test/x')).to.equal(false);
  });

  it('answers no when nobody can answer', async () => {
    const { g } = guardRun();
    expect(await confirm(g, /** @type {any} */ ({ rule: 'server_write' }))).to.equal('no');
  });

  it('shows no card for a request that an answer given while it waited ("for this task") now covers', async () => {
    const ui = person('task', 'yes');
    const { g } = guardRun({ interact: ui });
    const card = /** @type {any} */ ({ rule: 'leave_scope', scopeKey: 'https://docs.test', severity: 'normal', action: 'Open', site: 'docs.test', details: [], reason: '' });
    const covered = () => g.policy.scope.has('https://docs.test/y');
    const answers = await Promise.all([confirm(g, card), confirmUnlessCovered(g, card, covered), confirmUnlessCovered(g, { ...card, scopeKey: 'https://b.test' }, () => false)]);
    expect(answers).to.deep.equal(['task', 'covered', 'yes']);
    expect(ui.asked.map((r) => r.scopeKey)).to.deep.equal(['https://docs.test', 'https://b.test']);
  });
});
