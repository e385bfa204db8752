// The outline's hard cases, each given a ref and acted on through it, in both browsers:
// a span wired with addEventListener, icon-only buttons, a cursor:pointer card, a label standing
// in for a hidden checkbox, a shadow-DOM component with a slot, same- and cross-origin iframes,
// and a React-like list that re-renders between the snapshot and the click.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, tabIdOf } from './harness/env.js';

/** @param {string} outline @param {RegExp} line a pattern whose first group is the ref */
function refIn(outline, line) {
  const ref = line.exec(outline)?.[1];
  if (!ref) throw new Error(`no line matching ${line} in:\n${outline}`);
  return ref;
}

scenario('perception', (ctx) => {
  /** @type {import('./harness/driver.js').Driver} */
  let page;
  let tabId = 0;
  /** @param {Record<string, unknown>} [args] */
  const snapshot = async (args = {}) => {
    const r = await ask(ctx.env.control, { type: 'tool.run', tabId, name: 'snapshot', args });
    expect(r.ok, JSON.stringify(r)).to.equal(true);
    return /** @type {string} */ (r.data);
  };
  /** @param {string} name @param {Record<string, unknown>} args */
  const run = (name, args) => ask(ctx.env.control, { type: 'tool.run', tabId, name, args });

  before(async () => {
    const url = `${ctx.env.site.url}/perception.html`;
    page = await ctx.env.browser.openPage(url);
    tabId = await tabIdOf(ctx.env, url);
    // The cross-origin frame loads after the page; wait until its outline is spliced in.
    const deadline = Date.now() + 15_000;
    while (!(await snapshot()).includes('Cross frame action')) {
      if (Date.now() > deadline) throw new Error(`the cross-origin frame never appeared:\n${await snapshot()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  after(async () => { await page?.close(); });

  it('gives every hard case a ref with a usable name and leaves hidden content out', async () => {
    const o = await snapshot();
    expect(o).to.match(/- clickable "Like this post" \[e\d+\]/);
    expect(o).to.match(/- button hint="trash" \[e\d+\]/);
    expect(o).to.match(/- button "Settings" \[e\d+\]/);
    expect(o).to.match(/- button "Search" \[e\d+\]/);
    // Generated class names give no hint: the button is still there, unnamed.
    expect(o).to.match(/- button \[e\d+\]/);
    expect(o).to.not.match(/hint="(css|bdva|sc)/i);
    expect(o).to.match(/- clickable "Open the weekly report" \[e\d+\]/);
    expect(o).to.match(/- checkbox "Email me updates" \[e\d+\]/);
    expect(o).to.match(/- region "Shadow panel"\n\s+- heading \[level=3\]: Slotted title|- region "Shadow panel"\n\s+- heading "Slotted title" \[level=3\]/);
    expect(o).to.match(/- button "Expand details" \[e\d+\]/);
    // A same-origin frame's outline comes from its own content script, so its refs name the frame.
    expect(o).to.match(/- iframe "Same-origin frame" \[frame=\d+\]\n\s+Inside a frame\n\s+- button "Same frame action" \[f\d+:e\d+\]/);
    expect(o).to.match(/- iframe "Cross-origin frame" \[frame=\d+\]\n\s+Inside a frame\n\s+- button "Cross frame action" \[f\d+:e\d+\]/);
    expect(o).to.match(/- textbox "Frame note" \[f\d+:e\d+\]/);
    expect(o).to.not.contain('Hidden text');
    expect(o).to.not.contain('Hidden button');
    // Under plain wrappers that hide: display:none, visibility:hidden (a child may show again), display:contents.
    for (const gone of ['Wrapped hidden', 'Invisible text', 'Invisible link', 'Contents hidden text']) expect(o).to.not.contain(gone);
    expect(o).to.contain('Visible again');
  });

  it('acts on each of them through its ref', async () => {
    const o = await snapshot();
    /** @type {[RegExp, string][]} */
    const targets = [
      [/- clickable "Like this post" \[(e\d+)\]/, 'Clicked wired span'],
      [/- button hint="trash" \[(e\d+)\]/, 'Clicked trash'],
      [/- button "Settings" \[(e\d+)\]/, 'Clicked gear'],
      [/- button "Search" \[(e\d+)\]/, 'Clicked find'],
      [/- button \[(e\d+)\]/, 'Clicked x7q9'],
      [/- clickable "Open the weekly report" \[(e\d+)\]/, 'Clicked card'],
      [/- checkbox "Email me updates" \[(e\d+)\]/, 'Clicked notify true'],
      [/- button "Expand details" \[(e\d+)\]/, 'Clicked shadow button'],
    ];
    for (const [line, expected] of targets) {
      const r = await run('click', { ref: refIn(o, line) });
      expect(r.ok, `${line}: ${JSON.stringify(r)}`).to.equal(true);
      await page.waitFor((t) => document.getElementById('result')?.textContent === t, expected, { message: expected });
    }
    const same = await run('click', { ref: refIn(o, /- button "Same frame action" \[(f\d+:e\d+)\]/) });
    expect(same.ok, JSON.stringify(same)).to.equal(true);
    await page.waitFor(() => /** @type {HTMLIFrameElement} */ (document.getElementById('same')).contentDocument?.getElementById('where')?.textContent === 'Clicked in same frame', undefined, { message: 'the same-origin frame to see the click' });
    const cross = await run('click', { ref: refIn(o, /- button "Cross frame action" \[(f\d+:e\d+)\]/) });
    expect(cross.ok, JSON.stringify(cross)).to.equal(true);
    expect(await snapshot()).to.contain('Clicked in cross frame');
  });

  it('re-binds refs after a re-render, and says STALE_REF when that is ambiguous or the element is gone', async () => {
    const o = await snapshot();
    const pickBanana = refIn(o, /- button "Pick Banana" \[(e\d+)\]/);
    const deletes = [...o.matchAll(/- button "Delete" \[(e\d+)\]/g)].map((m) => m[1]);
    expect(deletes).to.have.length(3);
    const pickCherry = refIn(o, /- button "Pick Cherry" \[(e\d+)\]/);
    await page.evaluate(() => /** @type {any} */ (window).rerender());
    expect(await page.evaluate(() => document.querySelector('#list li')?.getAttribute('data-render'))).to.equal('2');
    expect((await run('click', { ref: pickBanana })).ok).to.equal(true);
    await page.waitFor(() => document.getElementById('result')?.textContent === 'Clicked pick Banana (render 2)', undefined, { message: 'the re-rendered Banana button' });
    // Three "Delete" twins before and after: the position picks the same row.
    expect((await run('click', { ref: deletes[1] })).ok).to.equal(true);
    await page.waitFor(() => document.getElementById('result')?.textContent === 'Clicked delete Banana (render 2)', undefined, { message: 'the second Delete after the re-render' });
    // Cherry is removed: its Pick button has no match, and two Delete twins for three is ambiguous.
    await page.evaluate(() => /** @type {any} */ (window).dropFruit('Cherry'));
    const gone = await run('click', { ref: pickCherry });
    expect(gone).to.include({ ok: false, code: 'STALE_REF' });
    expect(gone.message).to.match(/take a new snapshot/i);
    const ambiguous = await run('click', { ref: deletes[0] });
    expect(ambiguous).to.include({ ok: false, code: 'STALE_REF' });
  });

  it('reports what an action changed as an outline diff', async () => {
    await snapshot();
    const o = await snapshot();
    const r = await run('click', { ref: refIn(o, /- checkbox "Email me updates"(?: \[checked\])? \[(e\d+)\]/) });
    expect(r.ok, JSON.stringify(r)).to.equal(true);
    const changes = /** @type {{ effects?: { changes?: string } }} */ (r.data).effects?.changes ?? '';
    expect(changes).to.match(/^Outline changes: \d+ added, \d+ removed, \d+ changed\./);
    expect(changes).to.match(/~ - checkbox "Email me updates"( \[checked\])? \[e\d+\]/);
    expect(changes).to.contain('Clicked notify');
    expect(changes.length).to.be.lessThan(o.length / 4);
  });

  it('honours interactiveOnly, maxChars and a subtree ref', async () => {
    const only = await snapshot({ interactiveOnly: true });
    expect(only).to.match(/\[e\d+\]/);
    expect(only).to.not.contain('Nothing clicked yet');
    // Fitted to a small budget: regions summarised, and every summary names the call that shows it.
    const full = await snapshot();
    expect(full.length).to.be.above(1_000);
    const cut = await snapshot({ maxChars: 600 });
    expect(cut.split('\n').slice(1).join('\n').length).to.be.at.most(600);
    const follow = /snapshot ref=(e\d+)(?: from=(\d+))? shows/.exec(cut);
    expect(follow, cut).to.not.equal(null);
    const shown = await snapshot({ ref: follow?.[1], ...(follow?.[2] ? { from: Number(follow[2]) } : {}) });
    expect(shown).to.match(/\[e\d+\]/);
    const region = refIn(full, /- button "Expand details" \[(e\d+)\]/);
    const sub = await snapshot({ ref: region });
    expect(sub.split('\n').slice(1).join('\n')).to.match(/^- button "Expand details" \[e\d+\]$/);
  });

  it('viewportOnly outlines what is on screen and counts the rest instead of dropping it silently', async () => {
    await page.evaluate(() => {
      const spacer = Object.assign(document.createElement('div'), { id: 'spacer' });
      spacer.style.height = '5000px';
      const far = Object.assign(document.createElement('button'), { id: 'far', textContent: 'Far below' });
      document.body.append(spacer, far);
      window.scrollTo(0, 0);
    });
    try {
      const o = await snapshot({ viewportOnly: true });
      expect(o).to.contain('- heading "Perception fixtures" [level=1]');
      expect(o).to.not.contain('Far below');
      expect(o).to.match(/\[\d+ actionable elements? below the viewport not shown: scroll down or snapshot without viewportOnly\]$/);
      expect(await snapshot()).to.contain('- button "Far below"');
    } finally {
      await page.evaluate(() => { document.getElementById('spacer')?.remove(); document.getElementById('far')?.remove(); });
    }
  });

  it('describe_ref tells what stands behind a ref (tool runner only)', async () => {
    const o = await snapshot();
    const ref = refIn(o, /- button "Expand details" \[(e\d+)\]/);
    const r = await run('describe_ref', { ref });
    expect(r.ok, JSON.stringify(r)).to.equal(true);
    expect(r.data).to.include({ tag: 'button', id: 'inner', inShadow: true });
    expect(r.data.xpath).to.match(/button\[1\]$/);
    expect(r.data.box.width).to.be.greaterThan(0);
    expect(r.data.line).to.equal(`- button "Expand details" [${ref}]`);
    const stale = await run('describe_ref', { ref: 'e99999' });
    expect(stale).to.include({ ok: false, code: 'STALE_REF' });
  });
});

scenario('capabilities and reading', (ctx) => {
  it('summarises forms, actions and collections, and extracts a collection as rows', async () => {
    const url = `${ctx.env.site.url}/shop.html`;
    const page = await ctx.env.browser.openPage(url);
    try {
      const tabId = await tabIdOf(ctx.env, url);
      const caps = await ask(ctx.env.control, { type: 'tool.run', tabId, name: 'page_capabilities', args: {} });
      expect(caps.ok, JSON.stringify(caps)).to.equal(true);
      const { forms, actions, collections } = caps.data;
      expect(forms.map((/** @type {any} */ f) => f.kind)).to.include.members(['search', 'login']);
      const login = forms.find((/** @type {any} */ f) => f.kind === 'login');
      expect(login.fields.map((/** @type {any} */ f) => f.type)).to.deep.equal(['email', 'password']);
      expect(login.submit.name).to.equal('Sign in');
      expect(actions.some((/** @type {any} */ a) => a.kind === 'pagination' && a.name === 'Next')).to.equal(true);
      const products = collections.find((/** @type {any} */ c) => c.kind === 'products');
      expect(products).to.include({ count: 4, name: 'Lamps' });
      expect(products.fields).to.include.members(['title', 'link', 'price']);
      const rows = await ask(ctx.env.control, { type: 'tool.run', tabId, name: 'extract_data', args: { collection: products.id, fields: ['title', 'price'] } });
      expect(rows.ok, JSON.stringify(rows)).to.equal(true);
      expect(rows.data.rows).to.deep.equal([
        { title: 'Brass desk lamp', price: '$49.00' }, { title: 'Paper floor lamp', price: '$89.50' },
        { title: 'Clip-on reading light', price: '$19.99' }, { title: 'Arc lamp', price: '$240.00' },
      ]);
      const bad = await ask(ctx.env.control, { type: 'tool.run', tabId, name: 'extract_data', args: { collection: 'c99' } });
      expect(bad).to.include({ ok: false, code: 'UNKNOWN_COLLECTION' });
    } finally { await page.close(); }
  });

  it('read_page returns the article as markdown through Readability and turndown', async () => {
    const url = `${ctx.env.site.url}/article.html`;
    const page = await ctx.env.browser.openPage(url);
    try {
      const tabId = await tabIdOf(ctx.env, url);
      const r = await ask(ctx.env.control, { type: 'tool.run', tabId, name: 'read_page', args: {} });
      expect(r.ok, JSON.stringify(r)).to.equal(true);
      expect(r.data).to.match(/^# .+\nhttp:\/\/127\.0\.0\.1:\d+\/article\.html\n\n/);
      expect(r.data).to.contain('48 metres');
      expect(r.data).to.not.contain('<p>');
    } finally { await page.close(); }
  });
});
