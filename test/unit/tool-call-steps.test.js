// runToolCall's steps on their own (agent/tool-call/): the loop's and the gate's tests cover them
// together; these pin each step's one job.
import { expect } from 'chai';
import { offeredTool } from '../../src/chrome/agent/tool-call/offered.js';
import { callFacts, watchesTab } from '../../src/chrome/agent/tool-call/facts.js';
import { gateCall } from '../../src/chrome/agent/tool-call/gate.js';
import { typedArgs } from '../../src/chrome/agent/tool-call/typing.js';
import { executeCall, causeOf } from '../../src/chrome/agent/tool-call/execute.js';
import { createGuard } from '../../src/chrome/agent/safety/guard.js';
import { createPolicy } from '../../src/chrome/agent/safety/policy.js';
import { createTaskScope } from '../../src/chrome/agent/safety/scope.js';
import { createSecretVault } from '../../src/chrome/agent/safety/secrets.js';
import { say } from '../../src/chrome/agent/error-codes.js';
import { ALL_TOOLS } from '../../src/chrome/agent/tools/index.js';

/** @import { CallFacts } from '../../src/chrome/agent/safety/policy.js' */
/** @import { Tool } from '../../src/chrome/types/core' */

const PAGE = 'https://shop.test/cart';
const toolNamed = (/** @type {string} */ name) => /** @type {Tool} */ (ALL_TOOLS.find((t) => t.name === name));

/** A call's surroundings: a tab on PAGE whose content script names every target, a person who answers, a guard. @param {Record<string, any>} [over] */
function envOf(over = {}) {
  /** @type {any[]} */
  const asked = [];
  const answers = /** @type {('yes' | 'task' | 'no')[]} */ (over.answers ?? []);
  const interact = { confirm: async (/** @type {any} */ r) => { asked.push(r); return answers.shift() ?? 'no'; }, approvePlan: async () => ({ approved: true, steps: [] }), clarify: async () => '' };
  const policy = createPolicy({ scope: createTaskScope(PAGE, 'buy shoes'), alwaysConfirm: over.alwaysConfirm });
  const browser = /** @type {any} */ ({
    getTab: async () => ({ id: 1, url: PAGE }),
    sendToContent: async () => ({ ok: true, data: { role: 'textbox', name: 'Password', secretField: over.secretField === true } }),
    handlers: /** @type {any} */ (null),
    holdEffects: async (/** @type {number} */ _tab, /** @type {any} */ h) => { browser.handlers = h; return over.unheld ? null : { async release() {} }; },
  });
  const env = /** @type {any} */ ({ offered: ALL_TOOLS, mode: 'act', ctx: { tabId: 1, browser }, messages: [], guard: createGuard({ policy, interact }), secrets: createSecretVault(), ...over });
  return { env, asked };
}

/** @param {Partial<CallFacts>} f @returns {CallFacts} */
const facts = (f) => ({ tool: 'click', args: {}, effects: ['acts_on_page'], url: PAGE, target: null, mode: 'act', ...f });

describe('tool call steps: which tool', () => {
  it('finds an offered tool; names a changing tool asked for in Ask mode, and an unknown one with the tools there are', () => {
    const { env } = envOf({ offered: [toolNamed('snapshot')], mode: 'ask' });
    expect(offeredTool({ id: '1', name: 'snapshot', arguments: '{}' }, env).tool?.name).to.equal('snapshot');
    const click = offeredTool({ id: '2', name: 'click', arguments: '{}' }, env);
    expect(!click.tool && !click.result.ok && click.result.code).to.equal('NOT_ALLOWED_IN_ASK_MODE');
    const none = offeredTool({ id: '3', name: 'fly', arguments: '{}' }, env);
    expect(!none.tool && !none.result.ok && [none.result.code, none.result.message]).to.deep.equal(['UNKNOWN_TOOL', say('UNKNOWN_TOOL', '"fly"; the tools are snapshot')]);
  });
});

describe('tool call steps: the facts the policy sees', () => {
  it('reads the tab and names the target for an acting call; a call that only steers the run looks at nothing', async () => {
    const { env } = envOf();
    const f = await callFacts(toolNamed('type'), { ref: 'e3', text: 'hi' }, env);
    expect(f).to.deep.include({ tool: 'type', url: PAGE, mode: 'act', dest: null });
    expect(f.target).to.deep.equal({ role: 'textbox', name: 'Password', secretField: false });
    expect(watchesTab(['controls_run'])).to.equal(false);
    const done = await callFacts(toolNamed('done'), { summary: 'ok' }, env);
    expect([done.url, done.target]).to.deep.equal(['', null]);
  });
});

