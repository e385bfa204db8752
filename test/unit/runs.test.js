import { expect } from 'chai';
import { createRuns } from '../../src/chrome/service/runs.js';
import { createProvider } from '../../src/chrome/providers/index.js';
import { Session } from '../../src/chrome/service/session.js';
import { runAgent } from '../../src/chrome/agent/loop.js';
import { fakeProvider, say, call } from './fake-provider.js';

/** A runs module over fakes: one tab (7), settings we change, a provider we script. */
function setup() {
  /** @type {any} */
  const conf = { provider: { kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', apiKey: '' }, maxSteps: 10, sites: { allow: [], confirm: [] } };
  /** @type {Array<() => Promise<unknown>>} */
  const gates = [];
  const s = new Session(7);
  /** @type {string[]} */
  const phases = [];
  s.listeners.add((e) => { if (e.type === 'running' && e.phase) phases.push(e.phase); });
  /** @type {any[]} */
  let turns = [say('Done.')];
  const indicator = /** @type {boolean[]} */ ([]);
  /** What was written down at each write-ahead checkpoint. @type {any[]} */
  const checkpoints = [];
  /** History records saved. @type {any[]} */
  const saved = [];
  const runs = createRuns({
    platform: /** @type {any} */ ({ languageModel: () => null }),
    settings: /** @type {any} */ ({ get: async () => { for (const g of gates.splice(0)) await g(); return conf; } }),
    ops: /** @type {any} */ ({ devtools: { network: { watch: async () => {} }, revert: async () => 0 }, getTab: async () => ({ id: 7, url: 'https://shop.test/', title: 'Shop' }), sendToContent: async (/** @type {number} */ _t, /** @type {any} */ m) => { if (m.type === 'content.indicator') indicator.push(m.show); return { ok: true, data: null }; } }),
    history: /** @type {any} */ ({ save: async (/** @type {any} */ r) => { saved.push(r); } }),
    session: async () => s,
    jobs: () => /** @type {any} */ ({ access: {}, setWaitingForUser() {} }),
    checkpoint: async (session) => { checkpoints.push(JSON.parse(JSON.stringify(session.toJSON()))); },
    providerFor: (p, deps) => (/** @type {any} */ (p).kind === 'scripted' ? fakeProvider(turns) : createProvider(p, deps)),
  });
  return { runs, s, conf, phases, gates, indicator, checkpoints, saved, setTurns: (/** @type {any[]} */ t) => { turns = t; } };
}

/** A turn that streams a word, then waits until the run is stopped. */
const stalls = () => [{ type: 'text', text: 'Working' }, ...Array.from({ length: 200 }, () => ({ type: 'text', text: '.' })), { type: 'finish', reason: 'stop' }];

describe('runs: every path ends in a settled tab', () => {
  it('a run goes starting → streaming → finished, and the indicator comes and goes', async () => {
    const t = setup();
    t.conf.provider = { kind: 'scripted' };
    const r = await t.runs.beginRun(7, 'hello', 'act');
    if (!r.ok) throw new Error(r.message);
    const o = await r.outcome;
    expect(o.status).to.equal('answered');
    expect(t.phases).to.deep.equal(['starting', 'streaming', 'finished']);
    expect(t.s.running).to.equal(false);
    expect(t.indicator).to.deep.equal([true, false]);
  });

  it('the verdict is stored with the run: the outcome, the history record and the final transcript item carry the same one', async () => {
    const t = setup();
    t.conf.provider = { kind: 'scripted' };
    const r = await t.runs.beginRun(7, 'What is on this page?', 'ask');
    if (!r.ok) throw new Error(r.message);
    const o = await r.outcome;
    expect(o.outcome?.verdict).to.equal('not_verified');
    expect(o.outcome?.reasons.map((x) => x.code)).to.deep.equal(['NOTHING_TO_CHECK']);
    expect(t.saved).to.have.length(1);
    expect(t.saved[0].outcome).to.deep.equal(o.outcome);
    const final = t.s.items.find((i) => i.kind === 'assistant' && i.final);
    expect(final && final.kind === 'assistant' ? final.outcome : null).to.deep.equal(o.outcome);
  });

  it('an unusable provider ends the run failed with a message, keeps the conversation, and the next message runs', async () => {
    const t = setup();
    t.conf.provider = { kind: 'no-such-kind', baseUrl: '', model: '' };
    const r = await t.runs.beginRun(7, 'first try', 'act');
    if (!r.ok) throw new Error(r.message);
    expect((await r.outcome).status).to.equal('error');
    expect(t.s.state.phase).to.equal('failed');
    expect(t.s.running).to.equal(false);
    const error = t.s.items.find((i) => i.kind === 'error');
    expect(error).to.include({ code: 'RUN_NOT_STARTED' });
    expect(/** @type {any} */ (error).message).to.match(/Unknown provider kind "no-such-kind"/);
    expect(t.s.messages.some((m) => m.role === 'user' && m.content === 'first try')).to.equal(true);

    t.conf.provider = { kind: 'scripted' };
    const next = await t.runs.startChat(7, 'second try', 'act');
    expect(next.ok).to.equal(true);
    await t.s.settled;
    expect(t.s.state.phase).to.equal('finished');
  });

  it('Stop while the run starts ends it stopped; a second Stop changes nothing; the next message runs', async () => {
    const t = setup();
    t.conf.provider = { kind: 'scripted' };
    /** @type {() => void} */
    let release = () => {};
    t.gates.push(() => new Promise((r) => { release = () => r(undefined); }));
    const started = t.runs.beginRun(7, 'go', 'act');
    await new Promise((r) => setTimeout(r, 5));
    expect(t.s.state.phase).to.equal('starting');
    expect(t.runs.stopRun(t.s)).to.equal(true);
    expect(t.runs.stopRun(t.s)).to.equal(false);
    expect(t.s.running).to.equal(false);
    release();
    const r = await started;
    if (!r.ok) throw new Error(r.message);
    expect((await r.outcome).status).to.equal('aborted');
    expect(t.s.state.phase).to.equal('stopped');
    // The stopped run never showed the indicator, never asked the model.
    expect(t.indicator).to.deep.equal([]);
    const again = await t.runs.beginRun(7, 'again', 'act');
    if (!again.ok) throw new Error(again.message);
    expect((await again.outcome).status).to.equal('answered');
    expect(t.s.state.phase).to.equal('finished');
  });

  it('Stop mid-stream ends the run stopped, and its own end afterwards does not change that', async () => {
    const t = setup();
    t.conf.provider = { kind: 'scripted' };
    t.setTurns([stalls()]);
    const r = await t.runs.beginRun(7, 'go', 'act');
    if (!r.ok) throw new Error(r.message);
    await new Promise((res) => setTimeout(res, 20));
    expect(t.s.state.phase).to.equal('streaming');
    expect(t.runs.stopRun(t.s)).to.equal(true);
    const o = await r.outcome;
    expect(o.status).to.equal('aborted');
    expect(t.s.state.phase).to.equal('stopped');
    expect(t.phases.at(-1)).to.equal('stopped');
  });

  it('New chat mid-run empties the same session: the old run writes nothing more, the next run is heard live', async () => {
    const t = setup();
    t.conf.provider = { kind: 'scripted' };
    t.setTurns([stalls(), say('Fresh answer.')]);
    /** @type {any[]} */
    const heard = [];
    t.s.listeners.add((e) => heard.push(e));
    const r = await t.runs.beginRun(7, 'old task', 'act');
    if (!r.ok) throw new Error(r.message);
    await new Promise((res) => setTimeout(res, 20));
    await t.runs.newChat(t.s);
    expect(t.s.items).to.deep.equal([]);
    expect(t.s.messages).to.deep.equal([]);
    expect(t.s.running).to.equal(false);
    await new Promise((res) => setTimeout(res, 20));
    expect(t.s.items).to.deep.equal([]);

    heard.length = 0;
    const next = await t.runs.beginRun(7, 'new task', 'act');
    if (!next.ok) throw new Error(next.message);
    await next.outcome;
    expect(heard.some((e) => e.type === 'running' && e.running === true)).to.equal(true);
    expect(heard.filter((e) => e.type === 'upsert').map((e) => e.item.kind)).to.include.members(['user', 'assistant']);
    expect(t.s.items.map((i) => i.kind)).to.deep.equal(['user', 'assistant']);
    expect(t.s.messages.filter((m) => m.role === 'user').map((m) => m.content)).to.deep.equal(['new task']);
  });

  it('refuses a second run while one is going (BUSY), not after it ended', async () => {
    const t = setup();
    t.conf.provider = { kind: 'scripted' };
    t.setTurns([stalls(), say('ok')]);
    const r = await t.runs.beginRun(7, 'one', 'act');
    if (!r.ok) throw new Error(r.message);
    await new Promise((res) => setTimeout(res, 10));
    expect(await t.runs.beginRun(7, 'two', 'act')).to.include({ ok: false, code: 'BUSY' });
    t.runs.stopRun(t.s);
    await r.outcome;
    const again = await t.runs.beginRun(7, 'two', 'act');
    expect(again.ok).to.equal(true);
  });

  it('writes ahead: the message before the model is asked, a tool call before it runs, its result before the next step', async () => {
    const t = setup();
    t.conf.provider = { kind: 'scripted' };
    t.setTurns([call({ name: 'scratchpad', args: { note: 'found 3 items' } }), say('Noted.')]);
    const r = await t.runs.beginRun(7, 'remember this', 'act');
    if (!r.ok) throw new Error(r.message);
    await r.outcome;
    const [first, beforeTool, afterTool] = t.checkpoints;
    expect(first.messages.map((/** @type {any} */ m) => m.role)).to.deep.equal(['user']);
    expect(first.phase).to.equal('starting');
    // Before the tool ran: the call is stored (Continue would answer it as interrupted), no result yet.
    expect(beforeTool.messages.at(-1)).to.include({ role: 'assistant' });
    expect(beforeTool.messages.at(-1).toolCalls[0]).to.include({ name: 'scratchpad' });
    expect(beforeTool.items.find((/** @type {any} */ i) => i.kind === 'tool').result).to.equal(undefined);
    expect(afterTool.messages.at(-1)).to.include({ role: 'tool', name: 'scratchpad' });
    expect(afterTool.items.find((/** @type {any} */ i) => i.kind === 'tool').result).to.include({ ok: true });
    expect(t.checkpoints).to.have.length(3);
  });

  it('the settle period after done is the settings\' when they name one, the product default otherwise', async () => {
    const t = setup();
    t.conf.provider = { kind: 'scripted' };
    /** @type {unknown[]} */
    const seen = [];
    /** @type {any} */
    const runner = async (/** @type {any} */ o) => { seen.push(o.holdTimes); return runAgent(o); };
    for (const settleMs of [undefined, 1_500]) {
      t.conf.settleMs = settleMs;
      t.setTurns([say('Done.')]);
      const r = await t.runs.beginRun(7, 'hello', 'act', { runner });
      if (!r.ok) throw new Error(r.message);
      await r.outcome;
    }
    expect(seen).to.deep.equal([undefined, { afterDoneMs: 1_500 }]);
  });
});
