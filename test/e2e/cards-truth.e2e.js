// Cards a person can judge (docs/SECURITY.md), in both browsers through the real panel: a write with
// forty fields shows every one (the list scrolls), the field the agent typed first; what "Allow for
// this task" covers is written under the buttons; a binary body is said to be unreadable, with its
// size and type, at high severity; a payee that imitates the one the user named is warned about.
// What the user declines never reaches the fixture server; what they allow does.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { scenario } from './harness/scenario.js';
import { openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { findRef, lastToolResult, toolResults } from '../fixtures/llm/conversation.js';

/** @import { Driver } from './harness/driver.js' */

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe (WCAG A and AA) on the pending card: names, contrast, the scrollable list reachable by keyboard. @param {Driver} panel */
async function axeCard(panel) {
  if (!(await panel.evaluate(() => 'axe' in window))) await /** @type {any} */ (panel.page).evaluate(`${AXE}\n;void 0`);
  return panel.evaluate(async () => {
    const r = await /** @type {any} */ (window).axe.run(document.querySelector('.card.confirm.pending'), { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] }, resultTypes: ['violations'] });
    return r.violations.map((/** @type {any} */ v) => `${v.id}: ${v.nodes.map((/** @type {any} */ n) => n.target.join(' ')).join(', ')}`);
  });
}

/**
 * @typedef {object} CardView
 * @property {string} id the card's own (its aria-labelledby)
 * @property {string} rule
 * @property {string} severity
 * @property {string} text
 * @property {string[]} labels the field names, in the order shown
 * @property {string[]} values
 * @property {string} scope the line under the buttons ('' when none)
 * @property {boolean} scrolls the field list is taller than its box
 * @property {boolean} lastVisible the last field is inside the box once scrolled to the end
 * @property {boolean} focusable the list can be scrolled by keyboard (it takes focus)
 */

/**
 * Wait for a pending card other than the ones already answered and read it as a person sees it.
 * The answered ones are left out by their id: on a loaded machine the card answered a moment ago
 * could still be a pending one in the panel when the next read came (Firefox once read the sync
 * card again as the payment's, whose lookalike line it lacks).
 * @param {Driver} panel @param {string[]} answered the cards' ids (their aria-labelledby)
 * @returns {Promise<CardView>}
 */
async function readCard(panel, answered) {
  return /** @type {CardView} */ (await panel.waitFor((done) => {
    const c = /** @type {HTMLElement | undefined} */ ([...document.querySelectorAll('.card.confirm.pending')].find((e) => !done.includes(e.getAttribute('aria-labelledby') ?? '')));
    if (!c) return null;
    const dl = /** @type {HTMLElement | null} */ (c.querySelector('.confirm-fields'));
    const dts = [...c.querySelectorAll('.confirm-details dt')];
    let lastVisible = false;
    if (dl && dts.length) {
      dl.scrollTop = dl.scrollHeight;
      const box = dl.getBoundingClientRect();
      const last = dts[dts.length - 1].getBoundingClientRect();
      lastVisible = last.top >= box.top - 1 && last.bottom <= box.bottom + 1;
    }
    return {
      id: c.getAttribute('aria-labelledby') ?? '',
      rule: c.dataset.rule ?? '', severity: c.dataset.severity ?? '', text: c.textContent ?? '',
      labels: dts.map((d) => d.textContent ?? ''), values: [...c.querySelectorAll('.confirm-details dd')].map((d) => d.textContent ?? ''),
      scope: c.querySelector('.confirm-scope')?.textContent ?? '',
      scrolls: Boolean(dl && dl.scrollHeight > dl.clientHeight), lastVisible, focusable: Boolean(dl && dl.tabIndex === 0 && dl.getAttribute('aria-label')),
    };
  }, answered, { message: 'a confirmation card' }));
}

/**
 * Answer the card read last, and wait until the panel shows it answered.
 * @param {Driver} panel @param {CardView} card @param {'yes' | 'task' | 'no'} answer @param {string[]} answered its id is added
 */
async function answer(panel, card, answer, answered) {
  const mine = `.card.confirm[aria-labelledby="${card.id}"]`;
  await panel.click(`${mine}.pending .confirm-${answer}`);
  await panel.waitFor((sel) => Boolean(document.querySelector(`${sel}:not(.pending)`)) && !document.querySelector(`${sel}.pending`), mine, { message: 'the card to be answered' });
  answered.push(card.id);
}

