// The run's stages on their own (agent/run/): the loop's tests cover them together; these pin each
// stage's one job.
import { expect } from 'chai';
import { pendingArgs, previewArgs, withNotes, imagesMessage, toolMessage, SKIPPED } from '../../src/chrome/agent/run/messages.js';
import { emptyAnswer, stepLimit, loopStopped, skipRest, abortBatch, providerFailed } from '../../src/chrome/agent/run/endings.js';
import { guideAfterStep, announceTier } from '../../src/chrome/agent/run/guides.js';
import { forRequest } from '../../src/chrome/agent/run/model-turn.js';
import { COMPACTION_DEFAULTS } from '../../src/chrome/agent/compaction.js';
import { ProviderError } from '../../src/chrome/providers/errors.js';
import { MASK } from '../../src/chrome/agent/safety/secret-patterns.js';

/** @import { AgentEvent, ChatMessage } from '../../src/chrome/types/core' */

/** A run with only what the stage under test reads. @param {Record<string, any>} [over] */
function fakeRun(over = {}) {
  /** @type {AgentEvent[]} */
  const events = [];
  /** @type {ChatMessage[]} */
  const messages = [{ role: 'system', content: 'sys' }, { role: 'user', content: 'task' }];
  const run = /** @type {any} */ ({
    events, messages, emit: (/** @type {AgentEvent} */ e) => events.push(e), provider: { label: 'Mock', model: 'm1' },
    maxSteps: 7, emptyRetried: false, guideKey: null, opts: {}, pinned: { note: '' }, cfg: { ...COMPACTION_DEFAULTS }, ...over,
  });
  return run;
}

describe('run stages: messages', () => {
  it('hides what a secret-handling tool would type until its result is back; other tools show their arguments', () => {
    const typing = /** @type {any} */ ({ effects: ['touches_secrets'] });
    expect(pendingArgs({ ref: 'e4', text: 'hunter2' }, typing)).to.deep.equal({ ref: 'e4', text: MASK });
    expect(pendingArgs('raw', typing)).to.equal(MASK);
    expect(pendingArgs({ url: 'https://a.test' }, /** @type {any} */ ({ effects: ['navigates'] }))).to.deep.equal({ url: 'https://a.test' });
    expect(previewArgs('{"a":1}')).to.deep.equal({ a: 1 });
    expect(previewArgs('{not json')).to.equal('{not json');
  });

  it("marks Tabwright's notes as not from the page, and names every image of a batch", () => {
    expect(withNotes('r', [], undefined)).to.equal('r');
    expect(withNotes('r', ['Same click twice.'], ['Moved on.'])).to.equal('r\n\n[Loop warning from Tabwright, not from the page] Same click twice.\n\n[Tabwright, not the page] Moved on.');
    const m = imagesMessage([{ name: 'screenshot', image: { mediaType: 'image/png', data: 'AA' } }, { name: 'a screenshot after click', image: { mediaType: 'image/png', data: 'BB' } }]);
    expect(m.role).to.equal('user');
    expect(/** @type {any[]} */ (m.content)[0].text).to.contain('The images returned by screenshot, a screenshot after click');
    expect(/** @type {any[]} */ (m.content).slice(1).map((c) => c.data)).to.deep.equal(['AA', 'BB']);
  });
});

describe('run stages: endings', () => {
  it('asks again after one empty answer and ends on the second', () => {
    const run = fakeRun();
    expect(emptyAnswer(run, 1)).to.equal(null);
    expect(emptyAnswer(run, 2)).to.deep.include({ status: 'error', steps: 2 });
    expect(run.events.map((/** @type {AgentEvent} */ e) => e.type === 'error' && e.code)).to.deep.equal(['EMPTY_COMPLETION']);
  });

  it('the step cap, a loop and a provider failure each end with their own code and say it', () => {
    const run = fakeRun();
    expect(stepLimit(run)).to.deep.include({ status: 'step_limit', steps: 7 });
    expect(loopStopped(run, 'The same click five times.', 3).error?.message).to.match(/^The agent kept repeating itself and was stopped.* \(The same click five times\.\)$/);
    expect(providerFailed(run, new ProviderError('RATE_LIMITED', 'Slow down.'), 2).error).to.deep.equal({ code: 'RATE_LIMITED', message: 'Slow down.' });
    expect(providerFailed(run, new Error('boom'), 2).error?.message).to.equal('Something unexpected failed inside Tabwright. (talking to Mock: boom)');
    expect(run.events.map((/** @type {any} */ e) => e.code)).to.deep.equal(['STEP_LIMIT', 'LOOP_DETECTED', 'RATE_LIMITED', 'INTERNAL_ERROR']);
  });

  it('answers every call not run, so the conversation stays well-formed', () => {
    const run = fakeRun();
    const calls = [{ id: 'c1', name: 'click', arguments: '{}' }, { id: 'c2', name: 'type', arguments: '{}' }];
    skipRest(run, calls.slice(0, 1));
    expect(abortBatch(run, calls.slice(1), 4)).to.deep.equal({ status: 'aborted', steps: 4 });
    const tools = run.messages.filter((/** @type {ChatMessage} */ m) => m.role === 'tool');
    expect(tools.map((/** @type {any} */ m) => m.toolCallId)).to.deep.equal(['c1', 'c2']);
    expect(tools[0].content).to.equal(toolMessage(calls[0], SKIPPED).content);
    expect(tools[1].content).to.contain('ABORTED');
  });
});

describe('run stages: guides and the request', () => {
  it("adds a new site's guide once, when a step takes the tab there, and nothing for the same site", async () => {
    /** @type {Record<string, any>} */
    const guides = { 'https://shop.test/': { key: 'shop', name: 'Shop', site: 'shop.test', text: '[Site guide] Shop' } };
    const run = fakeRun({ opts: { siteGuide: async (/** @type {string} */ u) => guides[u] ?? null } });
    expect(await guideAfterStep(run, 'https://a.test/', 'https://a.test/')).to.equal(null);
    expect(await guideAfterStep(run, 'https://a.test/', 'https://shop.test/')).to.equal('[Site guide] Shop');
    expect(run.guideKey).to.equal('shop');
    expect(await guideAfterStep(run, 'https://shop.test/x', 'https://shop.test/')).to.equal(null);
    expect(run.events.filter((/** @type {AgentEvent} */ e) => e.type === 'guidance')).to.have.length(1);
  });

  it('tells a read-only tier to the panel and to the model, and says nothing for the full set', () => {
    const full = fakeRun({ tiering: { tier: 'full' } });
    announceTier(full);
    expect(full.events).to.deep.equal([]);
    const small = fakeRun({ tiering: { tier: 'read' }, tier: { tools: [] }, contextWindow: 4096, mode: 'act' });
    announceTier(small);
    expect(small.events.map((/** @type {any} */ e) => e.code)).to.deep.equal(['TOOLS_READ_ONLY']);
    expect(small.messages[1].content).to.contain('Only reading tools are available to you');
  });

  it('pins the scratchpad note to the system prompt of the request only', () => {
    const run = fakeRun({ pinned: { note: 'order 42' } });
    const sent = forRequest(run);
    expect(sent[0].content).to.contain('Your scratchpad note (pinned; replace it with scratchpad):\norder 42');
    expect(run.messages[0].content).to.equal('sys');
  });
});
