// Through the agent: Act mode, the mock model fills the form widgets with the new tools
// (type, select_option, check, set_field) and finishes; the page's own state is asserted.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { findRef, toolResults } from '../fixtures/llm/conversation.js';

scenario('widgets: agent', (ctx) => {
  it('fills a React field, a select, a checkbox and a date from the model\'s tool calls', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    const snap = (/** @type {any} */ req) => toolResults(req.body)[0];
    env.llm.script([
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (req) => ({ toolCalls: [
        { name: 'type', args: { ref: findRef(snap(req), 'textbox', 'Full name'), text: 'Grace Hopper' } },
        { name: 'select_option', args: { ref: findRef(snap(req), 'combobox', 'Country'), label: 'Japan' } },
        { name: 'check', args: { ref: findRef(snap(req), 'checkbox', 'Cheese') } },
        { name: 'set_field', args: { ref: findRef(snap(req), 'textbox', 'Start date'), value: '2026-12-09' } },
      ] }),
      (req) => {
        const results = toolResults(req.body).slice(1);
        if (results.length !== 4 || results.some((r) => r.startsWith('Error'))) throw new Error(`a tool failed: ${results.join(' | ')}`);
        return { toolCalls: [{ name: 'done', args: { summary: 'Filled in the profile.' } }] };
      },
    ]);
    const { page, panel } = await openPageWithPanel(env, 'widgets/forms.html');
    try {
      await page.waitFor(() => Boolean(document.querySelector('#react-name')), undefined, { message: 'React to mount' });
      await sendFromPanel(panel, 'Fill in my profile', 'act');
      const items = await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(items.filter((i) => i.tool).map((i) => i.tool)).to.deep.equal(['snapshot', 'type', 'select_option', 'check', 'set_field', 'done']);
      expect(await page.text('#react-out')).to.equal('Grace Hopper|');
      expect(await page.text('#country-out')).to.equal('jp');
      expect(await page.text('#choices-out')).to.equal('cheese,olives||false');
      expect(await page.text('#start-out')).to.equal('2026-12-09');
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
