import 'fake-indexeddb/auto';
import { expect } from 'chai';
import { createHistoryStore, MAX_RUNS } from '../../src/chrome/service/history-store.js';

/** @param {number} i @returns {import('../../src/chrome/types/messages').RunRecord} */
const run = (i) => ({
  id: `r${i}`, tabId: 1, url: `https://example.com/${i}`, title: `Page ${i}`, mode: 'act', startedAt: i * 10, endedAt: i * 10 + 5,
  items: [{ kind: 'user', id: `u${i}`, text: `task ${i}`, mode: 'act' }], usage: { inputTokens: i, outputTokens: 1 },
});

describe('history store (IndexedDB through idb)', () => {
  it('saves runs, lists them newest first without transcripts, gets one whole, and clears', async () => {
    const store = createHistoryStore();
    await store.clear();
    await store.save(run(1));
    await store.save(run(3));
    await store.save(run(2));
    const list = await store.list();
    expect(list.map((r) => r.id)).to.deep.equal(['r3', 'r2', 'r1']);
    expect(list[0]).to.not.have.property('items');
    expect((await store.get('r2'))?.items[0]).to.include({ text: 'task 2' });
    await store.clear();
    expect(await store.list()).to.deep.equal([]);
  });

  it(`keeps at most ${MAX_RUNS} runs, dropping the oldest`, async () => {
    const store = createHistoryStore();
    await store.clear();
    for (let i = 1; i <= MAX_RUNS + 3; i++) await store.save(run(i));
    const list = await store.list();
    expect(list).to.have.length(MAX_RUNS);
    expect(list.at(-1)?.id).to.equal('r4');
    expect(await store.get('r1')).to.equal(undefined);
  });
});
