// Sideways scrolling until a text shows: a 2-D virtual grid (500 rows by 300 columns, only the
// cells near the viewport exist) is scrolled right to a far column and back left, never down.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ok, openFixture, tool } from './harness/tools.js';

scenario('widgets: a 2-D virtual grid', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  before(async () => { f = await openFixture(ctx.env, 'widgets/grid2d.html'); });
  after(async () => { await f?.page.close(); });

  const at = () => f.page.evaluate(() => { const s = /** @type {HTMLElement} */ (document.getElementById('sheet')); return { left: s.scrollLeft, top: s.scrollTop }; });

  it('scrolls right until a far column shows, back left, and says when a text is not that way', async () => {
    const { env } = ctx;
    const right = await ok(env, f.tabId, 'scroll', { selector: '#sheet', direction: 'right', amount: 2_500, until_text: 'R2 C150' });
    expect(right.data.found).to.equal('R2 C150');
    expect(right.data.scrollX).to.be.greaterThan(10_000);
    let now = await at();
    expect(now.top).to.be.below(60);
    expect(now.left).to.be.greaterThan(10_000);
    const left = await ok(env, f.tabId, 'scroll', { selector: '#sheet', direction: 'left', amount: 2_500, until_text: 'R2 C005' });
    expect(left.data.found).to.equal('R2 C005');
    now = await at();
    expect(now.left).to.be.below(1_000);
    expect(now.top).to.be.below(60);
    // Leftwards from near the start there is no column 290: the end comes soon, and it says so.
    const missing = await tool(env, f.tabId, 'scroll', { selector: '#sheet', direction: 'left', until_text: 'R2 C290' });
    expect(missing).to.include({ ok: false, code: 'NOT_FOUND' });
    expect(missing.message).to.contain('left');
  });
});
