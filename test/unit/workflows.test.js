// Workflows: fingerprints bind to one element or fail closed, a run compiles into a
// value-free workflow with parameters, a replay makes no model call and passes the same gate as an
// agent step, a step that cannot bind stops with its reason or is repaired by one model request.
import { expect } from 'chai';
import { bindTarget, fingerprintOf, outlineElements } from '../../src/chrome/agent/workflows/fingerprint.js';
import { compileRun, callsFromTrace } from '../../src/chrome/agent/workflows/compile.js';
import { checkWorkflow } from '../../src/chrome/agent/workflows/workflow-format.js';
import { fixParam, onPage, pagePattern, resolveValues } from '../../src/chrome/agent/workflows/params.js';
import { replayWorkflow } from '../../src/chrome/agent/workflows/replay.js';
import { workflowRunner } from '../../src/chrome/agent/workflows/runner.js';
import { createGuard } from '../../src/chrome/agent/safety/guard.js';
import { createPolicy } from '../../src/chrome/agent/safety/policy.js';
import { createTaskScope } from '../../src/chrome/agent/safety/scope.js';
import { createSecretVault } from '../../src/chrome/agent/safety/secrets.js';
import { MASK } from '../../src/chrome/agent/safety/secret-patterns.js';
import { fakeBrowser } from './fake-browser.js';
import { fakeInteraction } from './fake-interaction.js';
import { fakeProvider, call } from './fake-provider.js';

const FORM = `- banner
  - link "Home" [e1]
- main
  - heading "Order a lamp" [level=1]
  - form "Order"
    - textbox "Full name" [e2]
    - textbox "Email" [e3]
    - combobox "Delivery" value="Standard" options: Standard [selected] | express [e10]
    - button "Send request" [e4]
- navigation "Pages"
  - link "Next" [e5]
  - button "Send request" [e6]`;

describe('workflow fingerprints', () => {
  it('reads every element with its landmark, row lines too', () => {
    const els = outlineElements(`${FORM}\n- main\n  - table\n    - row "Ada" [e7]: cell | link "Edit" [e8]`);
    expect(els.find((e) => e.ref === 'e3')).to.deep.include({ role: 'textbox', name: 'Email', landmark: 'form "Order"' });
    expect(els.find((e) => e.ref === 'e1')).to.deep.include({ landmark: 'banner' });
    expect(els.find((e) => e.ref === 'e8')).to.deep.include({ role: 'link', name: 'Edit', landmark: 'main' });
    expect(fingerprintOf(FORM, 'e10')).to.deep.equal({ role: 'combobox', name: 'Delivery', landmark: 'form "Order"' });
    expect(els.filter((e) => e.ref === 'e10')).to.have.length(1);
    expect(fingerprintOf(FORM, 'e4')).to.deep.equal({ role: 'button', name: 'Send request', landmark: 'form "Order"' });
  });

  it('binds one element whatever its ref and order; the landmark tells twins apart; none or twins fail closed', () => {
    const shuffled = FORM.replace('[e2]', '[e40]').replace('[e3]', '[e41]').replace('[e4]', '[e42]');
    expect(bindTarget(shuffled, { role: 'textbox', name: 'email', landmark: 'form "Order"' })).to.deep.equal({ ok: true, ref: 'e41', landmarkMoved: false });
    expect(bindTarget(FORM, { role: 'button', name: 'Send request', landmark: 'form "Order"' })).to.deep.include({ ok: true, ref: 'e4' });
    expect(bindTarget(FORM, { role: 'button', name: 'Send request', landmark: 'main' })).to.deep.equal({ ok: false, reason: 'ambiguous', count: 2 });
    expect(bindTarget(FORM, { role: 'button', name: 'Place order', landmark: '' })).to.deep.equal({ ok: false, reason: 'missing', count: 0 });
    // Moved to another landmark but still the only one: bound, and said so.
    expect(bindTarget(FORM, { role: 'link', name: 'Next', landmark: 'main' })).to.deep.equal({ ok: true, ref: 'e5', landmarkMoved: true });
  });

  it('URL families: ids in paths match any id, the query is not part of it', () => {
    expect(pagePattern('http://a.test/orders/12345/edit?x=1')).to.deep.equal({ origin: 'http://a.test', path: '/orders/*/edit' });
    expect(onPage(pagePattern('http://a.test/orders/1/edit'), 'http://a.test/orders/99/edit?y=2')).to.equal(true);
    expect(onPage(pagePattern('http://a.test/orders/1/edit'), 'http://b.test/orders/99/edit')).to.equal(false);
  });
});

