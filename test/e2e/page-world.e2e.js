// The page cannot see or steer Tabwright. From the page's own world no global, symbol or
// wrapped-looking function betrays the helpers; fake dialog events and a forged dialog policy do
// not reach the agent's results; the indicator comes back when the page removes or covers it.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ok, openFixture } from './harness/tools.js';

/** @import { TestEnv } from './harness/env.js' */

/** @param {TestEnv} env @param {number} tabId @param {boolean} show */
function indicator(env, tabId, show) {
  return env.control.evaluate(([id, s]) => browser.tabs.sendMessage(id, { type: 'content.indicator', show: s }, { frameId: 0 }).then((r) => r.data), /** @type {[number, boolean]} */ ([tabId, show]));
}

scenario('the page cannot see or steer Tabwright', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  before(async () => { f = await openFixture(ctx.env, 'hostile-world.html'); });
  after(async () => { await indicator(ctx.env, f.tabId, false).catch(() => {}); await f?.page.close(); });

  it('finds no global, no symbol and only native-looking functions', async () => {
    // A snapshot first: the helpers have then been asked and have answered.
    await ok(ctx.env, f.tabId, 'snapshot');
    const seen = await f.page.evaluate(() => /** @type {any} */ (window).probe());
    expect(seen.symbols).to.deep.equal([]);
    expect(seen.hooks).to.deep.equal([]);
    expect(seen.names).to.deep.equal([]);
    for (const source of seen.sources) expect(source).to.match(/^function [\w ]*\(\) \{\s*\[native code\]\s*\}$/);
  });

  it('reports the real confirm of a click and none of the dialogs or policies the page fakes', async () => {
    const r = await ok(ctx.env, f.tabId, 'click', { text: 'Delete everything' });
    expect(await f.page.text('#result')).to.equal('Kept');
    const dialogs = /** @type {any[]} */ (r.data.effects?.dialogs ?? r.data.dialogs ?? []);
    expect(dialogs.map((d) => `${d.kind}:${d.message}:${d.accepted}`)).to.deep.equal(['confirm:Delete everything?:false']);
    expect(JSON.stringify(r.data)).to.not.contain('FAKE');
  });

  it('brings the indicator back when the page removes it, and above what covers it', async () => {
    const shown = await indicator(ctx.env, f.tabId, true);
    expect(shown.shown).to.equal(true);
    const { x, y } = shown.stop;
    const top = () => f.page.evaluate(([px, py]) => document.elementFromPoint(px, py)?.localName ?? '', [x, y]);
    expect(await top()).to.match(/^tw-[a-z0-9]+$/);
    // Removed: it comes back.
    await f.page.evaluate(() => { for (const el of [...document.documentElement.children]) if (el.localName.startsWith('tw-')) el.remove(); });
    await f.page.waitFor(() => [...document.documentElement.children].some((el) => el.localName.startsWith('tw-')), undefined, { message: 'the indicator to come back' });
    expect(await top()).to.match(/^tw-[a-z0-9]+$/);
    // Covered by a later element at the top z-index: raised again.
    await f.page.evaluate(() => { const c = document.createElement('div'); c.className = 'cover'; document.documentElement.append(c); });
    await f.page.waitFor(([px, py]) => document.elementFromPoint(px, py)?.localName.startsWith('tw-'), [x, y], { message: 'the indicator above the cover' });
    // Covered by a modal dialog in the top layer: raised above it.
    await f.page.evaluate(() => /** @type {HTMLDialogElement} */ (document.getElementById('modal')).showModal());
    await f.page.waitFor(([px, py]) => document.elementFromPoint(px, py)?.localName.startsWith('tw-'), [x, y], { message: 'the indicator above the modal' });
    // And its Stop button is live there: the page's modal does not make it inert.
    const state = await indicator(ctx.env, f.tabId, true);
    expect(state.visible).to.equal(true);
    await f.page.evaluate(() => /** @type {HTMLDialogElement} */ (document.getElementById('modal')).close());
    expect((await indicator(ctx.env, f.tabId, false)).shown).to.equal(false);
  });
});
