// What runs spend and the budgets that hold them (agent/spend/, agent/run/spend-check.js,
// service/spend.js): tallies from the providers' reported usage, estimates said as such, the cap
// decision before each model call, the pause and the raised cap in a real loop, and today's tally
// kept across a restart and started over at local midnight.
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { runAgent } from '../../src/chrome/agent/loop.js';
import { estimateInputTokens, estimatedUsage, IMAGE_TOKENS } from '../../src/chrome/agent/spend/estimate.js';
import { addUsage, emptyTally, spentIn, tallyFrom } from '../../src/chrome/agent/spend/tally.js';
import { overCap, suggestedCap, capLetsThrough, nextAmount } from '../../src/chrome/agent/spend/caps.js';
import { meterProvider } from '../../src/chrome/agent/spend/metered.js';
import { localDay } from '../../src/chrome/agent/spend/day.js';
import { withPrice } from '../../src/chrome/providers/pricing.js';
import { createSpend } from '../../src/chrome/service/spend.js';
import { fakeProvider, say, call } from './fake-provider.js';
import { fakeBrowser } from './fake-browser.js';

/** @import { AgentEvent, ChatMessage, StreamEvent, Usage } from '../../src/chrome/types/core' */
/** @import { BudgetPause } from '../../src/chrome/types/spend' */

/** @param {Usage} usage @returns {StreamEvent} */
const used = (usage) => ({ type: 'usage', usage });

/** storage.local's get and set over a plain object. */
function fakeArea() {
  /** @type {Record<string, any>} */
  const data = {};
  return {
    data,
    async get(/** @type {string} */ key) { return key in data ? { [key]: structuredClone(data[key]) } : {}; },
    async set(/** @type {Record<string, any>} */ items) { Object.assign(data, structuredClone(items)); },
  };
}

/** The English locale, for what the panel shows. @type {Record<string, any>} */
const en = JSON.parse(await readFile(new URL('../../src/chrome/_locales/en/messages.json', import.meta.url), 'utf8'));

/** Lets the spend's queued storage writes land. */
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('spend: estimates', () => {
  it('estimates a request from its text, tool calls, tools and images, at four characters a token', () => {
    const req = {
      messages: /** @type {ChatMessage[]} */ ([
        { role: 'system', content: 'x'.repeat(396) },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'click', arguments: '{"ref":"e1"}' }] },
        { role: 'user', content: [{ type: 'text', text: 'y'.repeat(96) }, { type: 'image', mediaType: 'image/png', data: 'AA' }] },
      ]),
      tools: [{ name: 't', description: 'd', parameters: {} }],
    };
    const chars = 396 + 4 + 0 + 4 + 'click'.length + '{"ref":"e1"}'.length + 96 + 4 + JSON.stringify(req.tools[0]).length;
    expect(estimateInputTokens(req)).to.equal(Math.ceil(chars / 4) + IMAGE_TOKENS);
    expect(estimatedUsage({ messages: [], tools: [] }, 41)).to.deep.equal({ inputTokens: 0, outputTokens: 11, estimated: true });
  });
});

describe('spend: tallies', () => {
  it('adds reported usage, counts the calls without a price or with estimated usage, and reads storage safely', () => {
    let t = emptyTally();
    t = addUsage(t, { inputTokens: 1000, outputTokens: 100, cachedInputTokens: 400, costUsd: 0.002 });
    t = addUsage(t, { inputTokens: 50, outputTokens: 5 });
    t = addUsage(t, { inputTokens: 10, outputTokens: 1, estimated: true, costUsd: 0.001 });
    expect(t).to.deep.equal({ inputTokens: 1060, outputTokens: 106, cachedInputTokens: 400, calls: 3, costUsd: 0.003, unpricedCalls: 1, estimatedCalls: 1 });
    expect(spentIn(t, 'tokens')).to.equal(1166);
    expect(spentIn(t, 'usd')).to.equal(0.003);
    expect(tallyFrom({ inputTokens: 5, outputTokens: 'x', calls: -1 })).to.deep.equal({ ...emptyTally(), inputTokens: 5 });
  });
});

