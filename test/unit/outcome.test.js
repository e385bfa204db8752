// The verdict on a run (agent/outcome.js): verified needs every write of the task accepted by status
// and body; a refused write fails the run whatever came after it (a success elsewhere, a beacon),
// unless a retry of the same write was accepted; a write with no answer, an answer from the page
// itself, a challenge only repeated or steps not made good leave it not verified, with the reason.
import { expect } from 'chai';
import { judgeRun, unfinishedOutcome } from '../../src/chrome/agent/outcome.js';

/** @typedef {import('../../src/chrome/agent/safety/write-ledger.js').WriteEntry} WriteEntry */
const API = 'https://shop.test/api';
/** @param {Partial<WriteEntry>} x @returns {WriteEntry} */
const w = (x) => ({ method: 'POST', url: `${API}/orders`, sent: true, step: 1, settled: true, inTask: true, at: 1000, ...x });
/** @param {number} status @param {unknown} [body] @returns {Partial<WriteEntry>} */
const answer = (status, body) => ({ status, outcome: { status, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) } });
const base = { asksForChange: true, createdJobs: 0 };

describe('run verdict', () => {
  it('verified: every write of the task accepted, with a receipt of what the server echoed', () => {
    const o = judgeRun({ ...base, writes: [w(answer(201, { id: 1001 }))] });
    expect(o).to.deep.equal({ verdict: 'verified', reasons: [], receipt: [{ method: 'POST', url: `${API}/orders`, status: 201, at: 1000, verdict: 'verified', echoed: ['id: 1001'] }] });
  });

  it('a refused write is not masked by a later success elsewhere, nor by a beacon', () => {
    const o = judgeRun({ ...base, writes: [w(answer(200, { ok: false, error: 'Card declined' })), w({ url: `${API}/cart`, ...answer(200, { ok: true }) }), w({ url: 'https://shop.test/collect', kind: 'channel', channel: 'beacon', method: 'POST' })] });
    expect(o.verdict).to.equal('failed');
    expect(o.reasons).to.have.length(1);
    expect(o.reasons[0].code).to.equal('WRITE_REFUSED');
    expect(o.reasons[0].message).to.contain('POST shop.test/api/orders → 200: Card declined');
    expect(o.receipt.map((r) => r.verdict)).to.deep.equal(['failed', 'verified', 'not_verified']);
  });

  it('a refused write made good by an accepted retry of the same write: verified, both in the receipt', () => {
    const o = judgeRun({ ...base, writes: [w(answer(500)), w(answer(201, { id: 7 }))] });
    expect(o.verdict).to.equal('verified');
    expect(o.receipt.map((r) => r.verdict)).to.deep.equal(['failed', 'verified']);
  });

  it('a third party\'s telemetry does not judge the task; a declined write is not in the receipt', () => {
    const o = judgeRun({ ...base, writes: [w(answer(201, { id: 1 })), w({ url: 'https://stats.example/t', inTask: false, settled: false }), w({ sent: false, settled: true })] });
    expect(o.verdict).to.equal('verified');
    expect(o.receipt).to.have.length(1);
  });

  it('not verified, with the reason: no answer yet, answered by the page, queued, partial GraphQL', () => {
    expect(judgeRun({ ...base, writes: [w({ settled: false })] }).reasons.map((r) => r.code)).to.deep.equal(['NO_ANSWER_YET']);
    expect(judgeRun({ ...base, writes: [w({ status: 200, outcome: { status: 200, answeredBy: 'service_worker' } })] }).reasons.map((r) => r.code)).to.deep.equal(['ANSWERED_BY_PAGE']);
    expect(judgeRun({ ...base, writes: [w(answer(202))] }).reasons.map((r) => r.code)).to.deep.equal(['ACCEPTED_NOT_CONFIRMED']);
    const partial = judgeRun({ ...base, writes: [w(answer(200, { data: { a: 1 }, errors: [{ message: 'b refused' }] }))] });
    expect(partial.verdict).to.equal('not_verified');
    expect(partial.reasons[0].message).to.contain('b refused');
  });

  it('nothing written: NO_WRITE_SEEN for a change, NOTHING_TO_CHECK for a read-only answer; a created job is evidence', () => {
    expect(judgeRun({ ...base, writes: [] }).reasons.map((r) => r.code)).to.deep.equal(['NO_WRITE_SEEN']);
    expect(judgeRun({ asksForChange: false, createdJobs: 0, writes: [] }).reasons.map((r) => r.code)).to.deep.equal(['NOTHING_TO_CHECK']);
    expect(judgeRun({ ...base, readOnly: true, writes: [] }).reasons.map((r) => r.code)).to.deep.equal(['NOTHING_TO_CHECK']);
    expect(judgeRun({ ...base, createdJobs: 1, writes: [] }).verdict).to.equal('verified');
  });

  it('a challenge only repeated, and steps not made good, are reasons even beside accepted writes', () => {
    expect(judgeRun({ ...base, writes: [], challengeRepeated: true }).reasons.map((r) => r.code)).to.deep.equal(['CHALLENGE_REPEATED', 'NO_WRITE_SEEN']);
    const o = judgeRun({ ...base, writes: [w(answer(201))], stepsFailed: true });
    expect(o.verdict).to.equal('not_verified');
    expect(o.reasons.map((r) => r.code)).to.deep.equal(['STEPS_FAILED']);
  });

  it('a write the page sent after done is in the receipt, marked; refused, it fails the run and says so', () => {
    const ok = judgeRun({ ...base, writes: [w(answer(201)), w({ url: `${API}/draft`, afterDone: true, ...answer(200, { saved: true }) })] });
    expect(ok.receipt[1]).to.deep.include({ afterDone: true, verdict: 'verified' });
    const bad = judgeRun({ ...base, writes: [w(answer(201)), w({ url: `${API}/draft`, afterDone: true, ...answer(409, { message: 'Conflict: rolled back' }) })] });
    expect(bad.verdict).to.equal('failed');
    expect(bad.reasons[0].message).to.contain('sent by the page after done: Conflict: rolled back');
  });

  it('a run that did not finish is never verified; a refusal in it still fails it', () => {
    expect(unfinishedOutcome([w(answer(201))], { code: 'STEP_LIMIT', message: 'Stopped after 3 steps.' })).to.deep.include({ verdict: 'not_verified' });
    expect(unfinishedOutcome([w(answer(201))]).reasons.map((r) => r.code)).to.deep.equal(['NO_VERDICT']);
    expect(unfinishedOutcome([w(answer(500))]).verdict).to.equal('failed');
  });
});

