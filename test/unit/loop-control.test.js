// The loop's pauses and exits: clarify, abort mid-stream and mid-tool, the confirmation gate, the
// observation after done.
import { expect } from 'chai';
import { runAgent } from '../../src/chrome/agent/loop.js';
import { createConfirmPolicy } from '../../src/chrome/agent/confirm-policy.js';
import { fakeProvider, say, call } from './fake-provider.js';
import { fakeBrowser } from './fake-browser.js';
import { fakeInteraction } from './fake-interaction.js';

/** @import { AgentEvent, ChatMessage, Provider } from '../../src/chrome/types/core' */

const CHECKOUT = '- heading "Your cart"\n- button "Remove item" [ref=e3]\n- button "Place order" [ref=e4]';

/** @param {Partial<Parameters<typeof runAgent>[0]> & { provider: Provider }} opts */
async function run(opts) {
  /** @type {AgentEvent[]} */
  const events = [];
  /** @type {ChatMessage[]} */
  const messages = [{ role: 'system', content: 'sys' }, { role: 'user', content: 'Buy the cart' }];
  const browser = opts.toolContext?.browser ?? fakeBrowser();
  const outcome = await runAgent({ mode: 'act', messages, toolContext: { tabId: 1, browser }, emit: (e) => events.push(e), ...opts });
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

  it('stops within a second when aborted mid-stream, even if the provider ignores the signal', async () => {
    const controller = new AbortController();
    /** @type {Provider} */
    const stuck = {
      kind: 'fake', label: 'Stuck', model: 'x', async listModels() { return []; },
      async *chatStream() {
        yield { type: 'text', text: 'Thinking' };
        await new Promise((r) => setTimeout(r, 5_000));
        yield { type: 'text', text: ' never' };
      },
    };
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    const { outcome, events } = await run({ provider: stuck, signal: controller.signal });
    const took = Date.now() - started;
    expect(outcome.status).to.equal('aborted');
    expect(took).to.be.below(1_000);
    expect(events.at(-1)).to.include({ type: 'error', code: 'ABORTED' });
  });

  it('stops within a second when aborted mid-tool and answers the pending call', async () => {
    const controller = new AbortController();
    const browser = fakeBrowser();
    browser.sendToContent = () => new Promise(() => {}); // a content script that never answers
    const provider = fakeProvider([call({ name: 'snapshot' }, { name: 'click', args: { ref: 'e1' } })]);
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    const { outcome, messages } = await run({ provider, signal: controller.signal, toolContext: { tabId: 1, browser } });
    expect(Date.now() - started).to.be.below(1_000);
    expect(outcome.status).to.equal('aborted');
    expect(messages.filter((m) => m.role === 'tool').map((m) => m.content)).to.deep.equal(['Error ABORTED: The user stopped the run.', 'Error ABORTED: The user stopped the run.']);
  });

  it('a checkout click waits for confirmation, naming the action and the site; declining leaves the page untouched', async () => {
    const browser = shopBrowser();
    const ui = fakeInteraction({ confirm: 'no' });
    const provider = fakeProvider([call({ name: 'snapshot' }), call({ name: 'click', args: { ref: 'e4' } }), say('You declined, so I did not order.')]);
    const { outcome, messages } = await run({ provider, interact: ui, policy: createConfirmPolicy(), toolContext: { tabId: 1, browser } });
    expect(ui.asked.confirms).to.deep.equal([{ category: 'checkout', site: 'shop.test:8443', action: 'Click button "Place order"' }]);
    expect(browser.sent.map((m) => m.type)).to.deep.equal(['content.snapshot']);
    expect(messages.filter((m) => m.role === 'tool')[1].content).to.match(/^Error USER_DECLINED: The user declined: Click button "Place order" on shop.test:8443/);
    expect(outcome.status).to.equal('answered');
  });

  it('a confirmed click runs; "always allow" stops asking on that site', async () => {
    const browser = shopBrowser();
    const ui = fakeInteraction({ confirm: 'always' });
    const policy = createConfirmPolicy();
    const provider = fakeProvider([call({ name: 'snapshot' }), call({ name: 'click', args: { ref: 'e4' } }), call({ name: 'click', args: { ref: 'e3' } }), say('ok')]);
    await run({ provider, interact: ui, policy, toolContext: { tabId: 1, browser } });
    expect(ui.asked.confirms).to.have.length(1);
    expect(browser.sent.filter((m) => m.type === 'content.click').map((m) => /** @type {any} */ (m).target?.ref)).to.deep.equal(['e4', 'e3']);
  });

  it('a fetch_url POST is refused in Ask mode and asks the user in Act mode; GET never asks', async () => {
    const browser = shopBrowser();
    /** @type {string[]} */
    const fetched = [];
    const base = browser.fetchUrl.bind(browser);
    browser.fetchUrl = async (url, opts) => { fetched.push(`${opts.method ?? 'GET'} ${url}`); return base(url, opts); };
    const post = { name: 'fetch_url', args: { url: 'https://api.example.test/orders', method: 'POST', body: '{}' } };
    const askRun = await run({ mode: 'ask', provider: fakeProvider([call(post), say('ok')]), policy: createConfirmPolicy(), interact: fakeInteraction(), toolContext: { tabId: 1, browser } });
    expect(askRun.messages.find((m) => m.role === 'tool')?.content).to.match(/^Error NOT_ALLOWED_IN_ASK_MODE/);
    expect(fetched).to.deep.equal([]);

    const no = fakeInteraction({ confirm: 'no' });
    const declined = await run({ provider: fakeProvider([call(post), say('ok')]), policy: createConfirmPolicy(), interact: no, toolContext: { tabId: 1, browser } });
    expect(no.asked.confirms[0]).to.deep.include({ category: 'send', site: 'api.example.test', action: 'Send a POST request to https://api.example.test/orders' });
    expect(declined.messages.find((m) => m.role === 'tool')?.content).to.match(/^Error USER_DECLINED/);
    expect(fetched).to.deep.equal([]);

    const yes = fakeInteraction({ confirm: 'yes' });
    await run({ provider: fakeProvider([call({ name: 'fetch_url', args: { url: 'https://api.example.test/orders' } }), call(post), say('ok')]), policy: createConfirmPolicy(), interact: yes, toolContext: { tabId: 1, browser } });
    expect(yes.asked.confirms).to.have.length(1);
    expect(fetched).to.deep.equal(['GET https://api.example.test/orders', 'POST https://api.example.test/orders']);
  });

  it('a click by visible text is gated like a click by ref', async () => {
    const browser = shopBrowser();
    const ui = fakeInteraction({ confirm: 'no' });
    const { messages } = await run({ provider: fakeProvider([call({ name: 'click', args: { text: 'Place order' } }), say('ok')]), policy: createConfirmPolicy(), interact: ui, toolContext: { tabId: 1, browser } });
    expect(ui.asked.confirms[0]).to.deep.include({ category: 'checkout' });
    expect(messages.find((m) => m.role === 'tool')?.content).to.match(/^Error USER_DECLINED/);
    expect(browser.sent.some((m) => m.type === 'content.click')).to.equal(false);
  });

  it('an unattended run (scheduler) is blocked from consequential actions instead of asking', async () => {
    const browser = shopBrowser();
    const provider = fakeProvider([call({ name: 'snapshot' }), call({ name: 'click', args: { ref: 'e4' } }), say('needs you')]);
    const { messages } = await run({ provider, policy: createConfirmPolicy({ unattended: true }), toolContext: { tabId: 1, browser } });
    expect(messages.filter((m) => m.role === 'tool')[1].content).to.match(/^Error CONFIRMATION_REQUIRED: /);
    expect(browser.sent.some((m) => m.type === 'content.click')).to.equal(false);
  });

  it('checks a done claim against the page once, and accepts a claim the page shows', async () => {
    const browser = shopBrowser();
    const provider = fakeProvider([
      call({ name: 'done', args: { summary: 'Ordered. The page says "Order #2002 is placed".' } }),
      call({ name: 'done', args: { summary: 'Ordered. The page says "Order #1001 is placed".' } }),
    ]);
    const { outcome, events, messages } = await run({ provider, toolContext: { tabId: 1, browser } });
    expect(outcome.status).to.equal('done');
    expect(messages.filter((m) => m.role === 'tool')[0].content).to.match(/^Error CLAIM_NOT_SEEN: The page \(https:\/\/shop.test:8443\/checkout\) does not show "Order #2002 is placed"/);
    const final = /** @type {any} */ (events.find((e) => e.type === 'final'));
    expect(final.check).to.deep.equal({ url: 'https://shop.test:8443/checkout', title: 'Test', verified: true, missing: [] });
  });

  it('stops a looping run with an explanation', async () => {
    const provider = fakeProvider(Array.from({ length: 20 }, () => call({ name: 'click', args: { ref: 'e1' } })));
    const { outcome, messages } = await run({ provider, loopDetect: { stopAfterNudges: 2 } });
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