describe('spend: the cap decision', () => {
  const run = { ...emptyTally(), inputTokens: 900, outputTokens: 100, costUsd: 0.5 };
  const day = { ...emptyTally(), inputTokens: 9_000, outputTokens: 500, costUsd: 4.5 };
  const price = { input: 2, output: 8 };

  it('lets a call through that fits, and pauses one whose input alone would pass the run budget', () => {
    expect(overCap({ run, day }, { run: { unit: 'tokens', amount: 2_000 } }, { inputTokens: 1_000 })).to.equal(null);
    expect(overCap({ run, day }, { run: { unit: 'tokens', amount: 2_000 } }, { inputTokens: 1_001 }))
      .to.deep.equal({ scope: 'run', unit: 'tokens', used: 1_000, cap: 2_000, next: 1_001 });
  });

  it('judges money with the model\'s input price; a model without a price adds no known money', () => {
    expect(nextAmount(250_000, 'usd', price)).to.equal(0.5);
    expect(overCap({ run, day }, { day: { unit: 'usd', amount: 5 } }, { inputTokens: 250_001, price })).to.deep.include({ scope: 'day', unit: 'usd', used: 4.5, cap: 5 });
    expect(overCap({ run, day }, { day: { unit: 'usd', amount: 5 } }, { inputTokens: 250_000, price })).to.equal(null);
    expect(overCap({ run, day }, { day: { unit: 'usd', amount: 5 } }, { inputTokens: 10_000_000 })).to.equal(null);
  });

  it('names the run\'s budget before the day\'s when the call would pass both', () => {
    const both = overCap({ run, day }, { run: { unit: 'tokens', amount: 1_000 }, day: { unit: 'tokens', amount: 9_500 } }, { inputTokens: 10 });
    expect(both?.scope).to.equal('run');
    expect(overCap({ run, day }, { run: { unit: 'tokens', amount: 5_000 }, day: { unit: 'tokens', amount: 9_500 } }, { inputTokens: 10 })?.scope).to.equal('day');
  });

  it('offers a raised cap with room, and refuses one the paused call would still pass', () => {
    /** @type {BudgetPause} */
    const p = { scope: 'run', unit: 'tokens', used: 1_000, cap: 2_000, next: 1_500 };
    expect(suggestedCap(p)).to.equal(6_000);
    expect(suggestedCap({ ...p, unit: 'usd', used: 0.5, cap: 0.5, next: 0.001 })).to.equal(1);
    expect(capLetsThrough(p, 2_499)).to.equal(false);
    expect(capLetsThrough(p, 2_500)).to.equal(true);
    expect(capLetsThrough(p, Number.NaN)).to.equal(false);
  });

  it('counts the day in local time', () => {
    const lateEvening = new Date(2026, 10, 26, 23, 59, 59).getTime();
    expect(localDay(lateEvening)).to.equal('2026-11-26');
    expect(localDay(lateEvening + 1_000)).to.equal('2026-11-27');
  });
});

describe('spend: metered providers', () => {
  it('passes reported usage through and counts it; prices the person entered replace the table\'s', async () => {
    /** @type {Usage[]} */
    const seen = [];
    const priced = withPrice(fakeProvider([[{ type: 'text', text: 'hi' }, used({ inputTokens: 1_000_000, outputTokens: 100_000 })]]), { input: 3, output: 15 });
    const p = meterProvider(priced, (u) => seen.push(u));
    /** @type {StreamEvent[]} */
    const events = [];
    for await (const ev of p.chatStream({ messages: [], tools: [] })) events.push(ev);
    expect(seen).to.deep.equal([{ inputTokens: 1_000_000, outputTokens: 100_000, costUsd: 4.5 }]);
    expect(events.filter((e) => e.type === 'usage')).to.have.length(1);
    expect(p.capabilities?.().price).to.deep.equal({ input: 3, output: 15 });
  });

  it('estimates a call whose provider reports no usage, says so, and prices it when the price is known', async () => {
    /** @type {Usage[]} */
    const seen = [];
    const req = { messages: /** @type {ChatMessage[]} */ ([{ role: 'user', content: 'z'.repeat(396) }]), tools: [] };
    const p = meterProvider(withPrice(fakeProvider([say('x'.repeat(40))]), { input: 1, output: 2 }), (u) => seen.push(u));
    /** @type {StreamEvent[]} */
    const events = [];
    for await (const ev of p.chatStream(req)) events.push(ev);
    const expected = { inputTokens: 100, outputTokens: 10, estimated: true, costUsd: (100 * 1 + 10 * 2) / 1e6 };
    expect(seen).to.deep.equal([expected]);
    expect(events.at(-1)).to.deep.equal({ type: 'usage', usage: expected });
  });
});

