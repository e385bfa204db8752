// Conversations survive the Chrome service worker being stopped: debounced saves to storage.session,
// rebuilt as an interrupted run with Continue.
import { expect } from 'chai';
import { createSessionStore } from '../../src/chrome/service/session-store.js';
import { Session } from '../../src/chrome/service/session.js';
import { createPanelInteraction } from '../../src/chrome/service/interaction.js';
import { fakeClock } from './fake-clock.js';

/** An in-memory storage area that counts writes. */
function memoryArea() {
  /** @type {Record<string, any>} */
  const data = {};
  return {
    data,
    writes: 0,
    /** @param {string} key */
    async get(key) { return key in data ? { [key]: structuredClone(data[key]) } : {}; },
    /** @param {Record<string, any>} items */
    async set(items) { this.writes++; Object.assign(data, structuredClone(items)); },
    /** @param {string} key */
    async remove(key) { delete data[key]; },
  };
}

describe('session persistence', () => {
  it('debounces saves: a burst of changes is written once, after the quiet period', async () => {
    const clock = fakeClock();
    const area = memoryArea();
    const store = createSessionStore({ area, debounceMs: 300, timers: clock });
    const s = new Session(7, { onChange: (x) => store.schedule(x.tabId, () => x.toJSON()) });
    s.addUser('hello', 'act');
    for (let i = 0; i < 20; i++) s.apply({ type: 'text_delta', messageId: 'a1', text: `w${i} ` });
    await clock.tick(299);
    expect(area.writes).to.equal(0);
    await clock.tick(1);
    expect(area.writes).to.equal(1);
    const saved = await store.load(7);
    expect(saved?.items.map((i) => i.kind)).to.deep.equal(['user', 'assistant']);
    expect(/** @type {any} */ (saved)?.items[1].text).to.equal(Array.from({ length: 20 }, (_, i) => `w${i} `).join(''));
    s.addError('X', 'y');
    await store.flush(7);
    expect(area.writes).to.equal(2);
    expect(clock.pending()).to.equal(0);
  });

  it('rebuilds a session whose run was cut off as interrupted, expiring the questions it waited on', () => {
    const s = new Session(3);
    s.state.transition('start');
    s.state.transition('ready');
    s.mode = 'act';
    s.pinned.note = 'found: 3 items';
    s.messages.push({ role: 'system', content: 'sys' }, { role: 'user', content: 'buy it' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'snapshot', arguments: '{}' }, { id: 'c2', name: 'click', arguments: '{"ref":"e4"}' }] },
      { role: 'tool', toolCallId: 'c1', name: 'snapshot', content: 'outline' });
    s.addUser('buy it', 'act');
    s.apply({ type: 'text_delta', messageId: 'a1', text: 'Let me' });
    s.upsert({ kind: 'confirm', id: 'q1', category: 'checkout', rule: 'server_write', severity: 'high', action: 'POST to https://shop.test/api/order', site: 'shop.test', details: [{ label: 'item', value: 'poster' }], reason: 'It changes data on shop.test.', status: 'pending' });
    const stored = JSON.parse(JSON.stringify(s.toJSON()));
    expect(stored.running).to.equal(true);
    expect(stored.phase).to.equal('streaming');

    const back = Session.fromJSON(stored);
    expect(back.interrupted).to.equal(true);
    expect(back.running).to.equal(false);
    expect(back.pinned.note).to.equal('found: 3 items');
    expect(back.items.map((i) => i.kind)).to.deep.equal(['user', 'assistant', 'confirm', 'interrupted']);
    expect(back.items[1]).to.include({ streaming: false });
    expect(back.items[2]).to.include({ status: 'expired' });

    // Stored again before Continue (the panel opened, a second worker stop): still interrupted, once.
    const again = Session.fromJSON(JSON.parse(JSON.stringify(back.toJSON())));
    expect(again.interrupted).to.equal(true);
    expect(again.items.filter((i) => i.kind === 'interrupted')).to.have.length(1);

    back.prepareContinue();
    expect(back.state.transition('start')).to.equal(true);
    expect(back.interrupted).to.equal(false);
    expect(back.items[3]).to.include({ kind: 'interrupted', status: 'continued' });
    const tail = back.messages.slice(-2);
    expect(tail[0]).to.include({ role: 'tool', toolCallId: 'c1' });
    expect(tail[1]).to.include({ role: 'tool', toolCallId: 'c2' });
    expect(String(tail[1].content)).to.match(/^Error INTERRUPTED: /);
  });

  it('a session saved between runs comes back as it was, not interrupted', () => {
    const s = new Session(5);
    s.addUser('hi', 'ask');
    const back = Session.fromJSON(JSON.parse(JSON.stringify(s.toJSON())));
    expect(back.interrupted).to.equal(false);
    expect(back.items).to.deep.equal(s.items);
    expect(back.conversationId).to.equal(s.conversationId);
  });

  it('shows questions as cards and resolves them with the panel\'s answers; stopping expires them', async () => {
    const s = new Session(9);
    const ui = createPanelInteraction(s);
    const pending = ui.confirm({ category: 'delete', rule: 'server_write', severity: 'high', action: 'DELETE to https://app.test/api/item/4', site: 'app.test', details: [{ label: 'id', value: '4' }], reason: 'It changes data on app.test.', scopeKey: 'DELETE https://app.test/api/item/4' });
    const card = s.items.at(-1);
    expect(card).to.include({ kind: 'confirm', status: 'pending', rule: 'server_write', site: 'app.test' });
    expect(s.answer(/** @type {any} */ (card).id, 'task')).to.equal(true);
    expect(await pending).to.equal('task');
    expect(s.items.at(-1)).to.include({ status: 'task' });

    const controller = new AbortController();
    const q = ui.clarify('Which one?', controller.signal);
    controller.abort();
    await q.then(() => { throw new Error('should reject'); }, () => {});
    expect(s.items.at(-1)).to.include({ kind: 'clarify', status: 'expired' });
    expect(s.answer(/** @type {any} */ (s.items.at(-1)).id, 'late')).to.equal(false);
  });

  it('storage.session never receives a known secret, even one typed a moment ago', () => {
    const s = new Session(11);
    s.messages.push({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'type', arguments: '{"ref":"e2","text":"s3cret-pass"}' }] });
    s.upsert({ kind: 'tool', id: 'c1', name: 'type', args: { ref: 'e2', text: 's3cret-pass' } });
    s.secrets.add(['s3cret-pass'], 'https://bank.test');
    const stored = JSON.stringify(s.toJSON());
    expect(stored).to.not.contain('s3cret-pass');
    expect(stored).to.contain('••••••');
    // The live session is untouched: only what leaves for storage is masked.
    expect(JSON.stringify(s.items)).to.contain('s3cret-pass');
  });
});
