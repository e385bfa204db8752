// Stop while a write waits for its card: the held write is refused, never let go. In Chromium the
// release that follows Stop disabled Fetch interception before the refusal had reached Chrome, and
// a request still paused when interception is disabled goes on: the write the person never allowed
// reached the server (cdp/net-hold.js now releases only once each decision has been sent). Here a
// replay of the tracker's "File an issue" workflow waits at its write's card, Stop is pressed, and
// once the run has ended and its tab is closed the tracker has received nothing.
import { expect } from 'chai';
import { scenario } from './harness/scenario.js';
import { ask, tabIdOf } from './harness/env.js';
import { startApps } from '../fixtures/apps/server.js';
import { trackerWorkflowExport } from '../fixtures/apps/tracker-workflow.js';

scenario('Stop while a write waits for its card sends nothing', (ctx) => {
  /** @type {Awaited<ReturnType<typeof startApps>>} */
  let apps;
  before(async () => { apps = await startApps(); });
  after(async () => {
    await ask(ctx.env.control, { type: 'workflows.delete', id: 'wf-file-issue' });
    await apps?.close();
  });

  it('the held write is refused: the card expires, the run ends stopped, the server received nothing', async () => {
    const { env } = ctx;
    const wf = trackerWorkflowExport(apps.url).workflows[0];
    expect((await ask(env.control, { type: 'workflows.import', data: wf })).ok).to.equal(true);
    const page = await env.browser.openPage(wf.start.url);
    try {
      const tabId = await tabIdOf(env, wf.start.url);
      const started = await ask(env.control, { type: 'workflows.run', tabId, id: wf.id, values: { title: 'Held then stopped' } });
      expect(started.ok, started.message).to.equal(true);
      await env.control.waitFor((id) => browser.runtime.sendMessage({ type: 'chat.state', tabId: id })
        .then((/** @type {any} */ r) => r.data.items.some((/** @type {any} */ i) => i.kind === 'confirm' && i.status === 'pending')), tabId, { timeout: 30_000, message: 'the write\'s card' });
      expect(apps.writes).to.have.length(0);
      await ask(env.control, { type: 'chat.stop', tabId });
      const items = await env.control.waitFor((id) => browser.runtime.sendMessage({ type: 'chat.state', tabId: id })
        .then((/** @type {any} */ r) => (r.data.running ? null : r.data.items)), tabId, { timeout: 30_000, message: 'the run to stop' });
      expect(items.filter((/** @type {any} */ i) => i.kind === 'confirm').map((/** @type {any} */ i) => i.status)).to.deep.equal(['expired']);
      expect(items.filter((/** @type {any} */ i) => i.kind === 'error').map((/** @type {any} */ i) => i.code)).to.deep.equal(['ABORTED']);
      await page.close();
      // The tab is gone: nothing of this run can be sent any more.
      expect(apps.writes).to.deep.equal([]);
      expect(apps.state.tracker.issues.map((i) => i.title)).to.not.include('Held then stopped');
    } finally {
      await page.close();
    }
  });
});
