import { expect } from 'chai';
import { createSessionStore } from '../../src/chrome/service/session-store.js';

/** storage.session as a map, counting writes and their sizes. */
function fakeArea() {
  /** @type {Map<string, any>} */
  const data = new Map();
  const sizes = /** @type {number[]} */ ([]);
  return {
    data, sizes,
    async get(/** @type {string} */ k) { return data.has(k) ? { [k]: structuredClone(data.get(k)) } : {}; },
    async set(/** @type {Record<string, any>} */ items) { for (const [k, v] of Object.entries(items)) { sizes.push(JSON.stringify(v).length); data.set(k, structuredClone(v)); } },
    async remove(/** @type {string} */ k) { data.delete(k); },
  };
}
/** IndexedDB's blob store as a map, counting puts. */
function fakeBlobs() {
  /** @type {Map<string, string>} */
  const map = new Map();
  let puts = 0;
  return {
    map, get puts() { return puts; },
    async put(/** @type {string} */ k, /** @type {string} */ v) { puts++; map.set(k, v); },
    async get(/** @type {string} */ k) { return map.get(k); },
    async removeTab(/** @type {number} */ tabId) { for (const k of [...map.keys()]) if (k.startsWith(`${tabId}:`)) map.delete(k); },
  };
}
/** @param {number} tabId @param {Partial<import('../../src/chrome/types/messages').StoredSession>} more */
const stored = (tabId, more = {}) => /** @type {import('../../src/chrome/types/messages').StoredSession} */ ({ v: 1, tabId, conversationId: 'c', mode: 'act', messages: [], items: [], note: '', running: true, updatedAt: 0, ...more });

describe('session store: write-ahead, large results kept once, never over quota', () => {
  it('keeps a large result once in the blob store, however often it appears, and reads it back whole', async () => {
    const area = fakeArea(), blobs = fakeBlobs();
    const store = createSessionStore({ area, blobs });
    const outline = `- main\n${'  - link "Item" [e1]\n'.repeat(2_000)}`;
    const data = stored(3, {
      messages: [{ role: 'user', content: 'list them' }, { role: 'tool', toolCallId: 't1', name: 'snapshot', content: outline }],
      items: [{ kind: 'tool', id: 't1', name: 'snapshot', args: '{}', result: { ok: true, data: outline } }],
    });
    store.schedule(3, () => data);
    await store.flush(3);
    expect(blobs.puts).to.equal(1);
    expect(area.sizes[0]).to.be.lessThan(2_000);
    // Written again (the next step): the same string is not put again.
    store.schedule(3, () => data);
    await store.flush(3);
    expect(blobs.puts).to.equal(1);
    const back = await store.load(3);
    expect(back).to.deep.equal(data);
  });

  it('says so instead of failing when a referenced string is gone', async () => {
    const area = fakeArea(), blobs = fakeBlobs();
    const store = createSessionStore({ area, blobs });
    store.schedule(4, () => stored(4, { messages: [{ role: 'tool', toolCallId: 't', name: 'read_page', content: 'x'.repeat(20_000) }] }));
    await store.flush(4);
    blobs.map.clear();
    const back = await store.load(4);
    expect(back?.messages[0].content).to.match(/could not be read back/);
  });

  it('over the soft limit moves smaller strings out too; over the hard limit shortens the oldest results and says so', async () => {
    const area = fakeArea(), blobs = fakeBlobs();
    /** @type {[number, number][]} */
    const told = [];
    const store = createSessionStore({ area, blobs, limits: { blobMin: 8_192, soft: 20_000, hard: 20_000 }, onTrimmed: (tab, n) => told.push([tab, n]) });
    const results = Array.from({ length: 12 }, (_, i) => ({ role: /** @type {const} */ ('tool'), toolCallId: `t${i}`, name: 'click', content: `${i} `.padEnd(3_000, 'r') }));
    store.schedule(5, () => stored(5, { messages: results }));
    await store.flush(5);
    // 3 kB strings go out over the soft limit: under the hard one then, nothing shortened.
    expect(told).to.deep.equal([]);
    expect(area.sizes.at(-1)).to.be.at.most(20_000);

    // Without a blob store (or with many small results) the hard limit shortens the oldest first.
    const plain = fakeArea();
    const tight = createSessionStore({ area: plain, limits: { soft: 20_000, hard: 20_000 }, onTrimmed: (tab, n) => told.push([tab, n]) });
    tight.schedule(6, () => stored(6, { messages: results }));
    await tight.flush(6);
    expect(plain.sizes.at(-1)).to.be.at.most(20_000);
    expect(told).to.have.length(1);
    const kept = (await tight.load(6))?.messages ?? [];
    expect(kept[0].content).to.match(/Shortened by Tabwright/);
    expect(told[0]).to.deep.equal([6, kept.filter((m) => /Shortened by Tabwright/.test(String(m.content))).length]);
    expect(kept.at(-1)?.content).to.equal(results.at(-1)?.content);
  });

  it('flush writes at once what was scheduled, after any write under way, newest last', async () => {
    const area = fakeArea();
    /** @type {(() => void)[]} */
    const timers = [];
    const store = createSessionStore({ area, timers: { setTimeout: (fn) => { timers.push(fn); return timers.length; }, clearTimeout: () => {} } });
    store.schedule(7, () => stored(7, { note: 'first' }));
    timers[0]();
    store.schedule(7, () => stored(7, { note: 'second' }));
    await store.flush(7);
    expect((await store.load(7))?.note).to.equal('second');
  });

  it('removing a tab removes its large strings too', async () => {
    const area = fakeArea(), blobs = fakeBlobs();
    const store = createSessionStore({ area, blobs });
    store.schedule(8, () => stored(8, { messages: [{ role: 'tool', toolCallId: 't', name: 'read_page', content: 'y'.repeat(20_000) }] }));
    store.schedule(9, () => stored(9, { messages: [{ role: 'tool', toolCallId: 't', name: 'read_page', content: 'z'.repeat(20_000) }] }));
    await store.flush(8);
    await store.flush(9);
    expect(blobs.map.size).to.equal(2);
    await store.remove(8);
    expect([...blobs.map.keys()].every((k) => k.startsWith('9:'))).to.equal(true);
    expect(await store.load(8)).to.equal(null);
  });
});
