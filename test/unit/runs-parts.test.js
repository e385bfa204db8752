// The runs' named parts (service/runs/) on their own, over a real Session and small fakes.
import { expect } from 'chai';
import { Session } from '../../src/chrome/service/session.js';
import { continuedFrom, keepSecrets } from '../../src/chrome/service/runs/begin.js';
import { say } from '../../src/chrome/agent/error-codes.js';
import { lastUserText, takeSession } from '../../src/chrome/service/runs/start.js';
import { emitTo, roleProvider, runPolicy, toolOptions } from '../../src/chrome/service/runs/prepare.js';
import { recordRun } from '../../src/chrome/service/runs/record.js';
import { newChat, stopRun } from '../../src/chrome/service/runs/stop.js';
import { reportWaiting } from '../../src/chrome/service/runs/waiting.js';
import { showIndicator } from '../../src/chrome/service/runs/indicator.js';

/** @param {string} [url] */
const opsAt = (url = 'https://bank.test/login') => /** @type {any} */ ({ getTab: async () => ({ url, title: 'Bank' }) });

describe('runs parts: begin and start', () => {
  it('keepSecrets names a password in the message and keeps it for the tab\'s site', async () => {
    const s = new Session(3);
    const said = await keepSecrets(opsAt(), s, 'log in with password: hunter2secret!');
    expect(said).to.not.include('hunter2secret!');
    expect(said).to.include('[secret 1]');
    expect(s.personSecrets).to.deep.equal([{ name: '[secret 1]', value: 'hunter2secret!', origin: 'https://bank.test' }]);
    expect(await keepSecrets(opsAt(), s, 'nothing secret here')).to.equal('nothing secret here');
    expect(say('PASSWORD_IN_MESSAGE')).to.include('[secret 1]');
  });
  it('continuedFrom starts the record at the user message before the stop', () => {
    const s = new Session(3);
    s.addUser('first', 'act');
    s.apply({ type: 'text_delta', messageId: 'a', text: 'x' });
    s.addUser('second', 'act');
    s.apply({ type: 'tool_call', id: 'c', name: 'click', args: {} });
    s.apply({ type: 'notice', code: 'N', message: 'n' });
    expect(continuedFrom(s)).to.equal(2);
    expect(continuedFrom(new Session(4))).to.equal(0);
  });
  it('takeSession marks the run starting with its origin and task; current() ends with New chat or a newer run', () => {
    const s = new Session(3);
    s.messages.push({ role: 'user', content: 'Buy milk' });
    const first = takeSession(s, 'act', {});
    expect(s.state.phase).to.equal('starting');
    expect(s.origin).to.deep.equal({ kind: 'panel' });
    expect(s.task).to.equal('Buy milk');
    expect(lastUserText(s)).to.equal('Buy milk');
    expect(first.current()).to.equal(true);
    s.run = new AbortController();
    expect(first.current()).to.equal(false);
    const job = takeSession(new Session(5), 'ask', { origin: { kind: 'job', label: 'Daily', jobId: 'j1', task: 'Check the total' } });
    expect(job.current()).to.equal(true);
  });
});

describe('runs parts: prepare', () => {
  it('roleProvider: none for an unset role, else the role\'s provider with its model', () => {
    /** @type {any[]} */
    const made = [];
    const providerFor = /** @type {any} */ ((/** @type {any} */ p) => { made.push(p); return { name: p.id }; });
    const conf = /** @type {any} */ ({ provider: { id: 'main', kind: 'openai', model: 'big' }, providers: [{ id: 'small', kind: 'openai', model: 'tiny' }], roles: { executor: { providerId: 'small', model: '' }, vision: { providerId: '', model: 'eyes' } } });
    expect(roleProvider(providerFor, conf, 'planner', /** @type {any} */ ({}))).to.equal(undefined);
    roleProvider(providerFor, conf, 'executor', /** @type {any} */ ({}));
    roleProvider(providerFor, conf, 'vision', /** @type {any} */ ({}));
    expect(made.map((p) => [p.id, p.model])).to.deep.equal([['small', 'tiny'], ['main', 'eyes']]);
  });
  it('runPolicy builds the task\'s policy with the organization\'s rules over it', async () => {
    const s = new Session(3);
    s.messages.push({ role: 'user', content: 'Compare with https://other.test/item' });
    const click = { tool: 'click', effects: /** @type {const} */ (['acts_on_page']), url: 'https://shop.test/cart', args: {}, target: null, mode: /** @type {const} */ ('act') };
    const open = await runPolicy({ knowledge: undefined }, /** @type {any} */ ({ sites: {} }), s, 'https://shop.test/cart');
    expect(open.checkCall(click)).to.deep.equal({ action: 'allow' });
    // The organization's rules lie over it: a blocked site refuses the step.
    const ruled = await runPolicy({ knowledge: undefined }, /** @type {any} */ ({ sites: {}, managed: { blockSites: ['shop.test'] } }), s, 'https://shop.test/cart');
    expect(ruled.checkCall(click)).to.include({ action: 'refuse', code: 'SITE_BLOCKED' });
  });
  it('toolOptions offers the page\'s own tools by mode and counts the workflows', async () => {
    const base = { ops: /** @type {any} */ ({}), jobs: () => /** @type {any} */ ({ access: 'jobs' }), knowledge: undefined };
    const act = await toolOptions({ ...base, workflows: () => /** @type {any} */ ({ access: { list: async () => [{ id: 'w' }] } }) }, /** @type {any} */ ({ webmcp: true, devTools: true }), 3, 'act', new AbortController().signal);
    expect(act.extraTools?.map((t) => t.name)).to.have.length.above(1);
    expect(act).to.include({ developerTools: true, hasWorkflows: true });
    expect(act.toolContext).to.include({ tabId: 3, jobs: 'jobs' });
    const ask = await toolOptions({ ...base, workflows: undefined }, /** @type {any} */ ({ webmcp: true }), 3, 'ask', new AbortController().signal);
    expect(ask.extraTools).to.have.length(1);
    expect(ask).to.include({ developerTools: false, hasWorkflows: false, siteGuide: undefined });
  });
  it('emitTo moves the run\'s state, says a closed tab, and drops events once the run is not current', () => {
    const s = new Session(3);
    s.state.transition('start');
    s.state.transition('ready');
    let current = true;
    const emit = emitTo(s, () => current);
    emit({ type: 'tool_call', id: 'c', name: 'click', args: {} });
    expect(s.state.phase).to.equal('acting');
    emit({ type: 'tool_result', id: 'c', name: 'click', result: { ok: true, data: 1 } });
    expect(s.state.phase).to.equal('streaming');
    s.stopReason = 'tab_closed';
    emit({ type: 'error', code: 'ABORTED', message: 'Stopped' });
    expect(s.items.at(-1)).to.include({ kind: 'error', code: 'TAB_CLOSED' });
    current = false;
    emit({ type: 'notice', code: 'N', message: 'late' });
    expect(s.items.at(-1)).to.include({ code: 'TAB_CLOSED' });
  });
});

