// Plan mode (seed 000): plan → approve / edit / reject → steps run with earlier outputs → re-plan on failure.
import { expect } from 'chai';
import { runAgent } from '../../src/chrome/agent/loop.js';
import { fakeProvider, say, call } from './fake-provider.js';
import { fakeBrowser } from './fake-browser.js';
import { fakeInteraction } from './fake-interaction.js';

/** @import { AgentEvent, ChatMessage, ChatRequest } from '../../src/chrome/types/core' */

const TASK = 'Sign in as alice';
const STEPS = ['Type alice into the Username field', 'Click Sign in'];

/** The executor's rule: do the step named in the brief, then report done with an output. */
function executorTurn(/** @type {ChatRequest} */ req) {
  const brief = String(req.messages[1].content);
  const step = /Now do step \d+: (.*)$/.exec(brief)?.[1] ?? '';
  if (req.messages.some((m) => m.role === 'tool')) return call({ name: 'done', args: { summary: `did: ${step}` } });
  if (step.startsWith('Type')) return call({ name: 'type', args: { ref: 'e1', text: /Type (\w+)/.exec(step)?.[1] } });
  return call({ name: 'click', args: { ref: 'e2' } });
}

/** @param {{ planner: any[], executor?: any[], ui: ReturnType<typeof fakeInteraction>, browser?: ReturnType<typeof fakeBrowser> }} o */
async function runPlan(o) {
  const planner = fakeProvider(o.planner);
  const executor = fakeProvider(o.executor ?? Array.from({ length: 20 }, () => executorTurn));
  const browser = o.browser ?? fakeBrowser();
  /** @type {AgentEvent[]} */
  const events = [];
  /** @type {ChatMessage[]} */
  const messages = [{ role: 'system', content: 'plan sys' }, { role: 'user', content: TASK }];
  const outcome = await runAgent({ provider: planner, executorProvider: executor, mode: 'plan', messages, interact: o.ui, toolContext: { tabId: 1, browser }, emit: (e) => events.push(e) });
  return { outcome, events, messages, planner, executor, browser };
}

