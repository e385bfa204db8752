// Verified completion: every acting step names the writes it caused and how the server
// answered; done is challenged when the last write failed or a task that asked for a change wrote
// nothing; a write the server accepted, or a job created, is evidence where the page is silent; a
// done that stands after its challenge is flagged with the refused write.
import { expect } from 'chai';
import { runAgent } from '../../src/chrome/agent/loop.js';
import { createPolicy } from '../../src/chrome/agent/safety/policy.js';
import { createTaskScope } from '../../src/chrome/agent/safety/scope.js';
import { asksForChange, challengeDone, evidenceOf, refusedWrites } from '../../src/chrome/agent/completion.js';
import { writeLine } from '../../src/chrome/agent/safety/write-ledger.js';
import { fakeProvider, say, call } from './fake-provider.js';
import { fakeBrowser } from './fake-browser.js';
import { fakeInteraction } from './fake-interaction.js';

/** @import { AgentEvent, ChatMessage } from '../../src/chrome/types/core' */
/** @import { HeldRequest } from '../../src/chrome/types/safety' */

const SHOP = 'https://shop.test';
/** @param {Partial<HeldRequest>} r @returns {HeldRequest} */
const req = (r = {}) => ({ kind: 'request', method: 'POST', url: `${SHOP}/api/settings`, type: 'fetch', topLevel: false, body: '{"theme":"dark"}', ...r });

/** A settings page whose Save button POSTs; the page says "Saved!" whatever the server answers. */
function settingsPage(/** @type {number} */ status) {
  const b = fakeBrowser((msg) => {
    if (msg.type === 'content.snapshot') return { ok: true, data: { text: '- button "Save" [e1]\n- status "Saved!"', url: b.url, title: 'Settings' } };
    if (msg.type === 'content.targetInfo') return { ok: true, data: { role: 'button', name: 'Save' } };
    if (msg.type === 'content.read') return { ok: true, data: 'Settings Saved!' };
    return { ok: true, data: { clicked: true } };
  });
  b.url = `${SHOP}/settings`;
  b.causes['content.click'] = [req()];
  b.answers = () => ({ status });
  return b;
}

/** @param {{ provider: any, browser: any, task: string, allow?: string[], holdTimes?: Record<string, number> }} o */
async function run(o) {
  /** @type {AgentEvent[]} */
  const events = [];
  /** @type {ChatMessage[]} */
  const messages = [{ role: 'system', content: 'sys' }, { role: 'user', content: o.task }];
  const policy = createPolicy({ scope: createTaskScope(`${SHOP}/settings`, o.task), alwaysAllow: o.allow ?? ['shop.test'] });
  const outcome = await runAgent({ mode: 'act', messages, provider: o.provider, policy, interact: fakeInteraction({ confirm: 'yes' }), toolContext: { tabId: 1, browser: o.browser }, emit: (e) => events.push(e), holdTimes: o.holdTimes });
  const tools = messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
  const final = /** @type {any} */ (events.find((e) => e.type === 'final'));
  return { outcome, tools, final };
}

describe('verified completion: what counts as asking for a change', () => {
  it('reads commands, not nouns', () => {
    for (const t of ['Buy the cart', 'Fill in the form and submit it', 'Please book a table for two', 'Change my e-mail to ada@example.test', 'I want you to cancel the subscription', 'Bestellen Sie das Poster', '予約して', '删除这个问题'])
      expect(asksForChange(t), t).to.equal(true);
    for (const t of ['What does the page say about my order?', 'Summarise this post', 'Which booking is cheapest?', 'Read the comments', 'Add one to the counter'])
      expect(asksForChange(t), t).to.equal(false);
  });
});

