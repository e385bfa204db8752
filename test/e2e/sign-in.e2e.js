// "sign in": Act mode, the mock model plays snapshot → type → type → click → done.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { openPageWithPanel, sendFromPanel, useMockProvider, waitForIdle } from './harness/env.js';
import { offeredTools, signInScript, toolResults } from '../fixtures/llm/conversation.js';

scenario('sign in', (ctx) => {
  it('signs in as alice and shows the final answer in the panel', async () => {
    const { env } = ctx;
    await useMockProvider(env);
    env.llm.script(signInScript());
    const { page, panel } = await openPageWithPanel(env, 'login.html');
    try {
      await sendFromPanel(panel, 'Sign in as alice with password hunter2', 'act');
      const items = await waitForIdle(panel);

      expect(env.llm.problems).to.deep.equal([]);
      expect(await page.text('h1')).to.equal('Welcome, alice');
      const final = items.filter((i) => i.cls.includes('assistant') && i.cls.includes('final'));
      expect(final.map((i) => i.text).join('')).to.contain('Signed in as alice');
      expect(items.filter((i) => i.tool).map((i) => i.tool)).to.deep.equal(['snapshot', 'type', 'type', 'click', 'done']);
      expect(items.some((i) => i.cls.includes('error'))).to.equal(false);
      // Each step said for people, from the element's role and name; the tool name and raw arguments inside.
      const says = await panel.evaluate(() => [...document.querySelectorAll('details.tool')].map((d) => `${/** @type {HTMLElement} */ (d).dataset.kind}: ${d.querySelector('.says')?.textContent}`));
      expect(says).to.deep.equal(['read: Looked at the page', 'act: Typed into “Username”', 'act: Typed into “Password”', 'act: Clicked “Sign in”', 'run: Finished the task']);
      expect(await panel.evaluate(() => [...document.querySelectorAll('details.tool .time')].every((t) => /^\d+ ms$|^\d+\.\d s$/.test(t.textContent ?? '')))).to.equal(true);

      const reqs = env.llm.requests;
      expect(reqs).to.have.length(5);
      expect(offeredTools(reqs[0].body)).to.include.members(['snapshot', 'click', 'type', 'navigate', 'done']);
      expect(reqs[0].body.stream).to.equal(true);
      expect(reqs[0].headers.authorization).to.equal('Bearer sk-test-123');
      const user = reqs[0].body.messages.find((/** @type {any} */ m) => m.role === 'user');
      // The password the person wrote is a secret of the site: the model sees its name, never the value.
      expect(user.content).to.equal('Sign in as alice with password [secret 1]');
      // The snapshot reached the model fenced as untrusted page content.
      expect(toolResults(reqs[1].body)[0]).to.match(/^<untrusted_page_content id="(\w+)">[\s\S]*textbox "Username"[\s\S]*<\/untrusted_page_content id="\1">$/);
      // The password typed into the field never comes back in a tool result.
      const allResults = reqs.flatMap((r) => toolResults(r.body)).join('\n');
      expect(allResults).to.not.contain('hunter2');
    } finally {
      await page.close();
      await panel.close();
    }
  });
});
