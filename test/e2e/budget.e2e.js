// Cost in view and capped, through the real panel: a run whose next model call would pass its
// budget pauses before the call with the reason, Continue with a raised cap finishes it, and the
// tokens and cost shown are what the mock server reported; a scheduled job at the day's budget
// waits the same way and the jobs page says why; Settings → Budget shows the cap and the day's spending.
// Ask mode throughout (no settle period to wait out).
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';

/** @param {import('./harness/driver.js').Driver} panel @param {string} status @returns {Promise<any>} */
const budgetCard = (panel, status) => panel.waitFor((s) => {
  const card = /** @type {HTMLElement | null} */ (document.querySelector(`#log .card.budget[data-status=${s}]`));
  return card ? { ...card.dataset, text: card.querySelector('.budget-why')?.textContent ?? '', title: card.querySelector('.card-title')?.textContent ?? '', value: /** @type {HTMLInputElement | null} */ (card.querySelector('.budget-input'))?.value ?? null, status: document.querySelector('#status')?.textContent } : null;
}, status, { message: `a ${status} budget card` });

/** @param {import('./harness/driver.js').Driver} panel @param {string} amount */
async function raiseTo(panel, amount) {
  await panel.fill('#log .card.budget.pending .budget-input', amount);
  await panel.click('#log .card.budget.pending .budget-continue');
}