describe('verified completion: the challenge and the evidence', () => {
  /** @param {Partial<import('../../src/chrome/agent/safety/write-ledger.js').WriteEntry>} x @returns {import('../../src/chrome/agent/safety/write-ledger.js').WriteEntry} */
  const w = (x) => ({ method: 'POST', url: `${SHOP}/api/orders`, sent: true, step: 1, settled: true, ...x });

  it('challenges a done whose last sent write failed, and one for a change nothing was written for', () => {
    expect(challengeDone({ writes: [w({ status: 201 }), w({ status: 500 })], task: 'Buy it', createdJobs: 0 })?.code).to.equal('WRITE_FAILED');
    expect(challengeDone({ writes: [w({ error: 'net::ERR_CONNECTION_RESET' })], task: 'Buy it', createdJobs: 0 })?.message).to.include('POST shop.test/api/orders → failed (net::ERR_CONNECTION_RESET)');
    expect(challengeDone({ writes: [], task: 'Submit the form', createdJobs: 0 })?.code).to.equal('NO_WRITE_SEEN');
    expect(challengeDone({ writes: [], task: 'Submit the form every morning', createdJobs: 1 })).to.equal(null);
    expect(challengeDone({ writes: [w({ status: 500 }), w({ status: 201 })], task: 'Buy it', createdJobs: 0 })).to.equal(null);
    // A write the user declined is the user's decision, told already: not a failure to challenge.
    expect(challengeDone({ writes: [w({ status: 201 }), w({ sent: false })], task: 'Buy it', createdJobs: 0 })).to.equal(null);
    expect(challengeDone({ writes: [], task: 'What is on the page?', createdJobs: 0 })).to.equal(null);
  });

  it('names writes and evidence in words', () => {
    expect(writeLine(w({ status: 201 }))).to.equal('POST shop.test/api/orders → 201');
    expect(writeLine(w({ sent: false }))).to.equal('POST shop.test/api/orders → not sent (declined)');
    expect(writeLine(w({ settled: false }))).to.equal('POST shop.test/api/orders → no answer yet');
    expect(evidenceOf([w({ status: 201 }), w({ status: 500 })], 1)).to.deep.equal(['POST shop.test/api/orders → 201', 'a scheduled job was created']);
    expect(refusedWrites([w({ status: 201 }), w({ status: 422 })])).to.deep.equal(['POST shop.test/api/orders → 422']);
  });
});