/** A run on the fixture form, as compileRun reads it. */
function formRun() {
  const outline = `Page: Order a lamp (http://shop.test/flow/form.html?item=2)\n${FORM}`;
  const url = 'http://shop.test/flow/form.html?item=2';
  return {
    startUrl: 'http://shop.test/flow/list.html',
    summary: 'Requested a lamp for Ada Lovelace.',
    now: 1,
    calls: [
      { name: 'snapshot', args: {}, ok: true, url: 'http://shop.test/flow/list.html', outline: '' },
      { name: 'click', args: { ref: 'e9' }, ok: true, url: 'http://shop.test/flow/list.html', target: { role: 'link', name: 'Paper floor lamp' }, outline: '' },
      { name: 'type', args: { ref: 'e2', text: 'Ada Lovelace' }, ok: true, url, outline },
      { name: 'type', args: { ref: 'e3', text: 'ada@example.com' }, ok: true, url, outline },
      { name: 'type', args: { ref: 'e2', text: MASK }, ok: true, url, outline },
      { name: 'click', args: { ref: 'e77' }, ok: false, url, outline },
      { name: 'fetch_url', args: { url: 'http://x.test' }, ok: true, url, outline },
      { name: 'click', args: { ref: 'e4' }, ok: true, url, outline },
      { name: 'done', args: { summary: 'x' }, ok: true, url, outline },
    ],
  };
}

describe('compiling a run into a workflow', () => {
  it('keeps tool, fingerprint, page and heading; typed values become parameters; a secret has no value; reading is left out', () => {
    const { workflow, notes } = compileRun(formRun());
    expect(workflow.steps.map((s) => s.tool)).to.deep.equal(['click', 'type', 'type', 'type', 'click']);
    expect(workflow.steps[0]).to.deep.include({ target: { role: 'link', name: 'Paper floor lamp', landmark: '' }, page: { origin: 'http://shop.test', path: '/flow/list.html' } });
    expect(workflow.steps[1]).to.deep.equal({ tool: 'type', target: { role: 'textbox', name: 'Full name', landmark: 'form "Order"' }, args: { text: '{{full_name}}' }, page: { origin: 'http://shop.test', path: '/flow/form.html' }, sees: 'Order a lamp' });
    expect(workflow.params).to.deep.equal([
      { name: 'full_name', label: 'Full name', default: 'Ada Lovelace' },
      { name: 'email', label: 'Email', default: 'ada@example.com' },
      { name: 'full_name_2', label: 'Full name', secret: true },
    ]);
    expect(JSON.stringify(workflow)).to.not.contain('e4').and.not.contain('ref');
    expect(workflow.summary).to.equal('Requested a lamp for {{full_name}}.');
    expect(notes.map((n) => n.tool)).to.deep.equal(['click', 'fetch_url']);
    const checked = checkWorkflow({ ...workflow, name: 'Order a lamp' });
    expect(checked.ok).to.equal(true);
  });

  it('a parameter the user unticks becomes a fixed value again; a secret never does', () => {
    const { workflow } = compileRun(formRun());
    const fixed = fixParam(workflow, 'email');
    expect(fixed.params.map((p) => p.name)).to.deep.equal(['full_name', 'full_name_2']);
    expect(fixed.steps[2].args).to.deep.equal({ text: 'ada@example.com' });
    expect(fixParam(workflow, 'full_name_2')).to.equal(workflow);
    expect(resolveValues(workflow.params, { full_name_2: 'pw' })).to.deep.equal({ ok: true, values: { full_name: 'Ada Lovelace', email: 'ada@example.com', full_name_2: 'pw' } });
    expect(resolveValues(workflow.params, {})).to.deep.include({ ok: false });
  });

  it('refuses a workflow with refs, selectors, unknown tools, undeclared parameters or a stored secret', () => {
    const { workflow } = compileRun(formRun());
    const bad = structuredClone({ ...workflow, name: 'x' });
    bad.steps[0].args.ref = 'e1';
    bad.steps[1].args.text = '{{nobody}}';
    bad.steps.push({ tool: 'execute_js', args: {}, page: { origin: '', path: '' } });
    bad.params[2].default = 'hunter2';
    const r = checkWorkflow(bad);
    expect(r.ok).to.equal(false);
    const fields = r.ok ? [] : r.errors.map((e) => e.field);
    expect(fields).to.include.members(['steps[0].args.ref', 'steps[1].args', 'steps[5].tool', 'params[2].default']);
  });

  it('reads a trace: each call with the outline seen before it', () => {
    const trace = /** @type {any} */ ({ id: 'r1', url: 'http://shop.test/flow/form.html', steps: [
      { kind: 'model', i: 0 },
      { kind: 'tool', i: 1, name: 'snapshot', args: {}, url: 'http://shop.test/flow/form.html', result: { ok: true, data: `Page: Order a lamp (http://shop.test/flow/form.html)\n${FORM}` } },
      { kind: 'tool', i: 2, name: 'type', args: { ref: 'e3', text: 'a@b.c' }, url: 'http://shop.test/flow/form.html', result: { ok: true, data: {} } },
    ] });
    const run = callsFromTrace(trace);
    const { workflow } = compileRun({ ...run, now: 1 });
    expect(workflow.steps[0].target).to.deep.equal({ role: 'textbox', name: 'Email', landmark: 'form "Order"' });
    expect(workflow.fromRun).to.equal('r1');
  });
});