describe('tool call steps: the gate', () => {
  it('passes an allowed call, refuses in the policy\'s words, and a declined card is USER_DECLINED', async () => {
    const { env } = envOf({ alwaysConfirm: ['shop.test'], answers: ['no', 'yes'] });
    expect(await gateCall(facts({ effects: ['reads_page'] }), env)).to.deep.equal({ ok: true });
    const refused = await gateCall(facts({ mode: 'ask' }), env);
    expect(!refused.ok && !refused.result.ok && refused.result.code).to.equal('NOT_ALLOWED_IN_ASK_MODE');
    const declined = await gateCall(facts({}), env);
    expect(!declined.ok && !declined.result.ok && declined.result.code).to.equal('USER_DECLINED');
    expect(await gateCall(facts({}), env)).to.deep.equal({ ok: true, approvedOrigin: 'https://shop.test' });
  });
});

describe('tool call steps: what is typed', () => {
  it('remembers text the agent types, makes what goes into a secret field a secret, and types a secret field only what the person gave', () => {
    const { env } = envOf({ personSecrets: [] });
    const typing = facts({ tool: 'type', effects: ['acts_on_page', 'touches_secrets'], args: { ref: 'e1', text: 'Jane Q. Public' } });
    expect(typedArgs(typing, env)).to.deep.equal({ ok: true, args: { ref: 'e1', text: 'Jane Q. Public' } });
    expect(env.guard.policy.checkCall(facts({ tool: 'navigate', effects: ['navigates'], args: { url: 'https://x.test/?q=Jane%20Q.%20Public' } })).action).to.equal('ask');
    const secret = facts({ ...typing, args: { ref: 'e2', text: 'hunter2-pass' }, target: { role: 'textbox', name: 'Password', secretField: true } });
    const refused = typedArgs(secret, env);
    expect(!refused.ok && !refused.result.ok && refused.result.code).to.equal('SECRET_NOT_GIVEN');
    expect(env.secrets.has('hunter2-pass')).to.equal(true);
    const given = envOf({ personSecrets: [{ name: '[secret 1]', value: 'c0rrect-horse', origin: 'https://shop.test' }] }).env;
    expect(typedArgs({ ...secret, args: { ref: 'e2', text: '[secret 1]' } }, given)).to.deep.equal({ ok: true, args: { ref: 'e2', text: 'c0rrect-horse' } });
  });
});

describe('tool call steps: running the tool', () => {
  it('names the step by its element, else by where it goes', () => {
    expect(causeOf(facts({ target: { role: 'button', name: 'Buy' } }))).to.equal('click button "Buy"');
    expect(causeOf(facts({ tool: 'navigate', args: { url: 'https://shop.test/orders' } }))).to.equal('navigate shop.test');
    expect(causeOf(facts({ tool: 'press_keys' }))).to.equal('press keys');
  });

  it('runs an acting step held (its writes beside its result), a read as it is, and a throw as TOOL_FAILED', async () => {
    const { env, asked } = envOf({ answers: ['yes'] });
    const order = { kind: 'request', method: 'POST', url: 'https://shop.test/api/order', type: 'fetch', topLevel: false, body: 'sku=A-1' };
    const tool = /** @type {Tool} */ ({ ...toolNamed('click'), run: async () => {
      const h = env.ctx.browser.handlers;
      if (await h.decide(order)) h.settled(order, { status: 201 });
      return { ok: true, data: 'clicked' };
    } });
    const held = await executeCall({ id: '1', name: 'click', arguments: '{}' }, tool, {}, facts({ target: { role: 'button', name: 'Buy' } }), undefined, env);
    expect(held).to.deep.equal({ ok: true, data: { result: 'clicked', writes: ['POST shop.test/api/order → 201'] } });
    expect(asked.map((r) => r.cause)).to.deep.equal(['click button "Buy"']);
    const failing = /** @type {Tool} */ ({ ...toolNamed('snapshot'), run: async () => { throw new Error('page gone'); } });
    const r = await executeCall({ id: '2', name: 'snapshot', arguments: '{}' }, failing, {}, facts({ effects: ['reads_page'] }), undefined, env);
    expect(!r.ok && [r.code, r.message]).to.deep.equal(['TOOL_FAILED', say('TOOL_FAILED', 'snapshot failed: page gone')]);
  });

  it('asks about an acting step first when the tab cannot be held', async () => {
    const { env, asked } = envOf({ unheld: true, answers: ['no'] });
    let ran = 0;
    const tool = /** @type {Tool} */ ({ ...toolNamed('click'), run: async () => { ran++; return { ok: true, data: '' }; } });
    const r = await executeCall({ id: '1', name: 'click', arguments: '{}' }, tool, {}, facts({ target: { role: 'button', name: 'Buy' } }), undefined, env);
    expect([!r.ok && r.code, ran, asked[0].action]).to.deep.equal(['USER_DECLINED', 0, 'click button "Buy"']);
  });
});
