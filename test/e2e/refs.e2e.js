// "Refs for every control", in both browsers: the fixture (refs.html) is
// snapshotted through the tool runner, and every control inside a script-wired container has a ref
// of its own beside the container's (an icon in a clickable row, nested tree items, suggestions in
// an autocomplete list, cards in a sortable column); slotted content of web components is outlined
// once, under its slot; native selects list their options; a button 50 shadow roots deep has a ref.
// Each ref is then acted on and the page's own record of what happened is asserted.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ok, openFixture, tool } from './harness/tools.js';

/** The outline's lines from `from` to `to` (exclusive), refs replaced by [ref]. @param {string} o @param {string} from @param {string} to */
function section(o, from, to) {
  const lines = o.split('\n');
  const a = lines.findIndex((l) => l.includes(from)), b = lines.findIndex((l, i) => i > a && l.includes(to));
  if (a < 0 || b < 0) throw new Error(`no section ${from} … ${to} in:\n${o}`);
  return lines.slice(a, b).map((l) => l.replace(/ \[e\d+\]/g, ' [ref]'));
}

/** The ref written first after `start` ("- button \"Save\""), which may stand inside a row's line. @param {string} outline @param {string} start */
function refIn(outline, start) {
  const at = outline.indexOf(start);
  const ref = at < 0 ? undefined : /\[(e\d+)\]/.exec(outline.slice(at).split('\n')[0])?.[1];
  if (!ref) throw new Error(`no ${start} with a ref in:\n${outline}`);
  return ref;
}