/**
 * A page double: the outline it shows, and what each content request does.
 * @param {{ outline: () => string, onClick?: (msg: any) => void }} page
 */
function pageDouble(page) {
  const ops = fakeBrowser((msg) => {
    if (msg.type === 'content.snapshot') return { ok: true, data: { text: page.outline(), url: ops.url, title: 'Order a lamp', refs: 3, truncated: false } };
    if (msg.type === 'content.targetInfo') return { ok: true, data: { role: 'button', name: 'Send request', secretField: false } };
    if (msg.type === 'content.click') page.onClick?.(msg);
    return { ok: true, data: { done: msg.type, value: /** @type {any} */ (msg).text } };
  });
  ops.url = 'http://shop.test/flow/form.html';
  return ops;
}

/** @param {string} outline */
function workflowOn(outline) {
  const { workflow } = compileRun({
    startUrl: 'http://shop.test/flow/form.html', now: 1,
    calls: [
      { name: 'type', args: { ref: 'e2', text: 'Ada' }, ok: true, url: 'http://shop.test/flow/form.html', outline: `Page: Order a lamp (http://shop.test/flow/form.html)\n${outline}` },
      { name: 'click', args: { ref: 'e4' }, ok: true, url: 'http://shop.test/flow/form.html', outline: `Page: Order a lamp (http://shop.test/flow/form.html)\n${outline}` },
    ],
  });
  return { ...workflow, id: 'w1', name: 'Order' };
}

/** @param {ReturnType<typeof pageDouble>} ops @param {Partial<Parameters<typeof replayWorkflow>[0]>} extra */
function replay(ops, extra = {}) {
  const policy = createPolicy({ scope: createTaskScope('http://shop.test/flow/form.html', '') });
  const ui = fakeInteraction({ confirm: 'yes' });
  const guard = createGuard({ policy, interact: ui });
  /** @type {any[]} */
  const events = [];
  const run = replayWorkflow(/** @type {any} */ ({ workflow: workflowOn(FORM), values: { full_name: 'Grace' }, ctx: { tabId: 1, browser: ops }, guard, emit: (/** @type {any} */ e) => events.push(e), waits: { pageMs: 300, bindMs: 300, pollMs: 50 }, ...extra }));
  return { run: run.finally(() => guard.close()), events, ui };
}