/**
 * A run through the real loop with its spending wired as the router wires it.
 * @param {Parameters<typeof fakeProvider>[0]} turns @param {import('../../src/chrome/types/spend').BudgetSettings} caps
 * @param {{ raise?: (p: BudgetPause) => number | null, area?: ReturnType<typeof fakeArea>, now?: () => number }} [o]
 */
async function budgetedRun(turns, caps, o = {}) {
  const provider = fakeProvider(turns);
  const spend = createSpend({ area: o.area ?? fakeArea(), now: o.now });
  /** @type {AgentEvent[]} */
  const events = [];
  /** @type {BudgetPause[]} */
  const pauses = [];
  /** @type {import('../../src/chrome/types/spend').RunCostView[]} */
  const views = [];
  const raise = o.raise;
  /** @type {import('../../src/chrome/agent/loop.js').RunOptions} */
  const options = {
    provider, mode: 'act', messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'task' }],
    toolContext: { tabId: 1, browser: fakeBrowser() }, emit: (e) => events.push(e), holdTimes: { afterDoneMs: 0 },
    interact: raise ? /** @type {any} */ ({ budget: async (/** @type {BudgetPause} */ p) => { pauses.push(p); views.push(/** @type {any} */ (spend.view(1))); return raise(p); } }) : undefined,
  };
  await spend.begin(1, caps, options);
  const outcome = await runAgent(options);
  spend.end(1);
  return { outcome, events, provider, spend, pauses, views };
}

