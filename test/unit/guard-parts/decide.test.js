// Each held request's decision.
import { expect } from 'chai';
import { decide } from '../../../src/chrome/agent/safety/guard/decide.js';
import { personWatch } from '../../../src/chrome/agent/safety/guard/person.js';
import { guardRun, person, ORDER, PAGE, flush } from './run.js';

const STEP = { cause: 'click button "Buy"', pageUrl: PAGE, target: null };

describe('guard parts: deciding a held request', () => {
  it('lets everything go before the first step, and the person\'s own requests during their turn', async () => {
    const { g } = guardRun();
    expect(await decide(g, ORDER)).to.equal(true);
    /** @type {any[]} */
    const told = [];
    g.person = personWatch((a) => told.push({ ...a }));
    g.step = STEP;
    expect(await decide(g, ORDER)).to.equal(true);
    expect(told).to.deep.equal([{ method: 'POST', url: ORDER.url, failed: false, settled: false }]);
    expect(g.ledger.all()).to.have.length(0);
  });

  it('asks about a write during a step, records the decision and the write, and asks once per kind in a step', async () => {
    const ui = person('yes');
    const { g } = guardRun({ interact: ui });
    g.step = STEP;
    g.stepNo = 1;
    expect(await decide(g, ORDER)).to.equal(true);
    expect(await decide(g, { ...ORDER, body: 'sku=B-2' })).to.equal(true);
    expect(ui.asked).to.have.length(1);
    expect(g.decisions.map((d) => d.allowed)).to.deep.equal([true]);
    expect(g.ledger.all().map((w) => [w.method, w.sent])).to.deep.equal([['POST', true], ['POST', true]]);
  });

  it('tells a decision made after the step with the next result', async () => {
    const { g } = guardRun({ interact: person('no') });
    g.lastStep = STEP;
    g.stepNo = 1;
    expect(await decide(g, ORDER)).to.equal(false);
    expect(g.late).to.deep.equal(['After your last step the page tried: POST to https://shop.test/api/order on shop.test. It was blocked (the user declined).']);
  });

  it('holds a hasty duplicate until the first has its answer, then asks about it as a duplicate', async () => {
    const ui = person('yes', 'no');
    const { g } = guardRun({ interact: ui });
    g.step = STEP;
    g.stepNo = 1;
    expect(await decide(g, ORDER)).to.equal(true);
    let second = /** @type {boolean | null} */ (null);
    decide(g, { ...ORDER }).then((v) => { second = v; });
    await flush();
    expect(second).to.equal(null);
    g.answered.get(ORDER)?.();
    await flush();
    await flush();
    expect(second).to.equal(false);
    expect(ui.asked.map((r) => r.rule)).to.deep.equal(['server_write', 'duplicate_write']);
  });
});