describe('replaying a workflow', () => {
  it('binds each step in a fresh outline, acts by the new ref, with no model call; a write waits for the same card', async () => {
    const ops = pageDouble({ outline: () => FORM.replace('[e2]', '[e20]').replace('[e4]', '[e21]') });
    ops.causes['content.click'] = [{ kind: 'request', method: 'POST', url: 'http://shop.test/api/requests', type: 'fetch', topLevel: false, body: '{"name":"Grace"}' }];
    const provider = fakeProvider([]);
    const { run, events, ui } = replay(ops, { repairWith: undefined });
    const { outcome, report } = await run;
    expect(outcome.status).to.equal('done');
    expect(provider.requests).to.have.length(0);
    expect(report).to.deep.include({ steps: 2, modelCalls: 0 });
    const typed = ops.sent.find((m) => m.type === 'content.type');
    expect(typed).to.deep.include({ target: { ref: 'e20' }, text: 'Grace' });
    expect(ops.sent.find((m) => m.type === 'content.click')).to.deep.include({ target: { ref: 'e21' } });
    expect(ui.asked.confirms).to.have.length(1);
    expect(ui.asked.confirms[0].rule).to.equal('server_write');
    expect(events.filter((e) => e.type === 'tool_result').map((e) => e.name)).to.deep.equal(['type', 'click']);
  });

  it('a button that is gone stops the replay before acting, saying which and why', async () => {
    const ops = pageDouble({ outline: () => FORM.replace(/- button "Send request" \[e4\]\n/, '').replace('  - button "Send request" [e6]', '') });
    const { run, events } = replay(ops);
    const { outcome } = await run;
    expect(outcome.status).to.equal('error');
    expect(outcome.error?.code).to.equal('WORKFLOW_TARGET_MISSING');
    expect(outcome.error?.message).to.contain('Step 2 (click button "Send request" in form "Order")').and.contain('no button "Send request"');
    expect(ops.sent.some((m) => m.type === 'content.click')).to.equal(false);
    expect(events.at(-1)).to.deep.include({ type: 'error', code: 'WORKFLOW_TARGET_MISSING' });
  });

  it('with repair on, one model request fixes that step, the replay completes, and the repaired step is proposed', async () => {
    const ops = pageDouble({ outline: () => FORM.replace('- button "Send request" [e4]', '- button "Submit request" [e9]').replace('  - button "Send request" [e6]', '') });
    const provider = fakeProvider([(req) => {
      expect(req.tools.map((t) => t.name)).to.deep.equal(['click']);
      expect(String(req.messages[1].content)).to.contain('Submit request');
      return call({ name: 'click', args: { ref: 'e9' } });
    }]);
    const { run } = replay(ops, { repairWith: provider });
    const { outcome, report } = await run;
    expect(outcome.status).to.equal('done');
    expect(provider.requests).to.have.length(1);
    expect(report.modelCalls).to.equal(1);
    expect(report.repairs[0]).to.deep.include({ step: 1 });
    expect(report.repairs[0].replacement.target).to.deep.equal({ role: 'button', name: 'Submit request', landmark: 'form "Order"' });
  });

  it('a secret parameter is typed but never shown: the vault masks it in every event', async () => {
    const ops = pageDouble({ outline: () => FORM });
    const wf = workflowOn(FORM);
    wf.params = [{ name: 'full_name', label: 'Full name', secret: true }];
    const secrets = createSecretVault();
    const { run, events } = replay(ops, { workflow: wf, values: { full_name: 'hunter2secret' }, secrets });
    await run;
    expect(ops.sent.find((m) => m.type === 'content.type')).to.deep.include({ text: 'hunter2secret' });
    expect(JSON.stringify(events)).to.not.contain('hunter2secret');
  });
});