scenario('refs for every control', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  const snapshot = async () => String((await ok(ctx.env, f.tabId, 'snapshot')).data);
  /** Clicks the ref of the line that starts so, and waits for the page to record `expected`. @param {string} o @param {string} start @param {string} expected */
  const clickAndSee = async (o, start, expected) => {
    await ok(ctx.env, f.tabId, 'click', { ref: refIn(o, start) });
    await f.page.waitFor((t) => document.getElementById('result')?.textContent === t, expected, { message: `${start}: ${expected}` });
  };

  before(async () => {
    f = await openFixture(ctx.env, 'refs.html');
    await f.page.waitFor(() => !!document.querySelector('x-frame')?.shadowRoot && !!document.getElementById('deep-root')?.shadowRoot, undefined, { message: 'the page to set up' });
  });
  after(async () => { await f?.page.close(); });

  it('gives the controls inside wired rows, trees, lists and columns their own refs, and the containers theirs', async () => {
    const o = await snapshot();
    expect(section(o, '- heading "Rows"', '- heading "Slots"')).to.deep.equal([
      '  - heading "Rows" [level=2]',
      '  - clickable "Jane Doe Admin" [ref]',
      '    - button "Delete Jane" [ref]',
      '  - clickable "Li Wei Editor" [ref]',
      '    - clickable hint="star" [ref]',
      '  - table',
      '    - row "Sam Roe" [ref]: button "Edit" [ref]',
      '  - heading "Tree" [level=2]',
      '  - tree "Files"',
      '    - treeitem "Documents" [expanded] [ref]',
      '      - treeitem "Reports" [ref]',
      '      - treeitem "Archive" [expanded] [ref]',
      '        - treeitem "Old taxes" [ref]',
      '  - heading "Suggestions" [level=2]',
      '  - combobox "City" value="Par" [expanded] [ref]',
      '  - listbox "Cities" [ref]',
      '    - option "Paris" [ref]',
      '    - option "Parma" [ref]',
      '  - combobox "Fruit" value="Ap" [expanded] [ref]',
      '  - listbox "Fruits" [ref]',
      '    - listitem "Apple" [ref]',
      '    - listitem "Apricot" [ref]',
      '  - textbox "Tag" value="re" [ref]',
      '  - list',
      '    - listitem "red" [ref]',
      '    - listitem "remote" [ref]',
      '  - heading "Board" [level=2]',
      '  - clickable "To do" [ref]',
      '    - heading "To do" [level=3]',
      '    - clickable "Write spec" [ref]',
      '    - clickable "Fix bug" [ref]',
      '  - clickable "Done" [ref]',
      '    - heading "Done" [level=3]',
      '    - clickable "Ship it" [ref]',
    ]);
    // Every ref names one element: containers and their controls are told apart.
    const refs = [...o.matchAll(/\[(e\d+)\]/g)].map((m) => m[1]);
    expect(new Set(refs).size).to.equal(refs.length);
  });

  it('clicks each container and each control inside it, and the page records which', async () => {
    const o = await snapshot();
    /** @type {[string, string][]} */
    const targets = [
      ['- clickable "Jane Doe Admin"', 'Clicked row Jane'],
      ['- button "Delete Jane"', 'Clicked delete Jane'],
      ['- clickable "Li Wei Editor"', 'Clicked row Li'],
      ['- clickable hint="star"', 'Clicked star Li'],
      ['- row "Sam Roe"', 'Clicked row Sam'],
      ['button "Edit"', 'Clicked edit Sam'],
      ['- treeitem "Documents"', 'Clicked tree Documents'],
      ['- treeitem "Reports"', 'Clicked tree Reports'],
      ['- treeitem "Archive"', 'Clicked tree Archive'],
      ['- treeitem "Old taxes"', 'Clicked tree Old taxes'],
      ['- option "Parma"', 'Clicked suggestion Parma'],
      ['- listitem "Apricot"', 'Clicked suggestion Apricot'],
      ['- listitem "remote"', 'Clicked suggestion remote'],
      ['- clickable "Write spec"', 'Clicked card Write spec'],
      ['- clickable "To do"', 'Clicked column To do'],
      ['- clickable "Ship it"', 'Clicked card Ship it'],
      ['- clickable "Done"', 'Clicked column Done'],
    ];
    for (const [start, expected] of targets) await clickAndSee(o, start, expected);
  });

  it('drags a card by its ref onto another column by the column\'s ref', async () => {
    const o = await snapshot();
    await ok(ctx.env, f.tabId, 'drag_drop', { from_ref: refIn(o, '- clickable "Fix bug"'), to_ref: refIn(o, '- clickable "Done"') });
    await f.page.waitFor(() => document.getElementById('result')?.textContent === 'Moved Fix bug to Done', undefined, { message: 'the card to move' });
    expect(await f.page.evaluate(() => [...document.querySelectorAll('#col-done .card')].map((c) => c.textContent))).to.deep.equal(['Ship it', 'Fix bug']);
    const after = await snapshot();
    expect(section(after, '- clickable "Done"', '- heading "Slots"')).to.deep.equal([
      '  - clickable "Done" [ref]', '    - heading "Done" [level=3]', '    - clickable "Ship it" [ref]', '    - clickable "Fix bug" [ref]',
    ]);
  });

  it('outlines slotted content once, under its slot, and acts on it', async () => {
    const o = await snapshot();
    expect(section(o, '- heading "Slots"', '- heading "Selects"')).to.deep.equal([
      '  - heading "Slots" [level=2]',
      '  - heading "Billing" [level=3]',
      '  - textbox "Note" [ref]',
      '  - button "VIP" [ref]',
      '  - button "Save" [ref]',
      '  - toolbar "Format"',
      '    - button "Bold" [ref]',
      '  - button "Close" [ref]',
      '  - button "Forwarded" [ref]',
    ]);
    for (const word of ['Billing', 'VIP', '"Save"', '"Bold"', 'Forwarded']) expect(o.split(word).length - 1, word).to.equal(1);
    await clickAndSee(o, '- button "Save"', 'Clicked slot save');
    await clickAndSee(o, '- button "Bold"', 'Clicked slot bold');
    await clickAndSee(o, '- button "VIP"', 'Clicked chip');
    await clickAndSee(o, '- button "Forwarded"', 'Clicked forwarded');
    await clickAndSee(o, '- button "Close"', 'Clicked panel close');
    await ok(ctx.env, f.tabId, 'type', { ref: refIn(o, '- textbox "Note"'), text: 'Pay by card' });
    expect(await f.page.evaluate(() => /** @type {HTMLInputElement} */ (document.getElementById('slot-note')).value)).to.equal('Pay by card');
  });

  it('shows the options of native selects, capped, with the selected and disabled ones marked', async () => {
    const o = await snapshot();
    expect(section(o, '- heading "Selects"', 'no change')).to.deep.equal([
      '  - heading "Selects" [level=2]',
      '  - combobox "Size" value="M" options: S | M [selected] | L | XL [disabled] [ref]',
      '  - combobox "Country" value="Portugal" options: Austria | Belgium | Bulgaria | Croatia | Cyprus | Czechia | Denmark | Estonia | Finland | France | … | Portugal [selected] | +14 more (select_option takes any label) [ref]',
      '  - listbox "Toppings" value="Cheese, Olives" options: Cheese [selected] | Ham | Olives [selected] | Onion [ref]',
      '  - combobox "Food" value="Pear" options: Fruit: Apple | Pear [selected] | Vegetables [disabled]: Carrot [ref]',
      '  - combobox "Person" value="John" options: John [selected] | Joanna | Mary [ref]',
    ]);
  });

  it('selects an option the line does not show, by its label, and refuses an ambiguous one', async () => {
    const o = await snapshot();
    await ok(ctx.env, f.tabId, 'select_option', { ref: refIn(o, '- combobox "Country"'), label: 'Slovenia' });
    expect(await f.page.text('#select-out')).to.equal('country: Slovenia');
    await ok(ctx.env, f.tabId, 'select_option', { ref: refIn(o, '- listbox "Toppings"'), labels: ['Ham', 'Onion'] });
    expect(await f.page.text('#select-out')).to.equal('toppings: Ham,Onion');
    const r = await tool(ctx.env, f.tabId, 'select_option', { ref: refIn(o, '- combobox "Person"'), label: 'Jo' });
    expect(r).to.include({ ok: false, code: 'AMBIGUOUS_OPTION' });
    expect(r.message).to.contain('"John"').and.to.contain('"Joanna"');
    expect(await f.page.text('#select-out')).to.equal('toppings: Ham,Onion');
    const after = await snapshot();
    expect(after).to.contain('| … | Slovenia [selected] | +14 more (select_option takes any label)');
    expect(after).to.contain('options: Cheese | Ham [selected] | Olives | Onion [selected]');
  });

  it('gives refs to a button and a field 50 shadow roots deep, and acts on them', async () => {
    const o = await snapshot();
    await clickAndSee(o, '- button "Deep button"', 'Clicked deep');
    await ok(ctx.env, f.tabId, 'type', { ref: refIn(o, '- textbox "Deep field"'), text: 'fifty' });
    await f.page.waitFor(() => document.getElementById('result')?.textContent === 'Clicked deep typed fifty', undefined, { message: 'the deep field to be typed into' });
  });
});
