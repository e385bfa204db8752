// Hard widgets (forms): real React and Vue inputs, a contenteditable editor, native select,
// an async ARIA combobox, date and range inputs, checkbox and radio groups, file upload, key presses.
// Each case acts through the tool runner and asserts the page's own state afterwards.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ok, openFixture, refOf, tool } from './harness/tools.js';

scenario('widgets: forms', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  const text = (/** @type {string} */ sel) => f.page.text(sel);
  before(async () => {
    f = await openFixture(ctx.env, 'widgets/forms.html');
    await f.page.waitFor(() => document.querySelector('#react-name') && document.querySelector('#vue-out') && !document.querySelector('#vue-root')?.textContent?.includes('{{'), undefined, { message: 'React and Vue to mount' });
  });
  after(async () => { await f?.page.close(); });

  it('types into a React controlled input and submits its form', async () => {
    const { env } = ctx;
    const name = await refOf(env, f.tabId, 'textbox', 'Full name');
    await ok(env, f.tabId, 'type', { ref: name, text: 'Ada Lovelace' });
    await ok(env, f.tabId, 'type', { ref: await refOf(env, f.tabId, 'textbox', 'Email'), text: 'ADA@Example.org' });
    expect(await text('#react-out')).to.equal('Ada Lovelace|ada@example.org');
    await ok(env, f.tabId, 'click', { text: 'Save profile' });
    expect(await f.page.evaluate(() => document.body.dataset.reactSubmitted)).to.equal('Ada Lovelace');
    // Typing again without clear appends, through React's state.
    await ok(env, f.tabId, 'type', { ref: name, text: ' II', clear: false });
    expect(await text('#react-out')).to.equal('Ada Lovelace II|ada@example.org');
  });

  it('queues two actions sent at once to the same tab, so their keystrokes never interleave', async () => {
    const { env } = ctx;
    const [a, b] = [await refOf(env, f.tabId, 'textbox', 'Full name'), await refOf(env, f.tabId, 'textbox', 'Email')];
    const [ra, rb] = await Promise.all([
      ok(env, f.tabId, 'type', { ref: a, text: 'first writer' }),
      ok(env, f.tabId, 'type', { ref: b, text: 'second@writer.example' }),
    ]);
    expect([ra.data.value, rb.data.value]).to.deep.equal(['first writer', 'second@writer.example']);
    expect(await text('#react-out')).to.equal('first writer|second@writer.example');
  });

  it('types into a Vue v-model input', async () => {
    const r = await ok(ctx.env, f.tabId, 'type', { ref: await refOf(ctx.env, f.tabId, 'textbox', 'City'), text: 'Trondheim' });
    expect(r.data.value).to.equal('Trondheim');
    expect(await text('#vue-out')).to.equal('Trondheim');
  });

  it('types into a contenteditable editor', async () => {
    await ok(ctx.env, f.tabId, 'type', { ref: await refOf(ctx.env, f.tabId, 'textbox', 'Message body'), text: 'Hello there' });
    expect(await text('#editor-out')).to.equal('Hello there');
  });

  it('selects in a native select by partial label, value and index', async () => {
    const { env } = ctx;
    const sel = await refOf(env, f.tabId, 'combobox', 'Country');
    await ok(env, f.tabId, 'select_option', { ref: sel, label: 'Norway' });
    expect(await text('#country-out')).to.equal('no');
    await ok(env, f.tabId, 'select_option', { ref: sel, value: 'jp' });
    expect(await text('#country-out')).to.equal('jp');
    await ok(env, f.tabId, 'select_option', { ref: sel, index: 1 });
    expect(await text('#country-out')).to.equal('fr');
    const bad = await tool(env, f.tabId, 'select_option', { ref: sel, label: 'Atlantis' });
    expect(bad).to.include({ ok: false, code: 'NO_SUCH_OPTION' });
    expect(bad.message).to.contain('"Japan"');
  });

  it('picks from an ARIA combobox whose options load asynchronously', async () => {
    const r = await ok(ctx.env, f.tabId, 'select_option', { ref: await refOf(ctx.env, f.tabId, 'combobox', 'Fruit'), label: 'Mango' });
    expect(r.data.selected).to.equal('Mango');
    expect(await text('#fruit-out')).to.equal('Mango');
  });

  it('sets date and range inputs, and rejects a malformed date', async () => {
    const { env } = ctx;
    await ok(env, f.tabId, 'set_field', { ref: await refOf(env, f.tabId, 'textbox', 'Start date'), value: '2026-03-14' });
    expect(await text('#start-out')).to.equal('2026-03-14');
    await ok(env, f.tabId, 'set_field', { ref: await refOf(env, f.tabId, 'slider', 'Volume'), value: '75' });
    expect(await text('#volume-out')).to.equal('75');
    const bad = await tool(env, f.tabId, 'set_field', { selector: '#start', value: '14/03/2026' });
    expect(bad).to.include({ ok: false, code: 'VALUE_REJECTED' });
  });

  it('checks and unchecks checkboxes, an ARIA checkbox and a radio group', async () => {
    const { env } = ctx;
    await ok(env, f.tabId, 'check', { ref: await refOf(env, f.tabId, 'checkbox', 'Cheese') });
    await ok(env, f.tabId, 'uncheck', { ref: await refOf(env, f.tabId, 'checkbox', 'Olives') });
    await ok(env, f.tabId, 'check', { ref: await refOf(env, f.tabId, 'radio', 'Large') });
    await ok(env, f.tabId, 'check', { ref: await refOf(env, f.tabId, 'checkbox', 'Extra napkins') });
    expect(await text('#choices-out')).to.equal('cheese|l|true');
    const again = await ok(env, f.tabId, 'check', { ref: await refOf(env, f.tabId, 'checkbox', 'Cheese') });
    expect(again.data.changed).to.equal(false);
    expect(await text('#choices-out')).to.equal('cheese|l|true');
  });

  it('checks styled checkboxes whose real input is hidden (display:none, 1 px and transparent)', async () => {
    const { env } = ctx;
    await ok(env, f.tabId, 'check', { text: 'Remember me' });
    await ok(env, f.tabId, 'check', { selector: '#news' });
    expect(await text('#account-out')).to.equal('true|true');
    await ok(env, f.tabId, 'uncheck', { selector: '#remember' });
    expect(await text('#account-out')).to.equal('false|true');
  });

  it('uploads a file given by content into a hidden file input', async () => {
    await ok(ctx.env, f.tabId, 'upload_file', { selector: 'input[type=file]', files: [{ name: 'notes.txt', content: 'remember the milk', mime_type: 'text/plain' }] });
    await f.page.waitFor(() => document.querySelector('#file-out')?.textContent, undefined, { message: 'the file to be read' });
    expect(await text('#file-out')).to.equal('notes.txt:remember the milk');
  });

  it('presses keys on a keyboard-driven listbox', async () => {
    const r = await ok(ctx.env, f.tabId, 'press_keys', { ref: await refOf(ctx.env, f.tabId, 'listbox', 'Key list'), keys: ['ArrowDown'], repeat: 2 });
    expect(r.ok).to.equal(true);
    await ok(ctx.env, f.tabId, 'press_keys', { keys: ['ArrowUp', 'Enter'] });
    // Chrome's keys come through CDP and are trusted; Firefox's are synthetic.
    expect(await text('#keys-out')).to.equal(ctx.kind === 'chromium' ? 'chose Two (trusted)' : 'chose Two');
  });
});
