// The loop's pauses and exits: clarify, abort mid-stream and mid-tool, the observation after done.
// The safety gate has its own suite (safety-gate.test.js).
import { expect } from 'chai';
import { runAgent } from '../../src/chrome/agent/loop.js';
import { fakeProvider, say, call } from './fake-provider.js';
import { fakeBrowser } from './fake-browser.js';
import { fakeInteraction } from './fake-interaction.js';

/** @import { AgentEvent, ChatMessage, Provider } from '../../src/chrome/types/core' */

const CHECKOUT = '- heading "Your cart"\n- button "Remove item" [e3]\n- button "Place order" [e4]';

/** @param {Partial<Parameters<typeof runAgent>[0]> & { provider: Provider }} opts */
async function run(opts) {
  /** @type {AgentEvent[]} */
  const events = [];
  /** @type {ChatMessage[]} */
  const messages = opts.messages ?? [{ role: 'system', content: 'sys' }, { role: 'user', content: 'Buy the cart' }];
  const browser = opts.toolContext?.browser ?? fakeBrowser();
  const outcome = await runAgent({ mode: 'act', toolContext: { tabId: 1, browser }, emit: (e) => events.push(e), ...opts, messages });
  return { outcome, events, messages };
}

/** A browser on a checkout page that records clicks. */
function shopBrowser() {
  const b = fakeBrowser((msg) => {
    if (msg.type === 'content.snapshot') return { ok: true, data: { text: CHECKOUT, url: b.url, title: 'Checkout' } };
    if (msg.type === 'content.read') return { ok: true, data: '# Checkout\nThank you! Order #1001 is placed.' };
    return { ok: true, data: { clicked: /** @type {any} */ (msg).ref } };
  });
  b.url = 'https://shop.test:8443/checkout';
  return b;
}

describe('loop control', () => {
  it('clarify pauses the run until the user answers, then resumes with the answer', async () => {
    const ui = fakeInteraction({ clarify: 'The blue one, size M' });
    const provider = fakeProvider([
      call({ name: 'clarify', args: { question: 'Which shirt: blue or red?' } }),
      (req) => {
        const last = req.messages.at(-1);
        return say(`You said: ${last?.content}`);
      },
    ]);
    const { outcome, messages } = await run({ provider, interact: ui });
    expect(ui.asked.questions).to.deep.equal(['Which shirt: blue or red?']);
    expect(messages.find((m) => m.role === 'tool')?.content).to.equal('The user answered: The blue one, size M');
    expect(outcome.text).to.equal('You said: The user answered: The blue one, size M');
  });

  it('clarify without a user is an error value the model can act on', async () => {
    const provider = fakeProvider([call({ name: 'clarify', args: { question: 'Which?' } }), say('ok')]);
    const { messages } = await run({ provider });
    expect(messages.find((m) => m.role === 'tool')?.content).to.match(/^Error NO_USER: /);
  });

  // Neither stuck party ever answers, so the run ending at all proves the abort does not wait on
  // them; mocha's time-out is only a hang guard.
  it('stops when aborted mid-stream, even if the provider ignores the signal and never yields again', async () => {
    const controller = new AbortController();
    /** @type {Provider} */
    const stuck = {
      kind: 'fake', label: 'Stuck', model: 'x', async listModels() { return []; },
      async *chatStream() {
        yield { type: 'text', text: 'Thinking' };
        await new Promise(() => {});
        yield { type: 'text', text: ' never' };
      },
    };
    setTimeout(() => controller.abort(), 50);
    const { outcome, events } = await run({ provider: stuck, signal: controller.signal });
    expect(outcome.status).to.equal('aborted');
    expect(events.at(-1)).to.include({ type: 'error', code: 'ABORTED' });
  });

  it('stops when aborted mid-tool on a content script that never answers, and answers the pending call', async () => {
    const controller = new AbortController();
    const browser = fakeBrowser();
    // A content script that never answers; Stop is pressed once the first tool is waiting on it (not
    // after a time: on a busy machine the run may not have reached the tool yet).
    browser.sendToContent = () => { setTimeout(() => controller.abort(), 0); return new Promise(() => {}); };
    const provider = fakeProvider([call({ name: 'snapshot' }, { name: 'click', args: { ref: 'e1' } })]);
    const { outcome, messages } = await run({ provider, signal: controller.signal, toolContext: { tabId: 1, browser } });
    expect(outcome.status).to.equal('aborted');
    expect(messages.filter((m) => m.role === 'tool').map((m) => m.content)).to.deep.equal(['Error ABORTED: The run was stopped.', 'Error ABORTED: The run was stopped.']);
  });

  it('checks a done claim against the page once, and accepts a claim the page shows', async () => {
    const browser = shopBrowser();
    const provider = fakeProvider([
      call({ name: 'done', args: { summary: 'Ordered. The page says "Order #2002 is placed".' } }),
      call({ name: 'done', args: { summary: 'Ordered. The page says "Order #1001 is placed".' } }),
    ]);
    // A task that asks for nothing to change: only the page can confirm the claim.
    const { outcome, events, messages } = await run({ provider, toolContext: { tabId: 1, browser }, messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'What does the checkout page say about my order?' }] });
    expect(outcome.status).to.equal('done');
    expect(messages.filter((m) => m.role === 'tool')[0].content).to.match(/^Error CLAIM_NOT_SEEN: The page does not show what the agent said it did.* \(https:\/\/shop.test:8443\/checkout does not show "Order #2002 is placed"/);
    const final = /** @type {any} */ (events.find((e) => e.type === 'final'));
    expect(final.check).to.deep.equal({ url: 'https://shop.test:8443/checkout', title: 'Test', verified: true, missing: [] });
  });

  it('stops a looping run with an explanation', async () => {
    const provider = fakeProvider(Array.from({ length: 20 }, () => call({ name: 'click', args: { ref: 'e1' } })));
    // A tab of its own: the outline memory of earlier tests' tab 1 would make the first click diff too.
    const { outcome, messages } = await run({ provider, loopDetect: { stopAfterNudges: 2 }, toolContext: { tabId: 77, browser: fakeBrowser() } });
    expect(outcome.status).to.equal('loop');
    expect(outcome.error?.message).to.contain('going in circles');
    // The first click has no outline to diff against; from the second on the results are identical,
    // so the third identical one (the fourth click) carries the first nudge, the fifth the stop.
    const tools = messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(tools[2]).to.not.contain('[Loop warning');
    expect(tools[3]).to.contain('[Loop warning from Tabwright, not from the page]');
    expect(provider.requests).to.have.length(5);
  });
});