describe('verified completion through the loop', () => {
  it('a page that says "Saved!" after a 500: the step names the 500, done is challenged, and an honest model reports failure', async () => {
    const provider = fakeProvider([
      call({ name: 'click', args: { ref: 'e1' } }),
      call({ name: 'done', args: { summary: 'Saved your settings: the page says "Saved!".' } }),
      say('I could not save your settings: the server refused the change (500).'),
    ]);
    const { outcome, tools } = await run({ provider, browser: settingsPage(500), task: 'Save the dark theme' });
    expect(tools[0]).to.match(/"writes":\["POST shop\.test\/api\/settings → 500"\]/);
    expect(tools[1]).to.match(/^Error WRITE_FAILED: A change the agent sent did not go through: .* \(POST shop\.test\/api\/settings → 500/);
    expect(outcome.status).to.equal('answered');
  });

  it('a done that stands after the challenge is flagged with the refused write', async () => {
    const provider = fakeProvider([
      call({ name: 'click', args: { ref: 'e1' } }),
      call({ name: 'done', args: { summary: 'Saved.' } }),
      call({ name: 'done', args: { summary: 'Saved, really.' } }),
    ]);
    const { outcome, final } = await run({ provider, browser: settingsPage(500), task: 'Save the dark theme' });
    expect(outcome.status).to.equal('done');
    expect(final.check).to.deep.include({ verified: false, refused: ['POST shop.test/api/settings → 500'] });
  });

  it('a write the server accepted is evidence: no "not seen on the page" challenge for a quote the page does not show', async () => {
    const provider = fakeProvider([
      call({ name: 'click', args: { ref: 'e1' } }),
      call({ name: 'done', args: { summary: 'Done: "Your theme is now dark".' } }),
    ]);
    const { outcome, tools, final } = await run({ provider, browser: settingsPage(201), task: 'Save the dark theme' });
    expect(outcome.status).to.equal('done');
    expect(tools).to.have.length(2);
    expect(final.check).to.deep.include({ verified: true, evidence: ['POST shop.test/api/settings → 201'] });
  });

  it('a task that asked for a change and wrote nothing is challenged once; the second done stands', async () => {
    const b = settingsPage(200);
    b.causes['content.click'] = [];
    const provider = fakeProvider([
      call({ name: 'click', args: { ref: 'e1' } }),
      call({ name: 'done', args: { summary: 'Saved.' } }),
      call({ name: 'done', args: { summary: 'The theme switch applies in this browser only; nothing needed saving.' } }),
    ]);
    const { outcome, tools } = await run({ provider, browser: b, task: 'Save the dark theme' });
    expect(tools[1]).to.match(/^Error NO_WRITE_SEEN/);
    expect(outcome.status).to.equal('done');
  });

  it('a second identical submit asks first, even on an always-allowed site; declined, only one write leaves', async () => {
    const b = settingsPage(201);
    const provider = fakeProvider([
      call({ name: 'click', args: { ref: 'e1' } }),
      call({ name: 'click', args: { ref: 'e1' } }),
      say('Saved once.'),
    ]);
    const asked = fakeInteraction({ confirm: 'no' });
    /** @type {ChatMessage[]} */
    const messages = [{ role: 'system', content: 'sys' }, { role: 'user', content: 'Save the dark theme' }];
    const policy = createPolicy({ scope: createTaskScope(`${SHOP}/settings`), alwaysAllow: ['shop.test'] });
    await runAgent({ mode: 'act', messages, provider, policy, interact: asked, toolContext: { tabId: 1, browser: b }, emit: () => {} });
    expect(asked.asked.confirms.map((c) => c.rule)).to.deep.equal(['duplicate_write']);
    expect(b.held.filter((h) => h.allowed && h.wanted).length).to.equal(1);
    const second = messages.filter((m) => m.role === 'tool').map((m) => String(m.content))[1];
    expect(second).to.match(/^Error USER_DECLINED/).and.match(/Writes: POST shop\.test\/api\/settings → not sent \(declined\)/);
  });
});

/** @param {any} final */
const codes = (final) => final.outcome.reasons.map((/** @type {any} */ r) => r.code);

describe('verified completion: every write counts, the verdict goes with the final answer', () => {
  it('a 200 whose body refuses: the step says so, done is challenged, an obedient model\'s answer ends failed', async () => {
    const b = settingsPage(200);
    b.answers = () => ({ status: 200, body: '{"ok":false,"error":"Theme locked by your administrator"}' });
    const provider = fakeProvider([
      call({ name: 'click', args: { ref: 'e1' } }),
      call({ name: 'done', args: { summary: 'Saved: the page says "Saved!".' } }),
      say('I could not save it: the server said the theme is locked by your administrator.'),
    ]);
    const { outcome, tools, final } = await run({ provider, browser: b, task: 'Save the dark theme' });
    expect(tools[0]).to.contain('POST shop.test/api/settings → 200 (refused: Theme locked by your administrator)');
    expect(tools[1]).to.match(/^Error WRITE_FAILED: A change the agent sent did not go through: .*the server said: Theme locked by your administrator/);
    expect(outcome.status).to.equal('answered');
    expect(outcome.outcome?.verdict).to.equal('failed');
    expect(final.outcome.verdict).to.equal('failed');
    expect(final.outcome.receipt[0]).to.deep.include({ method: 'POST', status: 200, verdict: 'failed', said: 'Theme locked by your administrator' });
  });

  it('a stubborn model that repeats done after a refusal: done stands, failed, the page check not green', async () => {
    const b = settingsPage(200);
    b.answers = () => ({ status: 200, body: '{"success":false}' });
    const provider = fakeProvider([
      call({ name: 'click', args: { ref: 'e1' } }),
      call({ name: 'done', args: { summary: 'Saved: the page says "Saved!".' } }),
      call({ name: 'done', args: { summary: 'Saved: the page says "Saved!".' } }),
    ]);
    const { outcome, final } = await run({ provider, browser: b, task: 'Save the dark theme' });
    expect(outcome.status).to.equal('done');
    expect(final.outcome.verdict).to.equal('failed');
    expect(final.check.verified).to.equal(false);
    expect(final.check.refused).to.deep.equal(['POST shop.test/api/settings → 200 (the server said: the server said it failed)']);
    expect(final.check.evidence).to.equal(undefined);
  });

  it('a refused write followed by an accepted one elsewhere (a beacon, a log) is still challenged, not only the last', async () => {
    const b = settingsPage(200);
    b.causes['content.click'] = [req(), req({ url: `${SHOP}/api/log`, body: '{"event":"save"}' })];
    b.answers = (r) => (r.url.endsWith('/log') ? { status: 204 } : { status: 409, body: '{"message":"Someone else changed the settings"}' });
    const provider = fakeProvider([
      call({ name: 'click', args: { ref: 'e1' } }),
      call({ name: 'done', args: { summary: 'Saved.' } }),
      call({ name: 'done', args: { summary: 'Saved.' } }),
    ]);
    const { tools, final } = await run({ provider, browser: b, task: 'Save the dark theme' });
    expect(tools[1]).to.match(/^Error WRITE_FAILED: A change the agent sent did not go through: .* \(POST shop\.test\/api\/settings → 409 \(the server said: Someone else changed the settings\)/);
    expect(final.outcome.verdict).to.equal('failed');
    expect(final.outcome.receipt.map((/** @type {any} */ r) => r.verdict)).to.deep.equal(['failed', 'verified']);
  });

  it('a NO_WRITE_SEEN challenge only repeated leaves a trace: not verified, CHALLENGE_REPEATED, no green note', async () => {
    const b = settingsPage(200);
    b.causes['content.click'] = [];
    const provider = fakeProvider([
      call({ name: 'click', args: { ref: 'e1' } }),
      call({ name: 'done', args: { summary: 'Saved: "Saved!".' } }),
      call({ name: 'done', args: { summary: 'Saved: "Saved!".' } }),
    ]);
    const { outcome, tools, final } = await run({ provider, browser: b, task: 'Save the dark theme' });
    expect(tools[1]).to.match(/^Error NO_WRITE_SEEN/);
    expect(outcome.status).to.equal('done');
    expect(final.outcome.verdict).to.equal('not_verified');
    expect(codes(final)).to.deep.equal(['CHALLENGE_REPEATED', 'NO_WRITE_SEEN']);
    expect(final.check.verified).to.not.equal(true);
  });

  it('a write with no answer at done waits (bounded), is challenged, and counts as not verified', async () => {
    const b = settingsPage(200);
    b.answers = () => null;
    const provider = fakeProvider([
      call({ name: 'click', args: { ref: 'e1' } }),
      call({ name: 'done', args: { summary: 'Saved.' } }),
      call({ name: 'done', args: { summary: 'Saved.' } }),
    ]);
    const { tools, final } = await run({ provider, browser: b, task: 'Save the dark theme', holdTimes: { doneAnswerMs: 20 } });
    expect(tools[0]).to.contain('POST shop.test/api/settings → no answer yet');
    expect(tools[1]).to.match(/^Error NO_ANSWER_YET: A change was sent, but the server has not answered it.* \(POST shop\.test\/api\/settings → no answer yet/);
    expect(final.outcome.verdict).to.equal('not_verified');
    expect(codes(final)).to.deep.equal(['NO_ANSWER_YET', 'CHALLENGE_REPEATED']);
  });

  it('an answer that comes while done waits for it counts: a refusal seconds later fails the run', async () => {
    const b = settingsPage(200);
    b.answers = () => null;
    /** @type {import('../../src/chrome/types/safety').HeldRequest | null} */
    let pending = null;
    b.causes['content.click'] = () => { pending = req(); return [pending]; };
    const provider = fakeProvider([
      call({ name: 'click', args: { ref: 'e1' } }),
      () => {
        // The refusal arrives while done waits for it.
        setTimeout(() => b.handlers?.settled?.(/** @type {any} */ (pending), { status: 500 }), 5);
        return call({ name: 'done', args: { summary: 'Saved.' } });
      },
      say('It failed.'),
    ]);
    const { tools, final } = await run({ provider, browser: b, task: 'Save the dark theme', holdTimes: { doneAnswerMs: 5000 } });
    expect(tools[1]).to.match(/^Error WRITE_FAILED/);
    expect(final.outcome.verdict).to.equal('failed');
  });

  it('a write the page sends during the model\'s turn (a debounced autosave) is held, recorded under the last step, and counts', async () => {
    const b = settingsPage(201);
    b.causes['content.click'] = [];
    const autosave = req({ url: `${SHOP}/api/draft`, method: 'PUT', body: '{"theme":"dark"}' });
    const provider = fakeProvider([
      call({ name: 'click', args: { ref: 'e1' } }),
      () => {
        const h = /** @type {NonNullable<typeof b.handlers>} */ (b.handlers);
        expect(h.wants(autosave)).to.equal(true);
        void h.decide(autosave).then((allowed) => { if (allowed) h.settled?.(autosave, { status: 409, body: '{"error":"Draft is stale"}' }); });
        return call({ name: 'done', args: { summary: 'Saved.' } });
      },
      say('The autosave was refused.'),
    ]);
    const { tools, final } = await run({ provider, browser: b, task: 'Save the dark theme' });
    expect(tools[1]).to.match(/^Error WRITE_FAILED: .*PUT shop\.test\/api\/draft → 409 \(the server said: Draft is stale\)/);
    expect(final.outcome.verdict).to.equal('failed');
  });

  it('steps that failed and were not made good leave the run not verified; a later success of the same step makes them good', async () => {
    let clicks = 0;
    const b = settingsPage(201);
    const inner = b.sendToContent;
    b.sendToContent = async (tabId, msg) => (msg.type === 'content.click' && ++clicks === 1 ? { ok: /** @type {const} */ (false), code: /** @type {const} */ ('NOT_FOUND'), message: 'gone' } : inner(tabId, msg));
    const provider = fakeProvider([
      call({ name: 'click', args: { ref: 'e1' } }),
      call({ name: 'done', args: { summary: 'Saved.' } }),
      call({ name: 'done', args: { summary: 'Saved.' } }),
    ]);
    b.causes['content.click'] = [];
    const first = await run({ provider, browser: b, task: 'Save the dark theme' });
    expect(codes(first.final)).to.deep.equal(['STEPS_FAILED', 'CHALLENGE_REPEATED', 'NO_WRITE_SEEN']);

    clicks = 0;
    const b2 = settingsPage(201);
    const inner2 = b2.sendToContent;
    b2.sendToContent = async (tabId, msg) => (msg.type === 'content.click' && ++clicks === 1 ? { ok: /** @type {const} */ (false), code: /** @type {const} */ ('NOT_FOUND'), message: 'gone' } : inner2(tabId, msg));
    const again = await run({ provider: fakeProvider([call({ name: 'click', args: { ref: 'e1' } }), call({ name: 'click', args: { ref: 'e1' } }), call({ name: 'done', args: { summary: 'Saved.' } })]), browser: b2, task: 'Save the dark theme' });
    expect(again.final.outcome.verdict).to.equal('verified');
  });

  it('the page check never says verified when the verdict does not (a 202 that only queued the change)', async () => {
    const b = settingsPage(202);
    const provider = fakeProvider([
      call({ name: 'click', args: { ref: 'e1' } }),
      call({ name: 'done', args: { summary: 'Done: the page says "Saved!".' } }),
    ]);
    const { final } = await run({ provider, browser: b, task: 'Save the dark theme' });
    expect(final.outcome.verdict).to.equal('not_verified');
    expect(codes(final)).to.deep.equal(['ACCEPTED_NOT_CONFIRMED']);
    expect(final.check.verified).to.equal(null);
    expect(final.check.evidence).to.equal(undefined);
  });

  it('an accepted write gives a receipt and evidence that agree', async () => {
    const b = settingsPage(200);
    b.answers = () => ({ status: 200, body: '{"id":"s-1","theme":"dark"}' });
    const provider = fakeProvider([call({ name: 'click', args: { ref: 'e1' } }), call({ name: 'done', args: { summary: 'Done: "Your theme is now dark".' } })]);
    const { outcome, final } = await run({ provider, browser: b, task: 'Save the dark theme' });
    expect(outcome.outcome).to.deep.equal(final.outcome);
    expect(final.outcome.verdict).to.equal('verified');
    expect(final.outcome.receipt[0]).to.deep.include({ method: 'POST', url: `${SHOP}/api/settings`, status: 200, verdict: 'verified', echoed: ['id: s-1'] });
    expect(final.check).to.deep.include({ verified: true, evidence: ['POST shop.test/api/settings → 200 (id: s-1)'] });
  });

  it('a schedule_task call that failed is never a green "Scheduled": challenged, then not verified with STEPS_FAILED', async () => {
    const b = settingsPage(200);
    const provider = fakeProvider([
      call({ name: 'schedule_task', args: { title: 'Morning check', prompt: 'Check the theme', schedule: 'calendar', repeat: 'daily', time: '09:00', target: 'current_tab' } }),
      call({ name: 'done', args: { summary: 'Scheduled: it runs every morning at 9.' } }),
      call({ name: 'done', args: { summary: 'Scheduled: it runs every morning at 9.' } }),
    ]);
    const { tools, final } = await run({ provider, browser: b, task: 'Schedule a check of my theme every morning at 9' });
    expect(tools[0]).to.match(/^Error UNAVAILABLE/);
    expect(tools[1]).to.match(/^Error NO_WRITE_SEEN/);
    expect(final.outcome.verdict).to.equal('not_verified');
    expect(codes(final)).to.deep.equal(['STEPS_FAILED', 'CHALLENGE_REPEATED', 'NO_WRITE_SEEN']);
  });

  it('a WebSocket frame whose reply is an error fails the run; the frame and its reply are in the receipt', async () => {
    const b = settingsPage(200);
    b.causes['content.click'] = [{ kind: 'channel', channel: 'websocket_frame', method: 'SEND', url: 'wss://shop.test/socket', type: 'websocket', topLevel: false, body: '{"op":"invite","user":"grace"}' }];
    b.answers = () => ({ reply: '{"type":"error","message":"You cannot invite this user"}' });
    const provider = fakeProvider([
      call({ name: 'click', args: { ref: 'e1' } }),
      call({ name: 'done', args: { summary: 'Invited Grace.' } }),
      call({ name: 'done', args: { summary: 'Invited Grace.' } }),
    ]);
    const { tools, final } = await run({ provider, browser: b, task: 'Invite grace to the team' });
    expect(tools[0]).to.contain('SEND shop.test/socket → replied (refused: You cannot invite this user)');
    expect(final.outcome.verdict).to.equal('failed');
    expect(final.outcome.receipt[0]).to.deep.include({ url: 'wss://shop.test/socket', verdict: 'failed', said: 'You cannot invite this user' });
  });
});
