// The tool runner runs a tool exactly as the agent would, from any extension page.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, tabIdOf } from './harness/env.js';

scenario('tool runner', (ctx) => {
  it('runs snapshot, type and click on a page and refuses unknown tools', async () => {
    const { env } = ctx;
    const url = `${env.site.url}/login.html`;
    const page = await env.browser.openPage(url);
    try {
      const tabId = await tabIdOf(env, url);
      const snap = await ask(env.control, { type: 'tool.run', tabId, name: 'snapshot' });
      expect(snap.ok).to.equal(true);
      expect(snap.data).to.contain('heading "Sign in to Fixture Bank" [level=1]');
      const user = /textbox "Username" \[required\] \[(e\d+)\]/.exec(snap.data)?.[1];
      const pass = /textbox "Password" \[required\] \[password\] \[(e\d+)\]/.exec(snap.data)?.[1];
      const button = /button "Sign in" \[(e\d+)\]/.exec(snap.data)?.[1];
      expect(user && pass && button, snap.data).to.be.ok;

      expect((await ask(env.control, { type: 'tool.run', tabId, name: 'type', args: { ref: user, text: 'alice' } })).ok).to.equal(true);
      const typed = await ask(env.control, { type: 'tool.run', tabId, name: 'type', args: { ref: pass, text: 'hunter2' } });
      expect(typed.ok).to.equal(true);
      expect(JSON.stringify(typed.data)).to.not.contain('hunter2');
      // The outline shows the password field as filled, never its value.
      const again = await ask(env.control, { type: 'tool.run', tabId, name: 'snapshot' });
      expect(again.data).to.contain('value="alice"');
      expect(again.data).to.not.contain('hunter2');
      expect((await ask(env.control, { type: 'tool.run', tabId, name: 'click', args: { ref: button } })).ok).to.equal(true);
      await page.waitFor(() => document.querySelector('h1')?.textContent === 'Welcome, alice', undefined, { message: 'the welcome heading' });

      const stale = await ask(env.control, { type: 'tool.run', tabId, name: 'click', args: { ref: button } });
      expect(stale).to.include({ ok: false, code: 'STALE_REF' });
      const unknown = await ask(env.control, { type: 'tool.run', tabId, name: 'teleport', args: {} });
      expect(unknown).to.include({ ok: false, code: 'UNKNOWN_TOOL' });
      const badArgs = await ask(env.control, { type: 'tool.run', tabId, name: 'click', args: {} });
      expect(badArgs).to.include({ ok: false, code: 'INVALID_ARGUMENTS' });
    } finally {
      await page.close();
    }
  });
});
