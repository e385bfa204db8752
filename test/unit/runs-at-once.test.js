// Runs side by side, browser-free: the slots background work waits for (Settings → Runs at once),
// each run's tab group, the runs overview built from the sessions, and the tabs tool never taking focus.
import { expect } from 'chai';
import { createRunSlots } from '../../src/chrome/service/run-slots.js';
import { createRunGroups, groupTitle } from '../../src/chrome/service/run-groups.js';
import { createRunsOverview } from '../../src/chrome/service/runs-overview.js';
import { Session } from '../../src/chrome/service/session.js';
import { findTool } from '../../src/chrome/agent/tools/index.js';
import { fakeBrowser } from './fake-browser.js';

/** @import { ToolContext } from '../../src/chrome/types/core' */

describe('runs at once', () => {
  describe('slots', () => {
    it('lets work start under the limit, queues it at the limit, oldest first, and frees a slot when a run ends', async () => {
      let active = 2;
      let changes = 0;
      const slots = createRunSlots({ limit: async () => 3, active: () => active, onChange: () => { changes++; }, now: () => 1000 + changes });
      const first = await slots.acquire({ id: 'a', kind: 'job', title: 'A' });
      expect(first).to.be.a('function');
      // The slot is counted from the hand-out until the run has begun: a second job waits.
      /** @type {string[]} */
      const order = [];
      let queuedCalls = 0;
      const b = slots.acquire({ id: 'b', kind: 'job', title: 'B' }, undefined, () => { queuedCalls++; }).then((r) => { order.push('b'); return r; });
      await new Promise((r) => setTimeout(r, 5));
      const c = slots.acquire({ id: 'c', kind: 'mcp', title: 'C' }).then((r) => { order.push('c'); return r; });
      await new Promise((r) => setTimeout(r, 5));
      expect(slots.queued().map((q) => [q.id, q.kind, q.limit])).to.deep.equal([['b', 'job', 3], ['c', 'mcp', 3]]);
      expect(queuedCalls).to.equal(1);
      // The first job's run began (its session counts now) and another run ended: one slot is free.
      /** @type {() => void} */ (first)();
      active = 2;
      slots.recheck();
      const releaseB = await b;
      expect(order).to.deep.equal(['b']);
      expect(slots.queued().map((q) => q.id)).to.deep.equal(['c']);
      /** @type {() => void} */ (releaseB)();
      active = 1;
      slots.recheck();
      await c;
      expect(order).to.deep.equal(['b', 'c']);
      expect(slots.queued()).to.deep.equal([]);
    });

    it('gives up waiting when the job is cancelled', async () => {
      const slots = createRunSlots({ limit: async () => 1, active: () => 1 });
      const controller = new AbortController();
      const waiting = slots.acquire({ id: 'x', kind: 'job', title: 'X' }, controller.signal);
      await new Promise((r) => setTimeout(r, 5));
      expect(slots.queued()).to.have.length(1);
      controller.abort();
      expect(await waiting).to.equal(null);
      expect(slots.queued()).to.deep.equal([]);
    });
  });

  describe('tab groups', () => {
    it('groups a run\'s tab with the tabs it opens, named for the task, one browser group per run', async () => {
      /** @type {[number[], string, number | undefined][]} */
      const calls = [];
      const groups = createRunGroups({ platform: { async groupTabs(tabIds, title, groupId) { calls.push([[...tabIds], title, groupId]); return groupId ?? 77; } } });
      const title = (/** @type {number} */ id) => (id === 5 ? 'Order the poster for shop 1' : null);
      await groups.joinOpener(5, 9, title);
      await groups.joinOpener(9, 10, title);
      // A tab opened from a tab no run holds stays where it is.
      await groups.joinOpener(6, 11, title);
      expect(calls).to.deep.equal([[[5, 9], 'Order the poster for shop 1', undefined], [[5, 9, 10], 'Order the poster for shop 1', 77]]);
      expect(groups.of(10)).to.deep.include({ title: 'Order the poster for shop 1', tabs: [5, 9, 10], groupId: 77 });
      expect(groups.of(11)).to.equal(null);
      groups.forget(9);
      expect(groups.of(5)?.tabs).to.deep.equal([5, 10]);
    });

    it('keeps a labelled set where the browser has no tab groups, and shortens long titles', async () => {
      const groups = createRunGroups({ platform: {} });
      await groups.join('job:1', 'Morning check', [4]);
      expect(groups.of(4)).to.deep.include({ title: 'Morning check', tabs: [4], groupId: null });
      expect(groupTitle(`Read ${'every '.repeat(20)}page`)).to.have.length(40);
    });
  });

  describe('overview', () => {
    it('lists the active runs with who started them, their group and the card they wait on, and the queued work', async () => {
      const a = new Session(1);
      a.state.transition('start'); a.state.transition('ready'); a.state.transition('wait');
      Object.assign(a, { task: 'Order the poster', startedAt: 5, origin: { kind: 'panel' } });
      a.upsert({ kind: 'confirm', id: 'c1', category: 'checkout', rule: 'server_write', action: 'POST to /api/orders', site: 'shop', severity: 'high', details: [], reason: 'It changes data.', status: 'pending' });
      const b = new Session(2);
      b.state.transition('start');
      Object.assign(b, { task: 'Read the news', startedAt: 3, origin: { kind: 'job', label: 'Morning check', jobId: 'j1' } });
      const idle = new Session(3);
      const sessions = new Map([[1, a], [2, b], [3, idle]]);
      const overview = createRunsOverview({
        sessions,
        queued: () => [{ id: 'j2', kind: 'job', title: 'Evening check', since: 9, limit: 2 }],
        groupOf: (id) => (id === 2 ? { key: 'job:j1', title: 'Morning check', tabs: [2], groupId: 4 } : null),
        getTab: async (id) => ({ url: `https://example.test/${id}`, title: `Tab ${id}` }),
      });
      const { runs, queued } = await overview.list();
      expect(runs.map((r) => [r.tabId, r.phase, r.kind, r.label ?? null, r.waiting?.id ?? null])).to.deep.equal([[2, 'starting', 'job', 'Morning check', null], [1, 'waiting', 'panel', null, 'c1']]);
      expect(runs[0].group).to.deep.equal({ title: 'Morning check', tabs: [2], grouped: true });
      expect(queued).to.deep.equal([{ id: 'j2', kind: 'job', title: 'Evening check', since: 9, limit: 2 }]);
    });
  });

  it('the tabs tool opens tabs in the background and switches without activating', async () => {
    /** @type {unknown[]} */
    const opened = [];
    let activated = 0;
    const browser = { ...fakeBrowser(), async openTab(/** @type {string} */ url, /** @type {any} */ opts) { opened.push(opts.active); return { tabId: 2, url, title: 'New', active: false }; }, async activateTab() { activated++; return { tabId: 2, url: '', title: '', active: true }; }, async listTabs() { return [{ tabId: 1, url: 'https://a.test/', title: 'A', active: true }, { tabId: 2, url: 'https://a.test/b', title: 'B', active: false }]; } };
    /** @type {ToolContext} */
    const ctx = { tabId: 1, browser };
    const tool = /** @type {import('../../src/chrome/types/core').Tool} */ (findTool('tabs'));
    await tool.run({ action: 'open', url: 'https://a.test/b' }, ctx);
    ctx.tabId = 1;
    const sw = await tool.run({ action: 'switch', tab_id: 2 }, ctx);
    expect(opened).to.deep.equal([false]);
    expect(activated).to.equal(0);
    expect(ctx.tabId).to.equal(2);
    expect(sw).to.deep.include({ ok: true });
  });
});
