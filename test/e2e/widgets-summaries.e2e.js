// Summaries that open: a region bigger than one call's budget (a sidebar of 3,000 links, an essay
// laid out in one table) is summarised with the parts that show it, and every call an outline
// names opens something new: none answers with the line that named it.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ok, openFixture } from './harness/tools.js';
import { followUps } from '../fixtures/follow-ups.js';

/** @param {string} text */
const refsIn = (text) => new Set([...text.matchAll(/\[((?:f\d+:)?e\d+)\]/g)].map((m) => m[1]));
/** @param {{ ref: string, from?: number, to?: number }} c */
const key = (c) => `${c.ref} ${c.from ?? ''} ${c.to ?? ''}`;

scenario('widgets: summaries that open', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  before(async () => { f = await openFixture(ctx.env, 'widgets/summaries.html'); });
  after(async () => { await f?.page.close(); });

  it('reaches every control through the calls the outline names, and no call returns its own line', async () => {
    const { env } = ctx;
    const MAX = 12_000;
    const first = await ok(env, f.tabId, 'snapshot', { maxChars: MAX });
    const text = String(first.data);
    expect(text.length).to.be.at.most(MAX + 200);
    const seen = refsIn(text);
    const queue = followUps(text);
    const done = new Set();
    /** @type {string[]} */
    const loops = [];
    while (queue.length && done.size < 120) {
      const call = /** @type {{ ref: string, from?: number, to?: number }} */ (queue.shift());
      if (done.has(key(call))) continue;
      done.add(key(call));
      const more = String((await ok(env, f.tabId, 'snapshot', { ...call, maxChars: MAX })).data);
      const next = followUps(more);
      if (next.some((c) => key(c) === key(call))) loops.push(`${key(call)}: ${more.slice(0, 200)}`);
      for (const r of refsIn(more)) seen.add(r);
      queue.push(...next);
    }
    expect(loops).to.deep.equal([]);
    // The whole outline (one call with room for all of it) is what must be reachable.
    const whole = refsIn(String((await ok(env, f.tabId, 'snapshot', { maxChars: 200_000 })).data));
    expect(whole.size).to.be.at.least(3_291);
    const missed = [...whole].filter((r) => !seen.has(r));
    expect(missed.length, `missed ${missed.slice(0, 5)}`).to.equal(0);
    expect(done.size).to.be.below(120);
    // A range past a region's children answers with how many there are, not with nothing.
    const nav = followUps(text).find((c) => c.from === undefined)?.ref ?? followUps(text)[0].ref;
    const past = String((await ok(env, f.tabId, 'snapshot', { ref: nav, from: 50_000, to: 50_100 })).data);
    expect(past).to.match(/selects none of them\. snapshot ref=\S+ shows it/);
  });
});
