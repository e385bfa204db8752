// The hold per tab and one step run with it.
import { expect } from 'chai';
import { armed } from '../../../src/chrome/agent/safety/guard/hold.js';
import { runStep } from '../../../src/chrome/agent/safety/guard/step.js';
import { releaseHolds, settleAfterDone } from '../../../src/chrome/agent/safety/guard/ending.js';
import { guardRun, person, tab, ORDER, PAGE, flush } from './run.js';

const STEP = { cause: 'click button "Buy"', pageUrl: PAGE, target: null };
const ok = async () => /** @type {import('../../../src/chrome/types/core').ToolResult} */ ({ ok: true, data: 'clicked' });

describe('guard parts: the hold and a step', () => {
  it('arms one hold per tab; it wants requests only once a step acted and until the holds are released', async () => {
    const { g } = guardRun();
    const t = tab();
    const h = armed(g, 1, t.browser);
    expect(armed(g, 1, t.browser)).to.equal(h);
    await h;
    const wants = /** @type {NonNullable<typeof t.handlers>} */ (t.handlers).wants;
    expect(wants(ORDER)).to.equal(false);
    g.stepNo = 1;
    expect(wants(ORDER)).to.equal(true);
    await releaseHolds(g);
    expect(t.released).to.equal(1);
    expect(wants(ORDER)).to.equal(false);
  });

  it('a write the server refused is forgotten by the policy (a retry is not a duplicate); a shared worker\'s refused write is on the ledger', async () => {
    const { g } = guardRun({ interact: person('yes') });
    const t = tab();
    await runStep(g, 1, t.browser, STEP, async () => {
      const h = /** @type {NonNullable<typeof t.handlers>} */ (t.handlers);
      await h.decide(ORDER);
      h.settled?.(ORDER, { status: 500 });
      h.refused?.({ channel: 'shared_worker_request', url: 'https://shop.test/api/sync?x=1', method: 'put' });
      return ok();
    });
    expect(g.policy.judgeRequest(ORDER, STEP)).to.not.have.nested.property('request.rule', 'duplicate_write');
    expect(g.ledger.all().map((w) => [w.method, w.sent])).to.deep.equal([['POST', true], ['PUT', false]]);
    expect(g.late.join('\n')).to.contain('tried to send PUT shop.test/api/sync;');
  });

  it('turns a step whose write was declined into USER_DECLINED, and one nobody could confirm into CONFIRMATION_REQUIRED', async () => {
    const declined = guardRun({ interact: person('no') });
    const t = tab();
    const out = await runStep(declined.g, 1, t.browser, STEP, async () => { await t.handlers?.decide(ORDER); return ok(); });
    expect(out.held).to.equal(true);
    expect(!out.result.ok && out.result.code).to.equal('USER_DECLINED');
    expect(out.writes.map((w) => w.sent)).to.deep.equal([false]);
    const refused = guardRun();
    refused.g.policy = { ...refused.g.policy, judgeRequest: () => ({ action: 'refuse', code: 'SITE_BLOCKED', message: 'blocked' }) };
    const t2 = tab();
    const out2 = await runStep(refused.g, 1, t2.browser, STEP, async () => { await t2.handlers?.decide(ORDER); return ok(); });
    expect(!out2.result.ok && out2.result.code).to.equal('CONFIRMATION_REQUIRED');
  });

  it('asks about the step itself when nothing can be held, and does not run it when declined', async () => {
    const ui = person('no', 'yes');
    const { g } = guardRun({ interact: ui });
    let ran = 0;
    const step = () => runStep(g, 1, tab({ none: true }).browser, STEP, async () => { ran++; return ok(); });
    const first = await step();
    expect([first.held, !first.result.ok && first.result.code, ran]).to.deep.equal([false, 'USER_DECLINED', 0]);
    g.holds.clear();
    const second = await step();
    expect([second.held, second.result.ok, ran]).to.deep.equal([false, true, 1]);
    expect(ui.asked[0].reason).to.contain('cannot watch what this tab sends');
  });

  it('after done, holds for the settle period past the last step, and marks what the page sends then', async () => {
    const { g, clock } = guardRun({ interact: person('yes'), times: { afterDoneMs: 3000, doneAnswerMs: 0 } });
    const t = tab();
    await runStep(g, 1, t.browser, STEP, ok);
    let over = false;
    const ending = settleAfterDone(g).then(() => { over = true; });
    await flush();
    const autosave = { ...ORDER, body: 'autosave=1' };
    expect(await t.handlers?.decide(autosave)).to.equal(true);
    t.handlers?.settled?.(autosave, { status: 200 });
    await clock.tick(2999);
    expect(over).to.equal(false);
    await clock.tick(1);
    await ending;
    expect(g.ledger.all().map((w) => w.afterDone)).to.deep.equal([true]);
  });
});
