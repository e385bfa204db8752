import { expect } from 'chai';
import { RunState, TRANSITIONS, ACTIVE } from '../../src/chrome/service/run-state.js';

/** @typedef {import('../../src/chrome/types/messages').RunPhase} RunPhase */
/** @typedef {import('../../src/chrome/types/messages').RunEvent} RunEvent */
/** @type {RunPhase[]} */
const PHASES = ['idle', 'starting', 'streaming', 'acting', 'waiting', 'finished', 'failed', 'stopped', 'interrupted'];
/** The expected table, written out: phase → event → next phase (absent: refused). @type {Record<RunPhase, Partial<Record<RunEvent, RunPhase>>>} */
const EXPECTED = {
  idle: { start: 'starting', clear: 'idle' },
  starting: { ready: 'streaming', finish: 'finished', fail: 'failed', stop: 'stopped', restore: 'interrupted' },
  streaming: { stream: 'streaming', act: 'acting', wait: 'waiting', finish: 'finished', fail: 'failed', stop: 'stopped', restore: 'interrupted' },
  acting: { stream: 'streaming', act: 'acting', wait: 'waiting', finish: 'finished', fail: 'failed', stop: 'stopped', restore: 'interrupted' },
  waiting: { stream: 'streaming', act: 'acting', finish: 'finished', fail: 'failed', stop: 'stopped', restore: 'interrupted' },
  finished: { start: 'starting', clear: 'idle' },
  failed: { start: 'starting', clear: 'idle' },
  stopped: { start: 'starting', clear: 'idle' },
  interrupted: { start: 'starting', clear: 'idle' },
};

describe('run state: one table of transitions per tab', () => {
  for (const phase of PHASES) {
    for (const event of /** @type {RunEvent[]} */ (Object.keys(TRANSITIONS))) {
      const to = EXPECTED[phase][event];
      it(`${phase} + ${event} → ${to ?? 'refused'}`, () => {
        /** @type {RunPhase[]} */
        const heard = [];
        const s = new RunState(phase, (p) => heard.push(p));
        expect(s.transition(event)).to.equal(to !== undefined);
        expect(s.phase).to.equal(to ?? phase);
        // Only a real change is announced (to the panel and storage).
        expect(heard).to.deep.equal(to !== undefined && to !== phase ? [to] : []);
      });
    }
  }

  it('is busy exactly in the active phases, which refuse a second start', () => {
    for (const phase of PHASES) {
      const s = new RunState(phase);
      expect(s.busy, phase).to.equal(ACTIVE.includes(phase));
      expect(s.can('start'), phase).to.equal(!ACTIVE.includes(phase));
    }
  });

  it('a double Stop, and Stop during start, leave the tab settled', () => {
    const s = new RunState();
    s.transition('start');
    expect(s.transition('stop')).to.equal(true);
    expect(s.transition('stop')).to.equal(false);
    expect(s.phase).to.equal('stopped');
    expect(s.busy).to.equal(false);
    // The run's own end, arriving after Stop, changes nothing.
    expect(s.transition('finish')).to.equal(false);
    expect(s.transition('start')).to.equal(true);
  });

  it('comes back from storage interrupted when it was active, as it was otherwise', () => {
    for (const phase of ACTIVE) expect(RunState.restored(phase)).to.equal('interrupted');
    for (const phase of /** @type {RunPhase[]} */ (['idle', 'finished', 'failed', 'stopped', 'interrupted'])) expect(RunState.restored(phase)).to.equal(phase);
    expect(RunState.restored(undefined)).to.equal('idle');
  });
});
