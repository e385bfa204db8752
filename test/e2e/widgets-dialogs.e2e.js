// Hard widgets (dialogs, tabs, navigation): alert/confirm/prompt answered as told and
// reported, a modal <dialog>, a link that opens a new tab, tab switching, history, HTTP status,
// and a navigation that happens while typing (no keystroke may land in the next page).
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ok, openFixture, refOf, tool } from './harness/tools.js';

scenario('widgets: dialogs and tabs', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  const text = (/** @type {string} */ sel) => f.page.text(sel);
  before(async () => { f = await openFixture(ctx.env, 'widgets/dialogs.html'); });
  after(async () => { await f?.page.close(); });

  it('reports an alert, cancels a confirm by default, accepts it when told, and answers a prompt', async () => {
    const { env } = ctx;
    const a = await ok(env, f.tabId, 'click', { text: 'Show notice' });
    expect(a.data.effects.dialogs).to.deep.include.members([]);
    expect(a.data.effects.dialogs[0]).to.include({ kind: 'alert', message: 'Saved successfully', accepted: true });
    const c = await ok(env, f.tabId, 'click', { text: 'Delete item' });
    expect(c.data.effects.dialogs[0]).to.include({ kind: 'confirm', message: 'Really delete the item?', accepted: false });
    await ok(env, f.tabId, 'handle_dialog', { accept: true });
    const c2 = await ok(env, f.tabId, 'click', { text: 'Delete item' });
    expect(c2.data.effects.dialogs[0]).to.include({ kind: 'confirm', accepted: true });
    // The acceptance was for one dialog only: the next confirm is cancelled again.
    await ok(env, f.tabId, 'click', { text: 'Delete item' });
    await ok(env, f.tabId, 'handle_dialog', { accept: true, prompt_text: 'Shiny' });
    const p = await ok(env, f.tabId, 'click', { text: 'Rename' });
    expect(p.data.effects.dialogs[0]).to.include({ kind: 'prompt', text: 'Shiny' });
    expect(await text('#dialog-out')).to.equal('alerted;kept;deleted;kept;name=Shiny;');
  });

  it('fills and closes a modal dialog', async () => {
    const { env } = ctx;
    const open = await ok(env, f.tabId, 'click', { text: 'Edit settings' });
    expect(JSON.stringify(open.data.effects)).to.contain('Nickname');
    await ok(env, f.tabId, 'type', { ref: await refOf(env, f.tabId, 'textbox', 'Nickname'), text: 'Zed' });
    await ok(env, f.tabId, 'click', { text: 'Save settings' });
    expect(await text('#modal-out')).to.equal('save:Zed');
  });

  it('reports the tab a link opens, switches to it, lists and closes it', async () => {
    const { env } = ctx;
    const r = await ok(env, f.tabId, 'click', { text: 'Open the report' });
    const opened = r.data.effects.newTabs;
    expect(opened).to.have.length(1);
    expect(opened[0].url).to.equal(`${env.site.url}/widgets/newtab-target.html`);
    expect(opened[0].title).to.equal('Quarterly report');
    const list = await ok(env, f.tabId, 'tabs', { action: 'list' });
    expect(list.data.map((/** @type {any} */ t) => t.tabId)).to.include.members([f.tabId, opened[0].tabId]);
    const sw = await ok(env, f.tabId, 'tabs', { action: 'switch', tab_id: opened[0].tabId });
    expect(sw.data.switched.title).to.equal('Quarterly report');
    const closed = await ok(env, f.tabId, 'tabs', { action: 'close', tab_id: opened[0].tabId });
    expect(closed.data.closed).to.equal(opened[0].tabId);
    const after = await ok(env, f.tabId, 'tabs', { action: 'list' });
    expect(after.data.map((/** @type {any} */ t) => t.tabId)).to.not.include(opened[0].tabId);
  });

  it('navigates with the HTTP status, goes back and forward, and reloads', async () => {
    const { env } = ctx;
    const missing = await ok(env, f.tabId, 'navigate', { url: `${env.site.url}/status/404.html` });
    expect(missing.data).to.include({ status: 404, title: 'Status 404' });
    const back = await ok(env, f.tabId, 'go_back');
    expect(back.data.url).to.equal(f.url);
    const fwd = await ok(env, f.tabId, 'go_forward');
    expect(fwd.data.title).to.equal('Status 404');
    await ok(env, f.tabId, 'go_back');
    await f.page.evaluate(() => { document.body.dataset.marker = 'before-reload'; });
    await ok(env, f.tabId, 'reload');
    expect(await f.page.evaluate(() => document.body.dataset.marker ?? 'fresh')).to.equal('fresh');
  });

  it('stops typing when the page navigates mid-way and types nothing into the next page', async () => {
    const { env } = ctx;
    const t = await openFixture(env, 'widgets/typing.html');
    try {
      const r = await ok(env, t.tabId, 'type', { ref: await refOf(env, t.tabId, 'textbox', 'Search'), text: 'lighthouse keeper' });
      expect(r.data.effects.navigated.url).to.equal(`${env.site.url}/widgets/typing-dest.html?q=lig`);
      await t.page.waitFor(() => document.title === 'Results', undefined, { message: 'the results page' });
      // The next page focuses its own field: none of the remaining keystrokes may arrive there.
      expect(await t.page.evaluate(() => /** @type {HTMLInputElement} */ (document.querySelector('#comment')).value)).to.equal('');
    } finally { await t.page.close(); }
  });

  it('answers TAB_GONE when the tab was closed', async () => {
    const { env } = ctx;
    const t = await openFixture(env, 'widgets/typing.html');
    const ref = await refOf(env, t.tabId, 'textbox', 'Search');
    await t.page.close();
    expect(await tool(env, t.tabId, 'type', { ref, text: 'x' })).to.include({ ok: false, code: 'TAB_GONE' });
    expect(await tool(env, t.tabId, 'click', { ref })).to.include({ ok: false, code: 'TAB_GONE' });
  });

  it('refuses a stale ref after navigation and an unknown tab', async () => {
    const { env } = ctx;
    const ref = await refOf(env, f.tabId, 'link', 'Next page');
    await ok(env, f.tabId, 'click', { ref });
    expect(await tool(env, f.tabId, 'click', { ref })).to.include({ ok: false, code: 'STALE_REF' });
    expect(await tool(env, f.tabId, 'tabs', { action: 'switch', tab_id: 999999 })).to.include({ ok: false, code: 'NO_SUCH_TAB' });
  });
});