scenario('cards tell the truth', (ctx) => {
  it('every field (typed first, scrolling), the task scope line, an unreadable body and a lookalike payee', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    /** @param {any} req @param {string} role @param {string} name */
    const ref = (req, role, name) => findRef(toolResults(req.body)[0], role, name);
    /** @param {any} req @param {RegExp} ok */
    const expectLast = (req, ok) => { const r = lastToolResult(req.body); if (!ok.test(r)) throw new Error(r); };
    env.llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (req) => ({ toolCalls: [{ name: 'type', args: { ref: ref(req, 'textbox', 'Forwarding address'), text: 'fwd@mail.test' } }] }),
      (req) => ({ toolCalls: [{ name: 'click', args: { ref: ref(req, 'button', 'Save settings') } }] }),
      (req) => { expectLast(req, /^(?!Error)/); return { toolCalls: [{ name: 'click', args: { ref: ref(req, 'button', 'Sync now') } }] }; },
      (req) => { expectLast(req, /^Error USER_DECLINED/); return { toolCalls: [{ name: 'type', args: { ref: ref(req, 'textbox', 'Payee'), text: 'PAYEE-1O5' } }] }; },
      (req) => ({ toolCalls: [{ name: 'click', args: { ref: ref(req, 'button', 'Pay') } }] }),
      (req) => { expectLast(req, /^Error USER_DECLINED/); return { text: 'Saved the forwarding address; the sync and the payment were declined.' }; },
    ]);
    const { page, panel } = await openPageWithPanel(env, 'cards-truth.html');
    const before = env.site.writes.length;
    try {
      await sendFromPanel(panel, 'Set my forwarding address to fwd@mail.test, sync, then pay 40 EUR to PAYEE-105', 'act');

      /** @type {string[]} */
      const answered = [];
      const settings = await readCard(panel, answered);
      expect(settings.rule).to.equal('server_write');
      expect(settings.labels).to.have.length(40);
      expect(settings.labels[0]).to.equal('setting_37');
      expect(settings.values[0]).to.contain('fwd@mail.test').and.contain('typed by the agent');
      expect(settings.labels).to.include.members(['setting_1', 'setting_36', 'setting_38', 'setting_40']);
      expect(settings.text).to.not.match(/more$|…: \d+ more/);
      expect(settings.scrolls, 'the field list scrolls').to.equal(true);
      expect(settings.lastVisible, 'the last field can be scrolled into view').to.equal(true);
      expect(settings.focusable, 'the list is named and takes focus').to.equal(true);
      expect(settings.scope).to.contain('POST').and.contain('/api/settings').and.contain('setting_37').and.contain('nothing more severe');
      expect(await axeCard(panel)).to.deep.equal([]);
      await answer(panel, settings, 'task', answered);

      const sync = await readCard(panel, answered);
      expect(sync.severity).to.equal('high');
      expect(sync.text).to.contain('Unreadable').and.contain('bytes');
      expect(sync.text).to.not.contain('\ufffd');
      expect(await axeCard(panel)).to.deep.equal([]);
      await answer(panel, sync, 'no', answered);

      const pay = await readCard(panel, answered);
      expect(pay.severity).to.equal('high');
      expect(pay.text).to.contain('Looks like “PAYEE-105”');
      expect(pay.values.find((v) => v.startsWith('PAYEE-1O5'))).to.contain('from the page');
      expect(await axeCard(panel)).to.deep.equal([]);
      await answer(panel, pay, 'no', answered);

      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      await page.waitFor(() => document.getElementById('saved')?.textContent === 'done', undefined, { message: 'the settings to be saved' });
      const arrived = env.site.writes.slice(before);
      expect(arrived.map((w) => `${w.method} ${w.path}`)).to.deep.equal(['POST /api/settings']);
      expect(new URLSearchParams(arrived[0].body).get('setting_37')).to.equal('fwd@mail.test');
    } catch (err) {
      console.log(JSON.stringify(await panel.evaluate(() => [...document.querySelectorAll('#log > *')].map((e) => e.className + ': ' + (e.textContent ?? '').slice(0, 400))), null, 1), env.llm.problems, env.site.writes.slice(before));
      throw err;
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
