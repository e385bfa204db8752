// Clicks that report the truth: a wizard dialog in an open shadow root inside a frame re-renders on
// every step, so the button a press landed on is gone by the time the click is reported. Each
// click answers ok with what it did (never a false STALE_REF that invites a second press), and
// each step is counted once by the page.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ok, openFixture } from './harness/tools.js';
import { findRef } from '../fixtures/llm/conversation.js';

scenario('widgets: clicks on what re-renders', (ctx) => {
  /** @type {Awaited<ReturnType<typeof openFixture>>} */
  let f;
  before(async () => { f = await openFixture(ctx.env, 'widgets/shadow-modal.html'); });
  after(async () => { await f?.page.close(); });

  /** How many steps the frame's page counted. */
  async function steps() {
    const raw = /** @type {any} */ (f.page.page);
    const frame = raw.frames().find((/** @type {any} */ fr) => fr.url().includes('shadow-modal-frame.html'));
    return Number(await frame.evaluate(() => document.body.dataset.steps));
  }

  it('answers each click on a re-rendering dialog in a shadow root in a frame with its effects, and the page counts each once', async () => {
    const { env } = ctx;
    const raw = /** @type {any} */ (f.page.page);
    await f.page.waitFor(() => document.querySelector('iframe')?.contentDocument?.querySelector('#host')?.shadowRoot?.querySelector('button') !== null, undefined, { message: 'the wizard' });
    expect(raw.frames().length).to.be.at.least(2);
    for (const [i, name, next] of /** @type {const} */ ([[1, 'Next', 'Step 2: card'], [2, 'Next', 'Step 3: confirm'], [3, 'Pay now', 'Paid']])) {
      const outline = String((await ok(env, f.tabId, 'snapshot')).data);
      const ref = findRef(outline, 'button', name);
      expect(ref, outline).to.match(/^f\d+:e\d+$/);
      const r = await ok(env, f.tabId, 'click', { ref });
      expect(await steps(), JSON.stringify(r.data)).to.equal(i);
      expect(JSON.stringify(r.data.effects ?? {})).to.contain(next);
    }
  });
});