describe('spend: the budget guard in the loop', () => {
  const big = used({ inputTokens: 1_000_000, outputTokens: 100 });

  it('pauses before the call that would pass the run\'s budget, with what was used and what the call would add, and goes on with the raised cap', async () => {
    const { outcome, provider, pauses, views, spend } = await budgetedRun(
      [[...call({ name: 'snapshot' }), big], [...call({ name: 'done', args: { summary: 'Read it.' } }), used({ inputTokens: 1_000_000, outputTokens: 50 })]],
      { run: { unit: 'tokens', amount: 500_000 } },
      { raise: () => 3_000_000 },
    );
    expect(outcome.status).to.equal('done');
    expect(provider.requests).to.have.length(2);
    expect(pauses).to.have.length(1);
    // Paused before the second call: the first one's reported tokens, the cap, the second's input as estimated from what was sent.
    expect(pauses[0]).to.deep.equal({ scope: 'run', unit: 'tokens', used: 1_000_100, cap: 500_000, next: estimateInputTokens(provider.requests[1]) });
    // While it waited, the run's figures said so; after, the raised cap is the one in force.
    expect(views[0].paused).to.deep.equal(pauses[0]);
    const after = spend.view(1);
    expect(after?.caps.run).to.deep.equal({ unit: 'tokens', amount: 3_000_000 });
    expect(after?.run).to.deep.include({ inputTokens: 2_000_000, outputTokens: 150, calls: 2, estimatedCalls: 0 });
    expect(after?.paused).to.equal(undefined);
    expect(after?.running).to.equal(false);
  });

  it('ends the run before the call, saying why, when nobody can raise the cap', async () => {
    const { outcome, provider, events } = await budgetedRun([[...call({ name: 'snapshot' }), big], say('never asked')], { run: { unit: 'tokens', amount: 500_000 } });
    expect(provider.requests).to.have.length(1);
    expect(outcome).to.deep.include({ status: 'error', steps: 1 });
    expect(outcome.error?.code).to.equal('BUDGET_REACHED');
    const error = /** @type {any} */ (events.find((e) => e.type === 'error'));
    expect(error.message).to.match(/^The run stopped before a model call that would pass its budget.* \(This run has used 1000100 tokens of its budget of 500000 tokens; the next model call would add about \d+ tokens\./);
  });

  it('counts every run of the day against the daily budget, keeps the day across a restart, and starts over at local midnight', async () => {
    const area = fakeArea();
    let now = new Date(2026, 10, 26, 12, 0, 0).getTime();
    const clock = () => now;
    const day = { day: { unit: /** @type {const} */ ('tokens'), amount: 1_500_000 } };
    const first = await budgetedRun([[...call({ name: 'done', args: { summary: 'One.' } }), big]], day, { area, now: clock });
    expect(first.outcome.status).to.equal('done');
    await settle();
    expect(area.data.spendDay).to.deep.include({ day: '2026-11-26' });
    expect(area.data.spendDay.tally.inputTokens).to.equal(1_000_000);
    // A second run (a new background, the same storage) has 499,900 tokens of the day left: its first
    // call fits, its second would pass the day's budget and, with nobody to ask, the run ends there.
    const second = await budgetedRun([[...call({ name: 'snapshot' }), big], say('no')], day, { area, now: clock });
    expect(second.provider.requests).to.have.length(1);
    expect(second.outcome.error?.code).to.equal('BUDGET_REACHED');
    const again = await budgetedRun([say('no call')], day, { area, now: clock, raise: () => null });
    expect(again.provider.requests).to.have.length(0);
    expect(again.pauses[0]).to.deep.include({ scope: 'day', used: 2_000_200, cap: 1_500_000 });
    expect(again.outcome.error?.code).to.equal('BUDGET_REACHED');
    // Past local midnight the day is new: the same run goes through.
    now = new Date(2026, 10, 27, 0, 0, 1).getTime();
    const tomorrow = await budgetedRun([say('fresh day')], day, { area, now: clock, raise: () => null });
    expect(tomorrow.outcome.status).to.equal('answered');
    await settle();
    expect(area.data.spendDay.day).to.equal('2026-11-27');
  });
});

describe('spend: the budget card\'s way back', () => {
  it('a paused run waits on a budget card; a raised cap below what the call needs is refused, one above goes back to the run', async () => {
    const { Session } = await import('../../src/chrome/service/session.js');
    const { createPanelInteraction } = await import('../../src/chrome/service/interaction.js');
    const { dispatch } = await import('../../src/chrome/service/handlers/index.js');
    const s = new Session(4);
    /** @type {BudgetPause} */
    const pause = { scope: 'run', unit: 'tokens', used: 50_040, cap: 40_000, next: 3_000 };
    const answered = createPanelInteraction(s).budget?.(pause);
    const card = /** @type {any} */ (s.items.at(-1));
    expect(card).to.deep.include({ kind: 'budget', pause, suggested: 80_000, status: 'pending' });
    const deps = /** @type {any} */ ({ session: async () => s });
    expect(await dispatch({ type: 'spend.raise', tabId: 4, id: card.id, amount: 0 }, deps)).to.deep.include({ ok: false, code: 'INVALID_REQUEST' });
    expect(await dispatch({ type: 'spend.raise', tabId: 4, id: card.id, amount: 53_039 }, deps)).to.deep.include({ ok: false, code: 'INVALID_ARGUMENTS' });
    expect(await dispatch({ type: 'spend.raise', tabId: 4, id: card.id, amount: 53_040 }, deps)).to.deep.equal({ ok: true, data: null });
    expect(await answered).to.equal(53_040);
    expect(s.items.at(-1)).to.deep.include({ kind: 'budget', status: 'raised', raisedTo: 53_040 });
    expect(await dispatch({ type: 'spend.raise', tabId: 4, id: card.id, amount: 90_000 }, deps)).to.deep.include({ ok: false, code: 'NOT_WAITING' });
  });

  it('Stop while the card waits expires it and ends the wait', async () => {
    const { Session } = await import('../../src/chrome/service/session.js');
    const { createPanelInteraction } = await import('../../src/chrome/service/interaction.js');
    const s = new Session(5);
    const stop = new AbortController();
    const answered = createPanelInteraction(s).budget?.({ scope: 'day', unit: 'usd', used: 2, cap: 2, next: 0.01 }, stop.signal);
    stop.abort();
    let failed = false;
    await answered?.catch(() => { failed = true; });
    expect(failed).to.equal(true);
    expect(s.items.at(-1)).to.deep.include({ kind: 'budget', status: 'expired' });
  });
});

describe('spend: what is shown', () => {
  /** The English strings, placeholders filled in order. */
  const t = (/** @type {string} */ key, /** @type {string | string[]} */ subs = []) => {
    const e = en[key];
    const list = Array.isArray(subs) ? subs : [subs];
    return e.message.replace(/\$([A-Z_]+)\$/g, (/** @type {string} */ _m, /** @type {string} */ name) => list[Number(e.placeholders[name.toLowerCase()].content.slice(1)) - 1]);
  };

  it('shows money only when every call was priced, and says when tokens are partly estimated', async () => {
    const { tallyText, pauseText } = await import('../../src/chrome/ui/spend-format.js');
    const priced = addUsage(emptyTally(), { inputTokens: 1_000, outputTokens: 200, costUsd: 0.006 });
    expect(tallyText(priced, true, t, 'en')).to.equal('1,200 tokens · $0.006');
    expect(tallyText(priced, false, t, 'en')).to.equal('1,200 tokens · price unknown');
    expect(tallyText(addUsage(priced, { inputTokens: 10, outputTokens: 2 }), true, t, 'en')).to.equal('1,212 tokens · price unknown');
    expect(tallyText(addUsage(priced, { inputTokens: 10, outputTokens: 2, estimated: true, costUsd: 0 }), true, t, 'en')).to.equal('1,212 tokens (estimated) · $0.006');
    expect(pauseText({ scope: 'day', unit: 'usd', used: 1.5, cap: 1.5, next: 0.25 }, t, 'en')).to.equal('Today\'s runs have used $1.50 of the $1.50 daily budget; the next model call would add about $0.25.');
  });

  it('a cap raised for the day holds for every run of the day, and is gone the next', async () => {
    const area = fakeArea();
    let now = new Date(2026, 10, 26, 9, 0, 0).getTime();
    const spend = createSpend({ area, now: () => now });
    const options = /** @type {any} */ ({ provider: fakeProvider([]) });
    const caps = { run: { unit: /** @type {const} */ ('tokens'), amount: 10 }, day: { unit: /** @type {const} */ ('tokens'), amount: 100 } };
    await spend.begin(1, caps, options);
    options.spend.raise('day', { unit: 'tokens', amount: 500 });
    options.spend.raise('run', { unit: 'tokens', amount: 50 });
    const other = /** @type {any} */ ({ provider: fakeProvider([]) });
    await spend.begin(2, caps, other);
    // The other tab's run keeps its own run cap but shares the raised day.
    expect(other.spend.caps()).to.deep.equal({ run: { unit: 'tokens', amount: 10 }, day: { unit: 'tokens', amount: 500 } });
    expect(spend.view(1)?.caps).to.deep.equal({ run: { unit: 'tokens', amount: 50 }, day: { unit: 'tokens', amount: 500 } });
    await settle();
    expect(area.data.spendDay.raised).to.deep.equal({ unit: 'tokens', amount: 500 });
    now += 24 * 3_600_000;
    expect(other.spend.caps().day).to.deep.equal({ unit: 'tokens', amount: 100 });
    expect((await spend.status()).runs.map((v) => v.tabId)).to.deep.equal([1, 2]);
  });
});
