// Models: a small local model (8k window, no native tools: the prompt protocol) signs in
// with the compact tools, its request measured to fit; Plan mode plans with the planner role's
// model; a model without vision gets the vision role's description of a screenshot. The mock
// asserts which model each request names.
import { expect } from 'chai';
import { encode } from 'gpt-tokenizer';
import { scenario } from './harness/scenario.js';
import { ask, openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { asPromptReplies, lastToolResult, signInScript, toolResults } from '../fixtures/llm/conversation.js';

/** The tool names a prompt-protocol system prompt lists. @param {any} body */
function promptTools(body) {
  const system = String(body.messages.find((/** @type {any} */ m) => m.role === 'system')?.content ?? '');
  return [...system.slice(system.indexOf('\nTools:\n')).matchAll(/^- (\w+): /gm)].map((m) => m[1]).sort();
}

/** Tokens of everything a request sends the model (o200k_base). @param {any} body */
function requestTokens(body) {
  return encode(JSON.stringify(body.messages) + JSON.stringify(body.tools ?? [])).length;
}

scenario('models and roles', (ctx) => {
  after(async () => {
    await ask(ctx.env.control, { type: 'settings.set', settings: { roles: {} } });
    // settings.set merges the provider's fields: the small model's prompt tool mode would stay for
    // the files after this one (Plan mode's executor then answered in prompt mode and went in circles).
    await useMockProvider(ctx.env, { toolMode: 'native' });
  });

  it('a small model (8k window, tools in the prompt) signs in with the compact tools, its requests within the window', async () => {
    const { env } = ctx;
    await useMockProvider(env, { model: 'mock-small', toolMode: 'prompt' });
    env.llm.script(asPromptReplies(signInScript()));
    const { page, panel } = await openPageWithPanel(env, 'login.html');
    try {
      await sendFromPanel(panel, 'Sign in as alice with password hunter2', 'act');
      const items = await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(await page.text('h1')).to.equal('Welcome, alice');
      const reqs = env.llm.requests;
      expect(reqs.map((r) => r.body.model)).to.deep.equal(Array(5).fill('mock-small'));
      // No native tools: the compact tier's twelve, described in the system prompt.
      expect(reqs[0].body.tools).to.equal(undefined);
      expect(promptTools(reqs[0].body)).to.deep.equal(['clarify', 'click', 'done', 'go_back', 'navigate', 'press_keys', 'read_page', 'scroll', 'select_option', 'snapshot', 'type', 'wait_for']);
      // Measured: every request, the page's outline included, fits the 8,192-token window with room to answer.
      for (const r of reqs) expect(requestTokens(r.body)).to.be.below(8_192 - 1_024);
      expect(requestTokens(reqs[0].body)).to.be.below(1_500);
      expect(toolResults(reqs[1].body)[0]).to.include('textbox "Username"');
      // (The password in the message has its own notice: it is kept as a secret.)
      const notices = items.filter((i) => i.cls.includes('notice')).map((i) => i.text);
      expect(notices.join('\n')).to.include('8,192-token context window');
      expect(items.filter((i) => i.tool).map((i) => i.tool)).to.deep.equal(['snapshot', 'type', 'type', 'click', 'done']);
    } finally {
      await page.close();
      await panel.close();
    }
  });

  it('Plan mode plans with the planner role\'s model and runs the steps with the main one', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    expect((await ask(env.control, { type: 'settings.set', settings: { roles: { planner: { providerId: 'none', model: 'mock-planner' } } } })).ok).to.equal(true);
    env.llm.script([
      { toolCalls: [{ name: 'propose_plan', args: { steps: ['Click Add one'], message: 'One step.' } }] },
      { toolCalls: [{ name: 'snapshot', args: {} }] },
      (req) => ({ toolCalls: [{ name: 'click', args: { ref: /button "Add one" \[(e\d+)\]/.exec(lastToolResult(req.body))?.[1] ?? 'e1' } }] }),
      { toolCalls: [{ name: 'done', args: { summary: 'Clicked Add one; the page says "Count: 1".' } }] },
    ]);
    const { page, panel } = await openPageWithPanel(env, 'counter.html');
    try {
      await sendFromPanel(panel, 'Add one to the counter', 'plan');
      await panel.waitFor(() => Boolean(document.querySelector('.card.plan .plan-approve, .card.plan button')), undefined, { message: 'the plan card' });
      await panel.click('.card.plan .plan-approve');
      await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(env.llm.requests.map((r) => r.body.model)).to.deep.equal(['mock-planner', 'mock-1', 'mock-1', 'mock-1']);
      expect(await page.text('#count')).to.equal('Count: 1');
    } finally {
      await ask(env.control, { type: 'settings.set', settings: { roles: {} } });
      await page.close();
      await panel.close();
    }
  });

  it('a model without vision gets the vision role\'s description of a screenshot, fenced', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    expect((await ask(env.control, { type: 'settings.set', settings: { roles: { vision: { providerId: 'none', model: 'mock-vision' } } } })).ok).to.equal(true);
    env.llm.script([
      { toolCalls: [{ name: 'screenshot', args: {} }] },
      (req) => {
        const parts = req.body.messages.find((/** @type {any} */ m) => m.role === 'user')?.content;
        if (!Array.isArray(parts) || !parts.some((/** @type {any} */ p) => p.type === 'image_url' && String(p.image_url?.url).startsWith('data:image/png;base64,'))) throw new Error('the vision model got no image');
        return { text: 'A counter page: the heading "Counter", the text "Count: 0" and a button "Add one".' };
      },
      (req) => {
        const r = lastToolResult(req.body);
        if (!/as described by .* \(mock-vision\):\n<untrusted_page_content id="\w+">\nA counter page/.test(r)) throw new Error(`no description: ${r.slice(0, 300)}`);
        return { text: 'The page shows a counter at 0 and an Add one button.' };
      },
    ]);
    const { page, panel } = await openPageWithPanel(env, 'counter.html');
    try {
      await sendFromPanel(panel, 'What does the page look like?', 'act');
      const items = await waitForIdle(panel);
      expect(env.llm.problems).to.deep.equal([]);
      expect(env.llm.requests.map((r) => r.body.model)).to.deep.equal(['mock-1', 'mock-vision', 'mock-1']);
      // The main model never got the picture itself.
      expect(JSON.stringify(env.llm.requests[2].body.messages)).to.not.include('image_url');
      expect(items.at(-1)?.text).to.equal('The page shows a counter at 0 and an Add one button.');
    } finally {
      await ask(env.control, { type: 'settings.set', settings: { roles: {} } });
      await page.close();
      await panel.close();
    }
  });
});