describe('a change the user declined', () => {
  /** @param {Record<string, unknown>} o @returns {any} */
  const order = (o) => ({ method: 'POST', url: 'https://shop.test/api/orders', step: 1, settled: true, ...o });
  const accepted = { sent: true, status: 201, outcome: { status: 201, body: '{"id":1042}', contentType: 'application/json' } };

  it('is not held against the task when it only repeated a write the server accepted (a second order)', () => {
    const o = judgeRun({ writes: [order(accepted), order({ sent: false })], asksForChange: true, createdJobs: 0, userDeclined: true });
    expect(o.verdict).to.equal('verified');
    expect(o.receipt.map((r) => r.echoed)).to.deep.equal([['id: 1042']]);
  });

  it('leaves the task not verified, saying so, when nothing like it went through', () => {
    const o = judgeRun({ writes: [order({ sent: false })], asksForChange: true, createdJobs: 0, userDeclined: true });
    expect(o.verdict).to.equal('not_verified');
    expect(o.reasons.map((r) => r.code)).to.deep.equal(['USER_DECLINED_CHANGE']);
  });
});

describe('the verdict where it is stored and read', () => {
  /** @type {import('../../src/chrome/types/core').Outcome} */
  const refused = { verdict: 'failed', reasons: [{ code: 'WRITE_REFUSED', message: 'The server refused a change the agent sent. (POST shop.test/api/orders → 422: Email is required)' }], receipt: [{ method: 'POST', url: 'https://shop.test/api/orders', status: 422, at: 5, verdict: 'failed', said: 'Email is required' }] };

  it('a scheduled job whose run answered but whose write was refused is failed, with the verdict stored', async () => {
    const { withVerdict } = await import('../../src/chrome/service/jobs.js');
    expect(withVerdict({ status: 'done', text: 'Ordered.', steps: 3, outcome: refused })).to.deep.equal({ status: 'failed', text: 'Ordered.', error: { code: 'WRITE_REFUSED', message: refused.reasons[0].message }, outcome: refused });
    const ok = { verdict: /** @type {const} */ ('verified'), reasons: [], receipt: [] };
    expect(withVerdict({ status: 'done', text: 'Ordered.', steps: 3, outcome: ok })).to.deep.equal({ status: 'completed', text: 'Ordered.', outcome: ok });
    expect(withVerdict({ status: 'done', text: 'x', steps: 1 })).to.deep.equal({ status: 'completed', text: 'x' });
  });

  it('an MCP client reads the verdict beside the answer, in words', async () => {
    const { verdictLine } = await import('../../src/chrome/service/mcp/calls.js');
    expect(verdictLine(refused)).to.equal("[Tabwright's verdict] Failed. The server refused a change the agent sent. (POST shop.test/api/orders → 422: Email is required)\nWrites: POST https://shop.test/api/orders → 422 (failed: Email is required)");
    expect(verdictLine({ verdict: 'not_verified', reasons: [{ code: 'NOTHING_TO_CHECK', message: 'A read-only answer: there is nothing on a server to check.' }], receipt: [] })).to.equal("[Tabwright's verdict] Not verified. A read-only answer: there is nothing on a server to check.");
  });

  it('the trace keeps the verdict and its receipt, masked', async () => {
    const { createTraceRecorder } = await import('../../src/chrome/agent/traces/recorder.js');
    const rec = createTraceRecorder({ id: 't', tabId: 1, kind: 'agent', mode: 'act', task: 'Order', url: 'https://shop.test/', title: 'Shop', getTab: async () => null });
    const receipt = [{ ...refused.receipt[0], url: 'https://shop.test/api/orders?key=sk-abcdefghijklmnopqrstuvwx1234' }];
    const trace = await rec.finish({ status: 'done', steps: 1, outcome: { ...refused, receipt } });
    expect(trace.outcome?.verdict).to.equal('failed');
    expect(trace.outcome?.receipt[0].url).to.not.contain('sk-abcdefghijklmnopqrstuvwx1234');
    expect(trace.outcome?.receipt[0]).to.deep.include({ method: 'POST', status: 422, said: 'Email is required' });
  });
});