scenario('budget', (ctx) => {
  it('pauses a run before the call that would pass its budget, says why, goes on with a raised cap, and shows the tokens the server reported; a job at the day\'s budget waits and the jobs page says why', async () => {
    const { env } = ctx;
    await useMockProvider(env, { pricing: { input: 3, output: 15 } });
    const set = (/** @type {any} */ budget) => ask(env.control, { type: 'settings.set', settings: { budget } });
    expect((await set({ run: { unit: 'tokens', amount: 40_000 } })).ok).to.equal(true);
    env.llm.script([
      { toolCalls: [{ name: 'read_page', args: {} }], usage: { prompt_tokens: 50_000, completion_tokens: 40 } },
      { text: 'Alan Stevenson built it.', usage: { prompt_tokens: 52_000, completion_tokens: 60 } },
      { text: 'The job read it.', usage: { prompt_tokens: 1_000, completion_tokens: 10 } },
    ]);
    const { page, panel, tabId } = await openPageWithPanel(env, 'article.html');
    /** @type {import('./harness/driver.js').Driver | null} */
    let jobsPage = null;
    /** @type {import('./harness/driver.js').Driver | null} */
    let settingsPage = null;
    /** @type {string | null} */
    let jobId = null;
    try {
      await sendFromPanel(panel, 'Who built the lighthouse?', 'ask');
      // The first call fit; its 50,040 tokens passed the 40,000-token budget, so the second waits, unsent.
      const paused = await budgetCard(panel, 'pending');
      expect(env.llm.requests).to.have.length(1);
      expect(paused).to.deep.include({ scope: 'run', unit: 'tokens', used: '50040', cap: '40000', title: 'Paused at this run\'s budget' });
      expect(Number(paused.next)).to.be.greaterThan(0);
      expect(paused.text).to.equal(`This run has used 50,040 tokens of its 40,000 tokens budget; the next model call would add about ${Number(paused.next).toLocaleString('en')} tokens.`);
      expect(paused.status).to.equal('Waiting for you: answer the card above.');
      // The footer shows the run's figures while it waits: the server's count, money at the entered price.
      const waiting = /** @type {any} */ (await panel.waitFor(() => {
        const el = /** @type {HTMLElement} */ (document.querySelector('#run-cost'));
        return el.dataset.paused === 'true' ? { ...el.dataset, text: el.textContent, hidden: el.hidden } : null;
      }, undefined, { message: 'the run\'s cost to show the pause' }));
      expect(waiting).to.deep.include({ tokens: '50040', input: '50000', output: '40', estimated: 'false', hidden: false });
      expect(waiting.text).to.equal('This run: 50,040 tokens · $0.1506 of a 40,000 tokens budget');

      // A cap below what the call needs is refused in words; a raised one lets the run finish.
      await raiseTo(panel, '40001');
      await panel.waitFor(() => Boolean(document.querySelector('#log .card.budget.pending .budget-problem')?.textContent), undefined, { message: 'the low cap refused' });
      expect(env.llm.requests).to.have.length(1);
      await raiseTo(panel, '200000');
      const items = await waitForIdle(panel);
      expect(items.filter((i) => i.cls.includes('final')).map((i) => i.text).join('')).to.contain('Alan Stevenson built it.');
      expect(env.llm.requests).to.have.length(2);
      const raised = await budgetCard(panel, 'raised');
      expect(raised.text).to.contain('50,040 tokens');
      const done = /** @type {any} */ (await panel.waitFor(() => {
        const el = /** @type {HTMLElement} */ (document.querySelector('#run-cost'));
        return el.dataset.tokens === '102100' && el.dataset.paused === 'false' ? { ...el.dataset, text: el.textContent } : null;
      }, undefined, { message: 'the run\'s cost after both calls' }));
      // Exactly the mock server's usage: 50,000 + 52,000 in, 40 + 60 out; $3 / $15 per million.
      expect(done).to.deep.include({ input: '102000', output: '100', estimated: 'false', cost: String((102_000 * 3 + 100 * 15) / 1e6) });
      expect(done.text).to.equal('This run: 102,100 tokens · $0.3075 of a 200,000 tokens budget');
      expect(await panel.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#usage')).dataset.tokens)).to.equal('102100');

      // A job due now, in this tab, with a day's budget today's runs have already used: it pauses before its call, and says so on the jobs page.
      expect((await set({ day: { unit: 'tokens', amount: 1_000 } })).ok).to.equal(true);
      const created = await ask(env.control, { type: 'jobs.create', job: { title: 'Budgeted job', prompt: 'Who built it?', mode: 'ask', target: { type: 'tab', tabId }, schedule: { kind: 'once', afterSeconds: 0 } } });
      expect(created.ok, created.message).to.equal(true);
      const id = /** @type {string} */ (created.data.job.id);
      jobId = id;
      const dayCard = await budgetCard(panel, 'pending');
      expect(dayCard).to.deep.include({ scope: 'day', unit: 'tokens', cap: '1000', title: 'Paused at today\'s budget' });
      expect(Number(dayCard.used)).to.be.at.least(102_100);
      expect(env.llm.requests).to.have.length(2);
      jobsPage = await env.browser.openExtensionPage('ui/jobs.html');
      const why = /** @type {any} */ (await jobsPage.waitFor((id) => {
        const line = document.getElementById(id)?.querySelector('.meta.waiting');
        return line && /** @type {HTMLElement} */ (line.closest('li')).dataset.state === 'needs_user_input' ? { code: /** @type {HTMLElement} */ (line).dataset.code, text: line.textContent } : null;
      }, id, { message: 'the job waiting at its budget' }));
      expect(why.code).to.equal('BUDGET_REACHED');
      expect(why.text).to.match(/^Paused at a budget: Today's runs have used [\d,]+ tokens of the 1,000 tokens daily budget; the next model call would add about [\d,]+ tokens\.$/);
      // Raised from the panel, the job's run finishes and the job completes.
      await raiseTo(panel, String(Number(dayCard.used) + 1_000_000));
      const state = await env.control.waitFor((id) => browser.runtime.sendMessage({ type: 'jobs.list' }).then((r) => {
        const job = r.data.jobs.find((/** @type {any} */ j) => j.id === id);
        return job && job.state !== 'running' && job.state !== 'needs_user_input' ? { state: job.state, waitingFor: job.waitingFor ?? null } : null;
      }), id, { message: 'the job to finish' });
      expect(state).to.deep.equal({ state: 'completed', waitingFor: null });
      expect(env.llm.requests).to.have.length(3);
      expect(env.llm.problems).to.deep.equal([]);

      // Settings → Budget shows the day's cap and what today's runs spent; emptied and saved, no budget is left.
      settingsPage = await env.browser.openExtensionPage('ui/options.html');
      const shown = /** @type {any} */ (await settingsPage.waitFor(() => {
        const amount = /** @type {HTMLInputElement | null} */ (document.querySelector('#budgetDayAmount'));
        const today = document.querySelector('#budget-today')?.textContent ?? '';
        return amount?.value && today ? { amount: amount.value, unit: /** @type {HTMLSelectElement} */ (document.querySelector('#budgetDayUnit')).value, run: /** @type {HTMLInputElement} */ (document.querySelector('#budgetRunAmount')).value, today } : null;
      }, undefined, { message: 'the budget settings' }));
      expect(shown).to.deep.include({ amount: '1000', unit: 'tokens', run: '' });
      expect(shown.today).to.match(/^Today so far: [\d,]+ tokens/);
      await settingsPage.fill('#budgetDayAmount', '');
      await settingsPage.click('#save');
      await settingsPage.waitFor(() => document.querySelector('#result')?.textContent === 'Saved.', undefined, { message: 'the save' });
      const saved = await ask(env.control, { type: 'settings.get' });
      expect(saved.data.budget).to.deep.equal({});
    } finally {
      if (jobId) await ask(env.control, { type: 'jobs.delete', id: jobId });
      await set({});
      await jobsPage?.close();
      await settingsPage?.close();
      await page.close();
      await panel.close();
    }
  });
});
