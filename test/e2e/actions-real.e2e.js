// Actions on real-world widgets, in Chromium (trusted CDP input) and Firefox
// (synthetic events): several options of a <select multiple> and ambiguous labels, scrolling an app's
// main pane when the document does not scroll, uploads through a label or a styled button, a click
// right after a hover whose tooltip briefly covers the target, targets 50 shadow roots deep, a
// pointer-capture sortable list, and selecting text with keys to format part of a rich-text field.
// Every case asserts the page's own state afterwards.
import { expect } from 'chai';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scenario } from './harness/scenario.js';
import { ok, openFixture, tool } from './harness/tools.js';

scenario('actions: real pages', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  const text = (/** @type {string} */ sel) => f.page.text(sel);
  before(async () => {
    f = await openFixture(ctx.env, 'widgets/actions-real.html');
    await f.page.waitFor(() => !!document.querySelector('#deep-root')?.shadowRoot && !!document.querySelector('#team'), undefined, { message: 'the page to set up' });
  });
  after(async () => { await f?.page.close(); });

  it('selects several options of a <select multiple>, replacing the selection, with one input and one change event', async () => {
    const { env } = ctx;
    const r = await ok(env, f.tabId, 'select_option', { selector: '#team', labels: ['John', 'Ann'] });
    // "Ann" is exactly an option: it wins over "Anna", which it is part of; Mary (selected before) is deselected.
    expect(await text('#team-out')).to.equal('john,ann');
    expect(await text('#team-events')).to.equal('input:1,change:1');
    expect(r.data.selected).to.deep.equal(['John', 'Ann']);
    await ok(env, f.tabId, 'select_option', { selector: '#team', values: ['peter', 'anna'] });
    expect(await text('#team-out')).to.equal('anna,peter');
    expect(await text('#team-events')).to.equal('input:2,change:2');
  });

  it('refuses a label that matches several options and none exactly, naming the candidates', async () => {
    const { env } = ctx;
    const r = await tool(env, f.tabId, 'select_option', { selector: '#team', label: 'Jo' });
    expect(r).to.include({ ok: false, code: 'AMBIGUOUS_OPTION' });
    expect(r.message).to.contain('"John"').and.to.contain('"Joanna"');
    const many = await tool(env, f.tabId, 'select_option', { selector: '#team', labels: ['Mary', 'Jo'] });
    expect(many).to.include({ ok: false, code: 'AMBIGUOUS_OPTION' });
    // Nothing changed on the page.
    expect(await text('#team-out')).to.equal('anna,peter');
    expect(await text('#team-events')).to.equal('input:2,change:2');
    const off = await tool(env, f.tabId, 'select_option', { selector: '#team', labels: ['Zed'] });
    expect(off).to.include({ ok: false, code: 'DISABLED' });
  });

  it('scrolls the main pane of an app layout whose document does not scroll', async () => {
    const { env } = ctx;
    await f.page.evaluate(() => { /** @type {HTMLElement} */ (document.querySelector('#pane')).scrollTop = 0; });
    const r = await ok(env, f.tabId, 'scroll', { direction: 'down', amount: 600 });
    expect(r.data.container).to.contain('main#pane');
    const state = await f.page.evaluate(() => ({ pane: /** @type {HTMLElement} */ (document.querySelector('#pane')).scrollTop, nav: /** @type {HTMLElement} */ (document.querySelector('#nav')).scrollTop, page: scrollY }));
    expect(state).to.deep.equal({ pane: 600, nav: 0, page: 0 });
    expect(r.data.scrollY).to.equal(600);
    const end = await ok(env, f.tabId, 'scroll', { to: 'bottom' });
    expect(end.data.atEnd).to.equal(true);
    expect(await f.page.evaluate(() => { const p = /** @type {HTMLElement} */ (document.querySelector('#pane')); return p.scrollHeight - p.clientHeight - p.scrollTop; })).to.be.below(2);
    await ok(env, f.tabId, 'scroll', { to: 'top' });
    const found = await ok(env, f.tabId, 'scroll', { until_text: 'End of the report' });
    expect(found.data.found).to.equal('End of the report');
    expect(await f.page.evaluate(() => { const r = /** @type {Element} */ (document.querySelector('#report-end')).getBoundingClientRect(); return r.top > 0 && r.bottom < innerHeight; })).to.equal(true);
  });

  it('uploads through the visible label of a hidden file input', async () => {
    const { env } = ctx;
    if (ctx.kind === 'chromium') {
      // Chrome: a real file from disk, through CDP DOM.setFileInputFiles.
      const dir = await mkdtemp(join(tmpdir(), 'tw-upload-'));
      const path = join(dir, 'cat.txt');
      await writeFile(path, 'a photo of a cat');
      try {
        const r = await ok(env, f.tabId, 'upload_file', { text: 'Choose photo', files: [{ path }] });
        expect(r.data.files).to.deep.equal(['cat.txt']);
      } finally { await rm(dir, { recursive: true, force: true }); }
    } else {
      // Firefox cannot read files by path: it says so, then takes the file's content (DataTransfer).
      const r = await tool(env, f.tabId, 'upload_file', { text: 'Choose photo', files: [{ path: '/tmp/cat.txt' }] });
      expect(r).to.include({ ok: false, code: 'UNSUPPORTED' });
      await ok(env, f.tabId, 'upload_file', { text: 'Choose photo', files: [{ name: 'cat.txt', content: 'a photo of a cat', mime_type: 'text/plain' }] });
    }
    await f.page.waitFor(() => document.querySelector('#photo-out')?.textContent, undefined, { message: 'the change handler to read the file' });
    expect(await text('#photo-out')).to.equal('cat.txt:16:a photo of a cat');
  });

  it('uploads through a styled button that opens a file input elsewhere from script', async () => {
    const { env } = ctx;
    const r = await ok(env, f.tabId, 'upload_file', { text: 'Upload document', files: [{ name: 'report.csv', content: 'a,b\n1,2', mime_type: 'text/csv' }] });
    expect(r.data.files).to.deep.equal([{ name: 'report.csv', size: 7 }]);
    await f.page.waitFor(() => document.querySelector('#doc-out')?.textContent, undefined, { message: 'the change handler to read the file' });
    expect(await text('#doc-out')).to.equal('report.csv:7:a,b\n1,2');
    // The one the button opens was filled, not the other spare input beside it.
    expect(await f.page.evaluate(() => [/** @type {HTMLInputElement} */ (document.querySelector('#doc-input')).files?.length, /** @type {HTMLInputElement} */ (document.querySelector('#avatar-input')).files?.length])).to.deep.equal([1, 0]);
    if (ctx.kind === 'chromium') {
      // By path too, through the same button.
      const dir = await mkdtemp(join(tmpdir(), 'tw-upload-'));
      const path = join(dir, 'notes.txt');
      await writeFile(path, 'by path');
      try { await ok(env, f.tabId, 'upload_file', { text: 'Upload document', files: [{ path }] }); } finally { await rm(dir, { recursive: true, force: true }); }
      await f.page.waitFor(() => document.querySelector('#doc-out')?.textContent?.startsWith('notes.txt'), undefined, { message: 'the second file' });
      expect(await text('#doc-out')).to.equal('notes.txt:7:by path');
    }
  });

  it('refuses to upload through a button that opens no file chooser', async () => {
    const r = await tool(ctx.env, f.tabId, 'upload_file', { text: 'Preview', files: [{ name: 'x.txt', content: 'x' }] });
    expect(r).to.include({ ok: false, code: 'NOT_FILE_INPUT' });
    expect(await f.page.evaluate(() => /** @type {HTMLInputElement} */ (document.querySelector('#avatar-input')).files?.length)).to.equal(0);
  });

  it('clicks right after a hover whose tooltip covers the target until the pointer leaves', async () => {
    const { env } = ctx;
    // The target in the middle of the pane, so acting on it scrolls nothing (which would move the pointer off Help by itself).
    await f.page.evaluate(() => document.querySelector('#save')?.scrollIntoView({ block: 'center' }));
    await ok(env, f.tabId, 'hover', { text: 'Help ⓘ' });
    expect(await f.page.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#tip')).hidden)).to.equal(false);
    const r = await ok(env, f.tabId, 'click', { text: 'Save draft' });
    expect(r.data.clicked).to.contain('Save draft');
    expect(await text('#save-out')).to.equal('saved');
    expect(await f.page.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#tip')).hidden)).to.equal(true);
  });

  it('still refuses with COVERED when the hover menu stays open over the target', async () => {
    const { env } = ctx;
    await f.page.evaluate(() => document.querySelector('#delete')?.scrollIntoView({ block: 'center' }));
    await ok(env, f.tabId, 'hover', { text: 'Account ▾' });
    const r = await tool(env, f.tabId, 'click', { text: 'Delete account' });
    expect(r).to.include({ ok: false, code: 'COVERED' });
    expect(r.message).to.contain('div#acct').and.to.contain('Sign out');
    expect(await text('#delete-out')).to.equal('');
    // Moving away closes the menu; then the click goes through.
    await ok(env, f.tabId, 'hover', { text: 'Help ⓘ' });
    await ok(env, f.tabId, 'hover', { text: 'Team' });
    await f.page.waitFor(() => /** @type {HTMLElement} */ (document.querySelector('#acct-menu')).hidden, undefined, { message: 'the menu to close' });
    await ok(env, f.tabId, 'click', { text: 'Delete account' });
    expect(await text('#delete-out')).to.equal('deleted');
  });

  it('clicks and types 50 shadow roots deep, by text and by selector', async () => {
    const { env } = ctx;
    const depth = await f.page.evaluate(() => {
      let n = 0;
      for (let el = /** @type {Element | null} */ (document.querySelector('#deep-root')); el?.shadowRoot; el = el.shadowRoot.querySelector('.host') ?? null) n++;
      return n;
    });
    expect(depth).to.equal(50);
    await ok(env, f.tabId, 'click', { text: 'Deep button' });
    await ok(env, f.tabId, 'click', { selector: '#deep-btn' });
    expect(await text('#deep-out')).to.equal(ctx.kind === 'chromium' ? 'clicked(trusted);clicked(trusted);' : 'clicked;clicked;');
    const r = await ok(env, f.tabId, 'type', { selector: '#deep-input', text: 'fifty deep' });
    expect(r.data.value).to.equal('fifty deep');
    expect(await text('#deep-typed')).to.equal('fifty deep');
  });
});

scenario('actions: pointer-capture sortable list', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  const text = (/** @type {string} */ sel) => f.page.text(sel);
  before(async () => { f = await openFixture(ctx.env, 'widgets/sortable.html'); });
  after(async () => { await f?.page.close(); });

  /** Just inside the top edge of a row, in viewport pixels. @param {string} name */
  const topOf = (name) => f.page.evaluate((n) => {
    const li = [...document.querySelectorAll('li')].find((l) => l.textContent?.replace('⠿', '').trim() === n);
    const r = /** @type {Element} */ (li).getBoundingClientRect();
    return { x: Math.round(r.left + r.width / 2), y: Math.round(r.top + 3) };
  }, name);

  it('reorders a list that captures the pointer, delivering moves and release to the captured item', async () => {
    const { env } = ctx;
    const to = await topOf('Apples');
    const r = await ok(env, f.tabId, 'drag_drop', { from_text: 'Cherries', to_x: to.x, to_y: to.y });
    expect(r.data.kind).to.equal('pointer');
    expect(await text('#tasks-order')).to.equal('Cherries,Apples,Bananas,Dates');
    // The page saw its own capture, and every move and the release carried the pressed pointer's id and buttons.
    expect(await text('#tasks-log')).to.equal('moves:true;captured:true;bad:');
  });

  it('fails with DRAG_NO_EFFECT when the drag moved nothing, then drags by the handle', async () => {
    const { env } = ctx;
    const to = await topOf('Wash');
    const r = await tool(env, f.tabId, 'drag_drop', { from_text: 'Dry', to_x: to.x, to_y: to.y });
    expect(r).to.include({ ok: false, code: 'DRAG_NO_EFFECT' });
    expect(await text('#steps-order')).to.equal('Wash,Dry,Fold');
    await ok(env, f.tabId, 'drag_drop', { from_text: 'Handle 3', to_x: to.x, to_y: to.y });
    expect(await text('#steps-order')).to.equal('Fold,Wash,Dry');
    expect(await f.page.evaluate(() => [...document.querySelectorAll('#steps li')].map((li) => li.textContent?.replace('⠿', '').trim()).join(','))).to.equal('Fold,Wash,Dry');
  });
});

