// Hard widgets (long lists): an infinite-scroll feed that loads batches as it nears the end,
// and a virtualised list of 5000 rows where the target row does not exist until scrolled to.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ok, openFixture, refOf, tool } from './harness/tools.js';

scenario('widgets: long lists', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  before(async () => {
    f = await openFixture(ctx.env, 'widgets/scroll.html');
    await f.page.waitFor(() => document.querySelectorAll('#feed .post').length === 10, undefined, { message: 'the first batch' });
  });
  after(async () => { await f?.page.close(); });

  it('scrolls an infinite feed, reporting position and newly loaded content', async () => {
    const { env } = ctx;
    const feed = await refOf(env, f.tabId, 'generic', 'Feed').catch(() => null);
    const target = feed ? { ref: feed } : { selector: '#feed' };
    const r = await ok(env, f.tabId, 'scroll', { ...target, direction: 'down', amount: 2000 });
    expect(r.data.loadedMore).to.equal(true);
    expect(r.data.scrollY).to.be.greaterThan(0);
    expect(r.data.container).to.contain('feed');
    const found = await ok(env, f.tabId, 'scroll', { ...target, until_text: 'Post 42' });
    expect(found.data.found).to.equal('Post 42');
    const posts = await f.page.evaluate(() => document.querySelectorAll('#feed .post').length);
    expect(posts).to.be.within(42, 50);
    const missing = await tool(env, f.tabId, 'scroll', { ...target, until_text: 'Post 99', max_scrolls: 30 });
    expect(missing).to.include({ ok: false, code: 'NOT_FOUND' });
  });

  it('finds and clicks a row of a virtualised list that starts off-screen', async () => {
    const { env } = ctx;
    expect(await f.page.evaluate(() => [...document.querySelectorAll('#virtual .row')].some((r) => r.textContent === 'Contact 4321'))).to.equal(false);
    const before = await tool(env, f.tabId, 'click', { text: 'Contact 4321' });
    expect(before).to.include({ ok: false, code: 'NOT_FOUND' });
    // Jump near the row, then let until_text find it: what an agent does with a long list.
    await ok(env, f.tabId, 'scroll', { selector: '#virtual', direction: 'down', amount: 4300 * 30 });
    const found = await ok(env, f.tabId, 'scroll', { selector: '#virtual', until_text: 'Contact 4321' });
    expect(found.data.found).to.equal('Contact 4321');
    await ok(env, f.tabId, 'click', { text: 'Contact 4321' });
    expect(await f.page.text('#virtual-out')).to.equal('Contact 4321');
  });
});