describe('plan mode', () => {
  it('plans with read-only tools, waits for approval, then runs each step on the executor with earlier outputs', async () => {
    const ui = fakeInteraction();
    const { outcome, events, planner, executor, browser } = await runPlan({
      ui,
      planner: [call({ name: 'snapshot' }), call({ name: 'propose_plan', args: { steps: STEPS, message: 'Two steps.' } })],
    });
    expect(outcome.status).to.equal('done');
    expect(planner.requests[0].tools.map((t) => t.name).sort()).to.deep.equal(['propose_plan', 'read_page', 'snapshot']);
    expect(ui.asked.plans).to.deep.equal([STEPS]);
    expect(executor.requests).to.have.length(4);
    expect(String(executor.requests[0].messages[1].content)).to.contain('Now do step 1: Type alice into the Username field');
    expect(String(executor.requests[2].messages[1].content)).to.contain('Step 1 output: did: Type alice into the Username field');
    expect(String(executor.requests[2].messages[0].content)).to.contain('ONE step of a plan');
    // The effects watcher (content.watch / content.effects) brackets every action, and an outline
    // after it gives the diff; the steps' actions are these.
    expect(browser.sent.map((m) => m.type).filter((t) => t !== 'content.watch' && t !== 'content.effects' && t !== 'content.targetInfo')).to.deep.equal(['content.snapshot', 'content.type', 'content.snapshot', 'content.click', 'content.snapshot']);
    const steps = events.filter((e) => e.type === 'plan_step').map((e) => /** @type {any} */ (e)).map((e) => `${e.index}:${e.status}`);
    expect(steps).to.deep.equal(['0:running', '0:ok', '1:running', '1:ok']);
    expect(events.filter((e) => e.type === 'plan').map((e) => /** @type {any} */ (e).status)).to.deep.equal(['pending', 'running', 'done']);
    expect(outcome.text).to.contain('Plan completed (2 steps)');
  });

  it('runs the steps as the user edited them', async () => {
    const ui = fakeInteraction({ plan: (steps) => ({ approved: true, steps: ['Type bob into the Username field', steps[1], '  '] }) });
    const { browser, events } = await runPlan({ ui, planner: [call({ name: 'propose_plan', args: { steps: STEPS } })] });
    expect(browser.sent.find((m) => m.type === 'content.type')).to.deep.include({ type: 'content.type', text: 'bob' });
    const running = /** @type {any} */ (events.find((e) => e.type === 'plan' && e.status === 'running'));
    expect(running.steps).to.deep.equal(['Type bob into the Username field', 'Click Sign in']);
  });

  it('does nothing when the plan is rejected', async () => {
    const ui = fakeInteraction({ plan: (steps) => ({ approved: false, steps }) });
    const { outcome, executor, browser } = await runPlan({ ui, planner: [call({ name: 'propose_plan', args: { steps: STEPS } })] });
    expect(outcome.status).to.equal('rejected');
    expect(executor.requests).to.have.length(0);
    expect(browser.sent).to.deep.equal([]);
  });

  it('answers directly when the request needs no steps', async () => {
    const { outcome } = await runPlan({ ui: fakeInteraction(), planner: [say('This page is a sign-in form.')] });
    expect(outcome).to.include({ status: 'answered', text: 'This page is a sign-in form.' });
  });

  it('re-plans the rest after a failing step, with the new steps approved again', async () => {
    const ui = fakeInteraction();
    const { outcome, planner, executor } = await runPlan({
      ui,
      planner: [
        call({ name: 'propose_plan', args: { steps: ['Type alice into the Username field', 'Click the Login link'] } }),
        (/** @type {ChatRequest} */ req) => {
          const brief = String(req.messages[1].content);
          if (!brief.includes('Step 2 failed: "Click the Login link"') || !brief.includes('-> typed alice') || !brief.includes('no Login link')) throw new Error(`bad replan brief: ${brief}`);
          return call({ name: 'propose_plan', args: { steps: ['Click Sign in'] } });
        },
      ],
      executor: [
        call({ name: 'type', args: { ref: 'e1', text: 'alice' } }),
        call({ name: 'done', args: { summary: 'typed alice' } }),
        say('There is no Login link on this page.'),
        call({ name: 'click', args: { ref: 'e2' } }),
        call({ name: 'done', args: { summary: 'signed in' } }),
      ],
    });
    expect(outcome.status).to.equal('done');
    expect(ui.asked.plans).to.have.length(2);
    expect(ui.asked.plans[1]).to.deep.equal(['Click Sign in']);
    expect(planner.requests).to.have.length(2);
    expect(executor.requests).to.have.length(5);
    expect(String(executor.requests[3].messages[1].content)).to.contain('Step 1 output: typed alice');
  });

  it('a step whose write the server refused fails, and a re-plan that only answers keeps the failed verdict', async () => {
    const ui = fakeInteraction({ confirm: 'yes' });
    const browser = fakeBrowser();
    browser.causes['content.click'] = [{ kind: 'request', method: 'POST', url: 'https://example.test/api/session', type: 'fetch', topLevel: false, body: '{"user":"alice"}' }];
    browser.answers = () => ({ status: 200, body: '{"ok":false,"error":"Account locked"}' });
    /** @type {AgentEvent[]} */
    const events = [];
    const outcome = await runAgent({
      provider: fakeProvider([call({ name: 'propose_plan', args: { steps: ['Click Sign in'] } }), say('Signing in is not possible: the account is locked.')]),
      executorProvider: fakeProvider([call({ name: 'click', args: { ref: 'e1' } }), call({ name: 'done', args: { summary: 'signed in' } })]),
      mode: 'plan', messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'Sign in as alice' }], interact: ui, toolContext: { tabId: 1, browser }, emit: (e) => events.push(e),
    });
    const steps = events.filter((e) => e.type === 'plan_step').map((e) => /** @type {any} */ (e));
    expect(steps.map((e) => e.status)).to.deep.equal(['running', 'failed']);
    expect(steps[1].output).to.contain('Account locked');
    expect(outcome.text).to.not.contain('Plan completed');
    expect(outcome.outcome?.verdict).to.equal('failed');
    const final = /** @type {any} */ (events.find((e) => e.type === 'final'));
    expect(final.outcome.verdict).to.equal('failed');
  });

  it('a plan whose steps ran but whose writes are not confirmed says so, never "Plan completed"', async () => {
    const browser = fakeBrowser();
    browser.causes['content.click'] = [{ kind: 'request', method: 'POST', url: 'https://example.test/api/orders', type: 'fetch', topLevel: false, body: '{"item":"poster"}' }];
    browser.answers = () => ({ status: 202 });
    /** @type {AgentEvent[]} */
    const events = [];
    const outcome = await runAgent({
      provider: fakeProvider([call({ name: 'propose_plan', args: { steps: ['Click Order'] } })]),
      executorProvider: fakeProvider([call({ name: 'click', args: { ref: 'e1' } }), call({ name: 'done', args: { summary: 'ordered' } })]),
      mode: 'plan', messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'Order the poster' }], interact: fakeInteraction({ confirm: 'yes' }), toolContext: { tabId: 1, browser }, emit: (e) => events.push(e),
    });
    expect(outcome.status).to.equal('done');
    expect(outcome.text).to.match(/^Plan finished \(1 steps\), not verified: The server accepted the change for later processing/);
    expect(outcome.outcome?.verdict).to.equal('not_verified');
  });
});

describe('plan mode: the planner\'s first look at the page', () => {
  /** @param {boolean} vision */
  async function firstRequest(vision) {
    const planner = { ...fakeProvider([call({ name: 'propose_plan', args: { steps: STEPS } })]), capabilities: () => ({ vision }) };
    /** @type {ChatMessage[]} */
    const messages = [{ role: 'system', content: 'plan sys' }, { role: 'user', content: TASK }];
    await runAgent({ provider: /** @type {any} */ (planner), mode: 'plan', messages, toolContext: { tabId: 1, browser: fakeBrowser() }, emit: () => {} });
    const user = /** @type {ChatMessage} */ (planner.requests[0].messages.find((m) => m.role === 'user'));
    return Array.isArray(user.content) ? user.content : [{ type: 'text', text: user.content }];
  }

  it('gives a planner that sees images one screenshot of the page with the task', async () => {
    const parts = await firstRequest(true);
    expect(parts.map((p) => p.type)).to.deep.equal(['text', 'text', 'image']);
    expect(parts[0]).to.deep.equal({ type: 'text', text: TASK });
    expect(parts[2]).to.deep.include({ mediaType: 'image/png', data: 'AAAA' });
  });

  it('gives a planner that cannot see images none', async () => {
    const parts = await firstRequest(false);
    expect(parts).to.deep.equal([{ type: 'text', text: TASK }]);
  });
});