describe('replaying a workflow: a write that reaches the hold after its step ended', () => {
  /** The click's write reaches the hold a moment after the step's result, as on a loaded machine. @param {number} delayMs */
  function lateWrite(delayMs) {
    const ops = pageDouble({ outline: () => FORM });
    const req = /** @type {any} */ ({ kind: 'request', method: 'POST', url: 'http://shop.test/api/requests', type: 'fetch', topLevel: false, body: '{"name":"Grace"}' });
    /** @type {{ wanted: boolean, allowed: boolean }[]} */
    const reached = [];
    const sendToContent = ops.sendToContent;
    ops.sendToContent = async (tabId, msg, o) => {
      const reply = await sendToContent(tabId, msg, o);
      if (msg.type === 'content.click') {
        setTimeout(async () => {
          const h = ops.handlers;
          const wanted = Boolean(h?.wants(req));
          const allowed = wanted && h ? await h.decide(req) : true;
          reached.push({ wanted, allowed });
          if (wanted && allowed) h?.settled?.(req, { status: 201 });
        }, delayMs);
      }
      return reply;
    };
    return { ops, reached };
  }

  it('is held, decided and counted before the verdict: the replay waits the settle period past its last step', async () => {
    const { ops, reached } = lateWrite(60);
    const ui = fakeInteraction({ confirm: 'yes' });
    const run = workflowRunner({ workflow: workflowOn(FORM), values: { full_name: 'Grace' }, repair: false });
    const outcome = await run(/** @type {any} */ ({ toolContext: { tabId: 1, browser: ops }, interact: ui, emit: () => {}, holdTimes: { afterDoneMs: 400 } }));
    expect(reached).to.deep.equal([{ wanted: true, allowed: true }]);
    expect(ui.asked.confirms).to.have.length(1);
    expect(outcome.status).to.equal('done');
    expect(outcome.outcome?.verdict).to.equal('verified');
    expect(outcome.outcome?.receipt.map((w) => `${w.method} ${w.status}`)).to.deep.equal(['POST 201']);
  });
});

describe('workflows: the service and the model tool', () => {
  it('saves through the check, exports and imports all or nothing, and the model runs one through its own run\'s gate', async () => {
    await import('fake-indexeddb/auto');
    const { createWorkflowStore } = await import('../../src/chrome/service/workflow-store.js');
    const { createWorkflows } = await import('../../src/chrome/service/workflows.js');
    const { runAgent } = await import('../../src/chrome/agent/loop.js');
    const store = createWorkflowStore();
    for (const w of await store.list()) await store.remove(w.id);
    const service = createWorkflows({ store, traces: /** @type {any} */ ({ get: async () => undefined }), history: /** @type {any} */ ({ get: async () => undefined }), runs: /** @type {any} */ (() => ({})) });
    const bad = await service.save({ v: 1, name: '', steps: [] });
    expect(bad).to.deep.include({ ok: false, code: 'INVALID_WORKFLOW' });
    const saved = await service.save(workflowOn(FORM));
    expect(saved.ok).to.equal(true);
    const exported = await service.exportAll();
    expect(exported.ok && /** @type {any} */ (exported.data).workflows).to.have.length(1);
    const broken = structuredClone(/** @type {any} */ (exported).data);
    broken.workflows.push({ ...broken.workflows[0], id: 'w2', steps: [{ tool: 'execute_js', args: {}, page: { origin: '', path: '' } }] });
    expect(await service.importAll(broken)).to.deep.include({ ok: false, code: 'INVALID_WORKFLOW' });
    expect(await store.list()).to.have.length(1);

    // The model lists the workflows, then runs one: its steps pass the run's guard (the write asks).
    const ops = pageDouble({ outline: () => FORM });
    ops.causes['content.click'] = [{ kind: 'request', method: 'POST', url: 'http://shop.test/api/requests', type: 'fetch', topLevel: false }];
    const ui = fakeInteraction({ confirm: 'yes' });
    const provider = fakeProvider([
      call({ name: 'run_workflow', args: { action: 'list' } }),
      (req) => {
        expect(String(req.messages.at(-1)?.content)).to.contain('Order').and.contain('full_name');
        return call({ name: 'run_workflow', args: { action: 'run', name: 'Order', values: { full_name: 'Lin' } } });
      },
      (req) => {
        expect(String(req.messages.at(-1)?.content)).to.contain('2 steps replayed without a model');
        return [{ type: 'text', text: 'Done.' }, { type: 'finish', reason: 'stop' }];
      },
    ]);
    const outcome = await runAgent({
      provider, mode: 'act', messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'order again' }],
      toolContext: { tabId: 1, browser: ops, workflows: service.access }, hasWorkflows: true, emit: () => {}, interact: ui, verifyDone: false,
    });
    expect(outcome.status).to.equal('answered');
    expect(provider.requests).to.have.length(3);
    expect(ops.sent.find((m) => m.type === 'content.type')).to.deep.include({ text: 'Lin' });
    expect(ui.asked.confirms.map((c) => c.rule)).to.deep.equal(['server_write']);
  });
});