describe('runs parts: waiting, record, stop, indicator', () => {
  it('reportWaiting holds the run in waiting and tells the jobs while the question is open', async () => {
    const s = new Session(3);
    s.state.transition('start');
    s.state.transition('ready');
    /** @type {any[]} */
    const told = [];
    const jobs = () => /** @type {any} */ ({ setWaitingForUser: (/** @type {number} */ tab, /** @type {boolean} */ w, /** @type {any} */ why) => told.push([tab, w, why?.code]) });
    /** @type {string[]} */
    const phases = [];
    const inner = /** @type {any} */ ({ confirm: async () => { phases.push(s.state.phase); return { allow: true }; }, budget: undefined });
    const wrapped = reportWaiting({ jobs, personTurn: /** @type {any} */ (() => null) }, s, inner);
    expect(await wrapped.confirm(/** @type {any} */ ({}), undefined)).to.deep.equal({ allow: true });
    expect(phases).to.deep.equal(['waiting']);
    expect(s.state.phase).to.equal('acting');
    expect(await /** @type {any} */ (wrapped).budget({ scope: 'run' }, undefined)).to.equal(null);
    expect(told).to.deep.equal([[3, true, undefined], [3, false, undefined], [3, true, 'BUDGET_REACHED'], [3, false, undefined]]);
  });
  it('recordRun saves the run\'s own items and tokens, secrets masked', async () => {
    const s = new Session(3);
    s.addUser('old', 'act');
    s.secrets.add(['hunter2secret!'], 'https://bank.test');
    s.addUser('type hunter2secret!', 'act');
    s.usage.inputTokens = 30;
    /** @type {any[]} */
    const saved = [];
    await recordRun({ ops: opsAt(), history: /** @type {any} */ ({ save: async (/** @type {any} */ r) => { saved.push(r); } }) }, s, { firstItem: 1, startedAt: 5, usageBefore: { inputTokens: 10, outputTokens: 0 }, mode: 'act', tab: null, status: 'done' });
    expect(saved).to.have.length(1);
    expect(saved[0]).to.include({ id: '3-5', url: 'https://bank.test/login', mode: 'act', status: 'done' });
    expect(saved[0].usage).to.deep.equal({ inputTokens: 20, outputTokens: 0 });
    expect(saved[0].items).to.have.length(1);
    expect(JSON.stringify(saved[0].items)).to.not.include('hunter2secret!');
  });
  it('stopRun stops an active run once; newChat empties the session and reverts the sheets', async () => {
    const s = new Session(3);
    s.state.transition('start');
    s.run = new AbortController();
    const run = s.run;
    expect(stopRun(s, 'tab_closed')).to.equal(true);
    expect(run.signal.aborted).to.equal(true);
    expect(s.stopReason).to.equal('tab_closed');
    expect(stopRun(s)).to.equal(false);
    s.addUser('hi', 'act');
    /** @type {number[]} */
    const reverted = [];
    /** @type {number[]} */
    const forgot = [];
    await newChat({ ops: /** @type {any} */ ({ devtools: { revert: async (/** @type {number} */ t) => { reverted.push(t); } } }), spend: /** @type {any} */ ({ forget: (/** @type {number} */ t) => forgot.push(t) }) }, s);
    expect(s.items).to.deep.equal([]);
    expect([reverted, forgot]).to.deep.equal([[3], [3]]);
  });
  it('showIndicator asks the tab\'s content script and ignores a page it cannot script', async () => {
    /** @type {any[]} */
    const sent = [];
    showIndicator(/** @type {any} */ ({ sendToContent: async (/** @type {number} */ t, /** @type {any} */ m) => { sent.push([t, m]); throw new Error('no receiver'); } }), 9, true);
    await new Promise((r) => setImmediate(r));
    expect(sent).to.deep.equal([[9, { type: 'content.indicator', show: true }]]);
  });
});
