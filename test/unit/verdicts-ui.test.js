// The verdict as people read it (ui/cards/receipt.js), a replay's judgment
// (agent/workflows/replay-outcome.js), and the verdict kept on the final answer of the transcript.
import { expect } from 'chai';
import { receiptLine, reasonText, shownVerdict, receiptJson } from '../../src/chrome/ui/cards/receipt.js';
import { judgeReplay, refusedBy } from '../../src/chrome/agent/workflows/replay-outcome.js';
import { Session } from '../../src/chrome/service/session.js';

/** Messages as the English locale has them, placeholders filled. @param {string} key @param {string | string[]} [subs] */
const t = (key, subs) => {
  const m = /** @type {Record<string, string>} */ ({ receiptNoAnswer: 'no answer', receiptEchoed: 'echoed $1', receiptSaid: 'the server said: $1', receiptByPage: 'answered by the page', reasonNoAnswerYet: 'No answer yet.', reasonWriteRefused: 'Refused.' })[key] ?? key;
  return [subs ?? []].flat().reduce((s, v, i) => s.replace(`$${i + 1}`, v), m);
};

/** @param {Partial<import('../../src/chrome/agent/safety/write-ledger.js').WriteEntry>} w */
const write = (w) => /** @type {import('../../src/chrome/agent/safety/write-ledger.js').WriteEntry} */ ({ method: 'POST', url: 'https://shop.test/api/orders', sent: true, step: 1, settled: true, ...w });
/** @type {any} */
const WF = { steps: [{ tool: 'type' }, { tool: 'click' }] };

describe('verdicts for people', () => {
  it('says each write on one line: method, address, status, what was echoed or said, who answered', () => {
    expect(receiptLine({ method: 'POST', url: 'https://shop.test/api/orders?x=1', status: 201, echoed: ['id: 7'], at: 0, verdict: 'verified' }, t)).to.equal('POST shop.test/api/orders?x=1 → 201 · echoed id: 7');
    expect(receiptLine({ method: 'PUT', url: 'https://a.test/p', status: 422, said: 'Phone is required.', at: 0, verdict: 'failed' }, t)).to.equal('PUT a.test/p → 422 · the server said: Phone is required.');
    // "HTTP 400" repeats the status: left out.
    expect(receiptLine({ method: 'POST', url: 'https://a.test/p', status: 400, said: 'HTTP 400', at: 0, verdict: 'failed' }, t)).to.equal('POST a.test/p → 400');
    expect(receiptLine({ method: 'POST', url: 'https://a.test/p', at: 0, verdict: 'not_verified' }, t)).to.equal('POST a.test/p → no answer');
    expect(receiptLine({ method: 'POST', url: 'https://a.test/p', status: 200, answeredBy: 'service_worker', at: 0, verdict: 'not_verified' }, t)).to.contain('answered by the page');
  });

  it('says a reason in the person\'s words, keeping its detail with a short address', () => {
    expect(reasonText({ code: 'NO_ANSWER_YET', message: 'A change was sent… (POST https://shop.test/api/claim)' }, t)).to.equal('No answer yet. (POST shop.test/api/claim)');
    expect(reasonText({ code: 'SOMETHING_ELSE', message: 'As the catalog says.' }, t)).to.equal('As the catalog says.');
  });

  it('never shows Verified without a write the server accepted; a read-only answer has nothing to show', () => {
    expect(shownVerdict({ verdict: 'verified', reasons: [], receipt: [] })).to.equal('not_verified');
    expect(shownVerdict({ verdict: 'verified', reasons: [], receipt: [{ method: 'POST', url: 'u', status: 201, at: 1, verdict: 'verified' }] })).to.equal('verified');
    expect(shownVerdict({ verdict: 'not_verified', reasons: [{ code: 'NOTHING_TO_CHECK', message: '' }], receipt: [] })).to.equal('nothing');
    expect(shownVerdict(undefined)).to.equal('not_verified');
    expect(receiptJson({ verdict: 'failed', reasons: [], receipt: [] })).to.include({ kind: 'tabwright-receipt', verdict: 'failed' });
  });

  it('judges a replay over its writes: a refusal names the write and the server\'s words; no answer is not verified', () => {
    const refused = write({ status: 422, outcome: { status: 422, body: '{"message":"The field Phone is required."}' } });
    expect(refusedBy([refused])).to.equal('POST shop.test/api/orders → 422: "The field Phone is required."');
    expect(judgeReplay(WF, [refused]).verdict).to.equal('failed');
    const accepted = write({ status: 201, outcome: { status: 201, body: '{"id":"app_1"}' } });
    expect(refusedBy([accepted])).to.equal(null);
    const ok = judgeReplay(WF, [accepted]);
    expect(ok.verdict).to.equal('verified');
    expect(ok.receipt[0].echoed).to.deep.equal(['id: app_1']);
    expect(judgeReplay(WF, [write({ settled: false })]).verdict).to.equal('not_verified');
    // A form workflow that sent nothing is not verified; a reading one has nothing to check.
    expect(judgeReplay(WF, []).reasons.map((r) => r.code)).to.deep.equal(['NO_WRITE_SEEN']);
    expect(judgeReplay(/** @type {any} */ ({ steps: [{ tool: 'extract_data' }] }), []).reasons.map((r) => r.code)).to.deep.equal(['NOTHING_TO_CHECK']);
  });

  it('keeps the verdict on the final answer of the transcript (the panel and History read it there)', () => {
    const s = new Session(1);
    const outcome = { verdict: /** @type {const} */ ('failed'), reasons: [], receipt: [] };
    s.apply({ type: 'final', text: 'Done', outcome });
    const last = /** @type {any} */ (s.items.at(-1));
    expect(last).to.deep.include({ kind: 'assistant', final: true, outcome });
  });
});
