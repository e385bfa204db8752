// The widgets still out of reach, on one page: two options with the same label (refused as
// ambiguous, chosen by value), a custom slider set by arrow keys, switches in a closed shadow root
// named where focus lands on them, a tree item named by its own label while its children load, and
// a click on a tree row delivered to the child under the pointer, and a canvas's fallback control
// in the outline and actionable by click and by Enter.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ok, openFixture, tool } from './harness/tools.js';
import { findRef } from '../fixtures/llm/conversation.js';

scenario('widgets: round 3', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  let outline = '';
  before(async () => {
    f = await openFixture(ctx.env, 'widgets/round3.html');
    outline = String((await ok(ctx.env, f.tabId, 'snapshot')).data);
  });
  after(async () => { await f?.page.close(); });

  it('refuses a label two options share as AMBIGUOUS_OPTION, naming their values; the value chooses', async () => {
    const { env } = ctx;
    const city = findRef(outline, 'combobox', 'City');
    const twin = await tool(env, f.tabId, 'select_option', { ref: city, label: 'Springfield' });
    expect(twin).to.include({ ok: false, code: 'AMBIGUOUS_OPTION' });
    expect(twin.message).to.contain('"il"').and.contain('"mo"');
    await ok(env, f.tabId, 'select_option', { ref: city, value: 'mo' });
    expect(await f.page.evaluate(() => /** @type {HTMLSelectElement} */ (document.getElementById('city')).value)).to.equal('mo');
  });

  it('sets a custom slider by arrow keys, both ways, and says what a slider takes', async () => {
    const { env } = ctx;
    const slider = findRef(outline, 'slider', 'Volume');
    const up = await ok(env, f.tabId, 'set_field', { ref: slider, value: '35' });
    expect(up.data).to.include({ value: '35', by: 'arrow keys' });
    expect(await f.page.text('#volume')).to.equal('35');
    await ok(env, f.tabId, 'set_field', { ref: slider, value: '10' });
    expect(await f.page.text('#volume')).to.equal('10');
    const off = await tool(env, f.tabId, 'set_field', { ref: slider, value: '12' });
    expect(off).to.include({ ok: false, code: 'VALUE_REJECTED' });
    expect(off.message).to.contain('arrow keys');
    const word = await tool(env, f.tabId, 'set_field', { ref: slider, value: 'loud' });
    expect(word).to.include({ ok: false, code: 'INVALID_ARGUMENTS' });
  });

  it('names the switches of a closed shadow root in the outline and where focus lands', async () => {
    const { env } = ctx;
    expect(outline, outline).to.match(/- switch "Wi-Fi"/).and.match(/- switch "Airplane mode"/);
    const wifi = await ok(env, f.tabId, 'click', { ref: findRef(outline, 'switch', 'Wi-Fi') });
    expect(String(wifi.data.effects?.focus), JSON.stringify(wifi.data)).to.contain('Wi-Fi');
    if (ctx.kind === 'chromium') {
      // A trusted Tab moves focus on to the next switch (Firefox's synthetic keys move no focus).
      const tab = await ok(env, f.tabId, 'press_keys', { keys: ['Tab'] });
      expect(String(tab.data.effects?.focus)).to.contain('Bluetooth');
    }
  });

  it('names a tree item by its own label while its children load', () => {
    expect(outline).to.match(/- treeitem "Documents"/);
    expect(outline).to.not.match(/treeitem "Documents Loading/);
  });

  it('delivers a click on a tree row to what is under the pointer (the row\'s listener sits on a child)', async () => {
    const { env } = ctx;
    await ok(env, f.tabId, 'click', { ref: findRef(outline, 'treeitem', 'Archive') });
    const selected = await f.page.evaluate(() => [...document.querySelectorAll('[aria-label="Mail folders"] [role=treeitem]')].map((r) => r.getAttribute('aria-selected')));
    expect(selected).to.deep.equal(['false', 'true']);
  });

  it('lists a canvas\'s fallback control with a ref, and a click and Enter each start the game once', async () => {
    const { env } = ctx;
    const start = findRef(outline, 'button', 'Start game');
    const r = await ok(env, f.tabId, 'click', { ref: start });
    expect(await f.page.text('#starts'), JSON.stringify(r)).to.equal('1');
    await ok(env, f.tabId, 'press_keys', { keys: ['Enter'] });
    expect(await f.page.text('#starts')).to.equal('2');
  });
});
