// A page of about 100,000 elements through the tool runner. The snapshot the model gets
// fits the one budget, summarises what it cannot show, and names the calls that show it; following
// them reaches a button in row 2,500 of a 3,000-row table, and clicking it works.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ok, openFixture } from './harness/tools.js';
import { RESULT_BUDGET_CHARS } from '../../src/chrome/agent/budget.js';
import { followUps } from '../fixtures/follow-ups.js';

scenario('a 100,000-element page', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  before(async () => { f = await openFixture(ctx.env, 'generated/big.html'); });
  after(async () => { await f?.page.close(); });

  it('snapshots within the budget, with regions summarised and every follow-up named', async () => {
    expect(await f.page.evaluate(() => document.querySelectorAll('*').length)).to.be.above(90_000);
    const t = performance.now();
    const text = String((await ok(ctx.env, f.tabId, 'snapshot')).data);
    console.log(`      snapshot through the tool runner: ${(performance.now() - t).toFixed(0)} ms, ${text.length} characters`);
    expect(text.length).to.be.at.most(RESULT_BUDGET_CHARS + 500);
    expect(text).to.match(/- navigation "Main": 240 links \[collapsed: snapshot ref=e\d+ shows them\]/);
    expect(text).to.match(/- searchbox "Search the site" \[e\d+\]/);
    expect(text).to.match(/not outlined: snapshot ref=e\d+ (with )?from=\d+.* shows them.*; among them table \(3000 actionable\): snapshot ref=e\d+\]/);
  });

  it('names parts that each fit one call: a sample of them shows its whole part, with nothing left for another', async () => {
    const text = String((await ok(ctx.env, f.tabId, 'snapshot')).data);
    const calls = followUps(text);
    // The article's sections in parts, the table's body in parts of rows, the footer.
    expect(calls.length).to.be.above(60);
    // The ref named most often after the article's is the table body's.
    /** @type {Map<string, number>} */
    const perRef = new Map();
    for (const c of calls) if (c.ref !== calls[0].ref) perRef.set(c.ref, (perRef.get(c.ref) ?? 0) + 1);
    const bodyRef = [...perRef].sort((a, b) => b[1] - a[1])[0]?.[0];
    const body = calls.filter((c) => c.ref === bodyRef);
    expect(body.length, 'the table body is planned in parts of its rows').to.be.above(5);
    const sample = [calls[0], calls[Math.floor(calls.length / 2)], body[0], body.at(-1), calls.at(-1)];
    for (const call of sample) {
      const part = String((await ok(ctx.env, f.tabId, 'snapshot', /** @type {any} */ (call))).data);
      expect(part.length).to.be.at.most(RESULT_BUDGET_CHARS + 500);
      expect(part, JSON.stringify(call)).to.not.match(/not outlined|outline cut/);
      expect(part, JSON.stringify(call)).to.match(/\[e\d+\]/);
    }
  });

  it('reaches row 2,500 through the calls the outline names, and clicks its button', async () => {
    /** @type {string[]} */
    const queue = [String((await ok(ctx.env, f.tabId, 'snapshot')).data)];
    /** @type {string | null} */
    let found = null;
    let calls = 0;
    while (queue.length && !found && calls < 40) {
      const text = /** @type {string} */ (queue.shift());
      found = /button "Refund 2500" \[(e\d+)\]/.exec(text)?.[1] ?? null;
      // As a model would: straight to the table a "not outlined" line names, then page through its rows.
      const table = /among them .*?table \(\d+ actionable\): snapshot ref=(e\d+)/.exec(text);
      // Then the part of the rows that holds row 2,500 (the tbody's children are its rows, from 0).
      const parts = followUps(text).filter((c) => c.from !== undefined && (c.to === undefined || c.to > 2_499) && c.from <= 2_499)
        .sort((a, b) => (b.from ?? 0) - (a.from ?? 0));
      if (table) queue.unshift(String((await ok(ctx.env, f.tabId, 'snapshot', { ref: table[1] })).data));
      else if (parts.length) queue.unshift(String((await ok(ctx.env, f.tabId, 'snapshot', parts[0])).data));
      calls++;
    }
    expect(found, 'Refund 2500 reached through named follow-ups').to.not.equal(null);
    console.log(`      reached row 2,500 in ${calls} follow-up calls`);
    await ok(ctx.env, f.tabId, 'click', { ref: found });
    expect(await f.page.text('#refunded')).to.equal('Refund 2500');
  });
});
