// "Names": what the model reads keeps word boundaries, in both browsers. The
// fixture (names.html) is snapshotted through the tool runner and the model-visible lines are
// asserted whole: order rows, cards, chips, flex items, inline runs, hidden parts, long names cut
// with "…", and editors named by placeholder and marked [multiline]. Then the refs are acted on.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ok, openFixture } from './harness/tools.js';

/** The lines of the main landmark, refs replaced by [ref] (their numbers are not the point here). */
const EXPECTED = [
  '- main',
  '  - heading "Names fixtures" [level=1]',
  '  Nothing clicked yet.',
  '  - heading "Orders" [level=2]',
  '  - table',
  '    - row: Customer | Total | Status',
  '    - row "Jane Doe $12.00 Shipped" [ref]',
  '    - row "Li Wei $7.50 Pending" [ref]',
  '  - heading "Cards" [level=2]',
  '  - link "Release notes What changed in 2.0" [ref]',
  '  - clickable "Weekly report 12 pages" [ref]',
  '  - link "Plan Pro" [ref]',
  '  - heading "Chips and prices" [level=2]',
  '  - button "Red Large 2 left" [ref]',
  '  - link "Total $5.00" [ref]',
  '  - heading "Inline" [level=2]',
  '  - button "Secret plans" [ref]',
  '  - heading "Hidden parts" [level=2]',
  '  - button "Archive" [ref]',
  '  - link "Download" [ref]',
  '  - heading "Long names" [level=2]',
  '  - link "The complete guide to keeping word boundaries in accessible names, with worked examples from tables, cards, chips and…" [ref]',
  '  - clickable "Quarterly summary Revenue grew in every region this quarter, led by strong demand for subscriptions and a record…" [ref]',
  '  - heading "Editors" [level=2]',
  '  - textbox "Write a comment" [multiline] [ref]',
  '  - textbox "Search orders" [ref]',
  '  - textbox "Write a reply" [multiline] [ref]',
  '  - textbox "Compose a note" [multiline] [ref]',
];

/** @param {string} outline @param {RegExp} line a pattern whose first group is the ref */
function refIn(outline, line) {
  const ref = line.exec(outline)?.[1];
  if (!ref) throw new Error(`no line matching ${line} in:\n${outline}`);
  return ref;
}

scenario('names', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  const snapshot = async () => String((await ok(ctx.env, f.tabId, 'snapshot')).data);
  const result = () => f.page.text('#result');

  before(async () => { f = await openFixture(ctx.env, 'names.html'); });
  after(async () => { await f?.page.close(); });

  it('reads rows, cards, chips, flex items and inline runs with their word boundaries, hidden parts left out', async () => {
    const o = await snapshot();
    const main = o.slice(o.indexOf('- main')).split('\n').map((l) => l.replace(/ \[e\d+\]/, ' [ref]'));
    expect(main.join('\n')).to.equal(EXPECTED.join('\n'));
    for (const runTogether of ['Jane Doe$12.00', 'notesWhat', 'RedLarge', 'Total$5.00', 'PlanPro', 'Sec ret', '(3 hidden)', 'ghost', '📦']) {
      expect(o, runTogether).to.not.contain(runTogether);
    }
  });

  it('caps long names at 120 characters with "…" at a word boundary', async () => {
    const o = await snapshot();
    const names = [...o.matchAll(/- (?:link|clickable) "([^"]*…)"/g)].map((m) => m[1]);
    expect(names).to.have.length(2);
    const full = await f.page.evaluate(() => [/** @type {HTMLElement} */ (document.getElementById('long')).innerText,
      /** @type {HTMLElement} */ (document.getElementById('summary')).innerText.replace(/\s+/g, ' ')]);
    names.forEach((name, i) => {
      expect(name.length).to.be.at.most(120);
      const kept = name.slice(0, -1);
      expect(full[i].startsWith(kept), `${name} is not the start of ${full[i]}`).to.equal(true);
      expect(full[i][kept.length], `${name} cuts a word`).to.equal(' ');
    });
  });

  it('acts through the refs of a row, a card, a chip button and a long-named tile', async () => {
    const o = await snapshot();
    /** @type {[RegExp, string][]} */
    const targets = [
      [/- row "Jane Doe \$12\.00 Shipped" \[(e\d+)\]/, 'Clicked order Jane'],
      [/- row "Li Wei \$7\.50 Pending" \[(e\d+)\]/, 'Clicked order Li'],
      [/- link "Release notes What changed in 2\.0" \[(e\d+)\]/, 'Clicked card notes'],
      [/- clickable "Weekly report 12 pages" \[(e\d+)\]/, 'Clicked tile report'],
      [/- button "Red Large 2 left" \[(e\d+)\]/, 'Clicked chips'],
      [/- clickable "Quarterly summary [^"]*…" \[(e\d+)\]/, 'Clicked tile long'],
    ];
    for (const [line, expected] of targets) {
      await ok(ctx.env, f.tabId, 'click', { ref: refIn(o, line) });
      await f.page.waitFor((t) => document.getElementById('result')?.textContent === t, expected, { message: expected });
    }
  });

  it('types into the textarea and the contenteditable editors found by their placeholders', async () => {
    const o = await snapshot();
    await ok(ctx.env, f.tabId, 'type', { ref: refIn(o, /- textbox "Write a comment" \[multiline\] \[(e\d+)\]/), text: 'First line' });
    expect(await f.page.evaluate(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('comment')).value)).to.equal('First line');
    await ok(ctx.env, f.tabId, 'type', { ref: refIn(o, /- textbox "Write a reply" \[multiline\] \[(e\d+)\]/), text: 'Thanks' });
    expect(await f.page.text('#reply')).to.equal('Thanks');
    await ok(ctx.env, f.tabId, 'type', { ref: refIn(o, /- textbox "Compose a note" \[multiline\] \[(e\d+)\]/), text: 'Noted' });
    expect(await f.page.text('#note')).to.equal('Noted');
    const after = await snapshot();
    expect(after).to.match(/\n {2}- textbox "Write a comment" value="First line" \[multiline\] \[e\d+\]\n/);
    expect(after).to.match(/\n {2}- textbox "Search orders" \[e\d+\]\n/);
    // The ProseMirror-like editor dropped its placeholder once it had text: no name left, its value says what it holds.
    expect(after).to.match(/\n {2}- textbox (hint="[^"]*" )?value="Thanks" \[multiline\] \[e\d+\]\n/);
    // The Quill-like one keeps it; typed last, it has the focus.
    expect(after).to.match(/\n {2}- textbox "Compose a note" value="Noted" \[multiline\] \[focused\] \[e\d+\]$/);
    expect(await result()).to.equal('Clicked tile long');
  });
});
