// Hard widgets (pointer): open and closed shadow roots, a hover menu, an icon that swaps
// under the pointer, double/right/modified clicks, HTML5 drag-and-drop, a pointer slider, an element
// removed mid-action, a covered element, a disabled one, and a target far below the fold.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ok, openFixture, refOf, tool } from './harness/tools.js';

scenario('widgets: pointer', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  const text = (/** @type {string} */ sel) => f.page.text(sel);
  before(async () => { f = await openFixture(ctx.env, 'widgets/pointer.html'); });
  after(async () => { await f?.page.close(); });

  it('clicks a button inside an open shadow root', async () => {
    await ok(ctx.env, f.tabId, 'click', { ref: await refOf(ctx.env, f.tabId, 'button', 'Open shadow button') });
    expect(await text('#shadow-out')).to.equal('open;');
  });

  it('clicks a button inside a closed shadow root', async () => {
    const r = await ok(ctx.env, f.tabId, 'click', { text: 'Closed shadow button' });
    // Chrome's click is trusted input through CDP at the button's point; Firefox reaches the closed root from its content script.
    expect(await text('#shadow-out')).to.equal(ctx.kind === 'chromium' ? 'open;closed(trusted);' : 'open;closed;');
    expect(r.data.clicked).to.contain('Closed shadow button');
  });

  it('opens a script-driven hover menu and clicks its item', async () => {
    const { env } = ctx;
    const hidden = await tool(env, f.tabId, 'click', { text: 'Pricing' });
    expect(hidden).to.include({ ok: false, code: 'NOT_FOUND' });
    const r = await ok(env, f.tabId, 'hover', { ref: await refOf(env, f.tabId, 'button', 'Products') });
    // With a snapshot taken, the effects report what appeared as an outline diff (agent/tools/act.js).
    expect(String(r.data.effects.changes ?? r.data.effects.appeared)).to.contain('Pricing');
    await ok(env, f.tabId, 'click', { text: 'Pricing' });
    expect(await text('#menu-out')).to.equal('pricing');
  });

  it('opens a CSS :hover menu in Chrome; in Firefox reports its item still hidden (docs/TOOLS.md)', async () => {
    const { env } = ctx;
    await ok(env, f.tabId, 'hover', { ref: await refOf(env, f.tabId, 'button', 'Account') });
    const r = await tool(env, f.tabId, 'click', { text: 'Settings' });
    if (ctx.kind === 'chromium') {
      expect(r.ok, r.message).to.equal(true);
      expect(await text('#menu-out')).to.equal('settings');
    } else {
      // Synthetic events never set CSS :hover and Firefox gives extensions no trusted input.
      expect(r).to.include({ ok: false, code: 'NOT_FOUND' });
    }
  });

  it('clicks an icon whose image is swapped under the pointer', async () => {
    await ok(ctx.env, f.tabId, 'click', { ref: await refOf(ctx.env, f.tabId, 'button', 'Favourite') });
    expect(await text('#icon-out')).to.equal('favourited');
  });

  it('double-clicks, right-clicks and shift-clicks', async () => {
    const { env } = ctx;
    await ok(env, f.tabId, 'click', { text: 'Double me', click_count: 2 });
    await ok(env, f.tabId, 'click', { text: 'Right-click me', button: 'right' });
    await ok(env, f.tabId, 'click', { text: 'Shift-click me', modifiers: ['Shift'] });
    expect(await text('#clicks-out')).to.equal('dbl;ctx;shift;');
  });

  it('clicks at exact viewport coordinates', async () => {
    const r = await f.page.evaluate(() => { const el = /** @type {Element} */ (document.querySelector('#pad')); el.scrollIntoView({ block: 'center' }); const b = el.getBoundingClientRect(); return { x: b.left, y: b.top }; });
    await ok(ctx.env, f.tabId, 'click', { x: Math.round(r.x) + 30, y: Math.round(r.y) + 40 });
    // Offsets inside the pad, as the page measured them (the pad's own edge may sit on a fraction of a pixel).
    expect(await text('#pad-out')).to.equal(`${Math.round(Math.round(r.x) + 30 - r.x)},${Math.round(Math.round(r.y) + 40 - r.y)}`);
  });

  it('refuses a disabled button with DISABLED', async () => {
    const r = await tool(ctx.env, f.tabId, 'click', { ref: await refOf(ctx.env, f.tabId, 'button', 'Cannot press') });
    expect(r).to.include({ ok: false, code: 'DISABLED' });
  });

  it('reorders an HTML5 drag-and-drop list', async () => {
    const r = await ok(ctx.env, f.tabId, 'drag_drop', { from_text: 'Charlie', to_text: 'Alpha' });
    expect(r.data.kind).to.equal('html5');
    expect(await text('#dnd-out')).to.equal('Charlie,Alpha,Bravo');
  });

  it('drags a pointer-driven slider thumb', async () => {
    const { env } = ctx;
    const track = await f.page.evaluate(() => { const r = document.querySelector('#track')?.getBoundingClientRect(); return r && { right: r.right, y: r.top + r.height / 2 }; });
    expect(track).to.be.ok;
    // Scroll into view first, then drop near the right end of the track (coordinates are measured after).
    await ok(env, f.tabId, 'scroll', { ref: await refOf(env, f.tabId, 'slider', 'Brightness') });
    const end = await f.page.evaluate(() => { const r = /** @type {Element} */ (document.querySelector('#track')).getBoundingClientRect(); return { x: Math.round(r.right - 40), y: Math.round(r.top + r.height / 2) }; });
    await ok(env, f.tabId, 'drag_drop', { from_ref: await refOf(env, f.tabId, 'slider', 'Brightness'), to_x: end.x, to_y: end.y });
    const v = Number(await text('#slider-out'));
    expect(v).to.be.within(80, 95);
  });

  it('reports an element removed mid-action with ELEMENT_REMOVED', async () => {
    const r = await tool(ctx.env, f.tabId, 'click', { ref: await refOf(ctx.env, f.tabId, 'button', 'Catch me') });
    expect(r).to.include({ ok: false, code: 'ELEMENT_REMOVED' });
    expect(r.message).to.contain('take a new snapshot'.replace('take', 'Take'));
    expect(await text('#vanish-out')).to.equal('');
  });

  it('scrolls a far target into view, refuses it while covered and names the cover, then clicks it once dismissed', async () => {
    const { env } = ctx;
    const buy = await refOf(env, f.tabId, 'button', 'Buy now');
    const covered = await tool(env, f.tabId, 'click', { ref: buy });
    expect(covered).to.include({ ok: false, code: 'COVERED' });
    expect(covered.message).to.contain('div#overlay');
    expect(covered.message).to.contain('We use cookies');
    expect(await text('#under-out')).to.equal('');
    const accepted = await ok(env, f.tabId, 'click', { text: 'Accept cookies' });
    const gone = accepted.data.effects.changes ?? accepted.data.effects.vanished.join(' ');
    expect(gone).to.match(/^- .*We use cookies/m);
    await ok(env, f.tabId, 'click', { ref: buy });
    expect(await text('#under-out')).to.equal('bought');
  });
});