scenario('actions: selecting text with keys', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  before(async () => { f = await openFixture(ctx.env, 'widgets/richtext.html'); });
  after(async () => { await f?.page.close(); });

  /** @param {string} sel */
  const selection = (sel) => f.page.evaluate((s) => {
    const el = /** @type {HTMLInputElement} */ (document.querySelector(s));
    return { value: el.value, start: el.selectionStart, end: el.selectionEnd, selected: el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0) };
  }, sel);

  it('selects with Shift+arrows, Home/End and Control+A in a text input', async () => {
    const { env } = ctx;
    await ok(env, f.tabId, 'type', { selector: '#title', text: 'Hello world' });
    const r = await ok(env, f.tabId, 'press_keys', { keys: ['Shift+ArrowLeft'], repeat: 5 });
    expect(r.data.selected).to.equal('world');
    expect(await selection('#title')).to.include({ start: 6, end: 11, selected: 'world' });
    await ok(env, f.tabId, 'press_keys', { keys: ['Home', 'Shift+ArrowRight', 'Shift+ArrowRight'] });
    expect(await selection('#title')).to.include({ start: 0, end: 2, selected: 'He' });
    await ok(env, f.tabId, 'press_keys', { keys: ['End', 'Shift+Home'] });
    expect(await selection('#title')).to.include({ start: 0, end: 11 });
    await ok(env, f.tabId, 'press_keys', { keys: ['Home', 'Shift+End'] });
    expect(await selection('#title')).to.include({ start: 0, end: 11 });
    // Typing replaces the selection; Control+A then Backspace empties the field.
    await ok(env, f.tabId, 'press_keys', { keys: ['End', 'Control+Shift+ArrowLeft', 'W', 'o', 'r', 'l', 'd'] });
    expect(await selection('#title')).to.include({ value: 'Hello World' });
    await ok(env, f.tabId, 'press_keys', { keys: ['Control+A'] });
    expect(await selection('#title')).to.include({ start: 0, end: 11 });
    await ok(env, f.tabId, 'press_keys', { keys: ['Backspace'] });
    expect(await selection('#title')).to.include({ value: '' });
  });

  it('selects a line of a textarea with Shift+Home', async () => {
    const { env } = ctx;
    await ok(env, f.tabId, 'type', { selector: '#notes', text: 'first line\nsecond line' });
    await ok(env, f.tabId, 'press_keys', { keys: ['Shift+Home'] });
    expect(await selection('#notes')).to.include({ selected: 'second line' });
    await ok(env, f.tabId, 'press_keys', { keys: ['Control+A'] });
    expect(await selection('#notes')).to.include({ selected: 'first line\nsecond line' });
  });

  it('leaves the selection alone when the page prevents the keys', async () => {
    const { env } = ctx;
    await ok(env, f.tabId, 'click', { selector: '#code' });
    await ok(env, f.tabId, 'press_keys', { keys: ['End', 'Shift+ArrowLeft', 'Shift+ArrowLeft'] });
    expect(await selection('#code')).to.include({ start: 6, end: 6 });
  });

  it('selects a word in a contenteditable with Control+Shift+ArrowLeft, and Control+B makes only it bold', async () => {
    const { env } = ctx;
    await ok(env, f.tabId, 'type', { selector: '#editor', text: 'Hello world' });
    const r = await ok(env, f.tabId, 'press_keys', { keys: ['Control+Shift+ArrowLeft'] });
    expect(r.data.selected).to.equal('world');
    expect(await f.page.evaluate(() => String(getSelection()))).to.equal('world');
    await ok(env, f.tabId, 'press_keys', { keys: ['Control+B'] });
    const html = await f.page.evaluate(() => {
      const ed = /** @type {HTMLElement} */ (document.querySelector('#editor'));
      return { text: ed.textContent?.replace(/\u00a0/g, ' '), bold: [...ed.querySelectorAll('b, strong')].map((b) => b.textContent), mirror: document.querySelector('#editor-html')?.textContent };
    });
    expect(html.text).to.equal('Hello world');
    expect(html.bold).to.deep.equal(['world']);
    expect(html.mirror).to.match(/<b>world<\/b>$/);
  });

  it('selects the line with Shift+Home in a contenteditable, and Control+A selects the whole editor', async () => {
    const { env } = ctx;
    await ok(env, f.tabId, 'press_keys', { keys: ['End', 'Shift+Home'] });
    expect(await f.page.evaluate(() => String(getSelection()).replace(/\u00a0/g, ' '))).to.equal('Hello world');
    await ok(env, f.tabId, 'press_keys', { keys: ['ArrowRight', 'Control+A'] });
    expect(await f.page.evaluate(() => String(getSelection()).replace(/\u00a0/g, ' '))).to.equal('Hello world');
    await ok(env, f.tabId, 'press_keys', { keys: ['Control+I'] });
    // Every letter is in italics now, "world" still bold as well.
    const italic = await f.page.evaluate(() => {
      const ed = /** @type {HTMLElement} */ (document.querySelector('#editor'));
      const walk = document.createTreeWalker(ed, NodeFilter.SHOW_TEXT);
      const runs = [];
      for (let n = walk.nextNode(); n; n = walk.nextNode()) if (n.textContent?.trim()) runs.push({ text: n.textContent.trim(), italic: !!n.parentElement?.closest('i, em'), bold: !!n.parentElement?.closest('b, strong') });
      return runs;
    });
    expect(italic.every((r) => r.italic), JSON.stringify(italic)).to.equal(true);
    expect(italic.filter((r) => r.bold).map((r) => r.text).join('')).to.equal('world');
  });
});
