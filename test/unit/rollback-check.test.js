// A change accepted, then undone (agent/rollback-check.js, agent/outcome.js): what an accepted write
// sent and the page showed at done must still show after the settle period; the user's own decline
// is said as such.
import { expect } from 'chai';
import { sentValues, shownOf } from '../../src/chrome/agent/rollback-check.js';
import { judgeRun } from '../../src/chrome/agent/outcome.js';
import { seenAfterItsWrite } from '../../src/chrome/agent/run-verdict.js';
import { readAnswer } from '../../src/chrome/agent/safety/answer-reading.js';

/** @typedef {import('../../src/chrome/agent/safety/write-ledger.js').WriteEntry} WriteEntry */
/** @param {Partial<WriteEntry>} x @returns {WriteEntry} */
const w = (x) => ({ method: 'POST', url: 'https://notes.test/api/notes', sent: true, step: 1, settled: true, inTask: true, at: 1, ...x });
const ok = { status: 200, outcome: { status: 200, contentType: 'application/json', body: '{"ok":true,"id":"n1"}' } };

describe('rollback check and declined changes', () => {
  it('takes the text values of accepted writes only, never a secret field', () => {
    const writes = [
      w({ ...ok, fields: [['text', 'Buy milk'], ['password', 'hunter22'], ['qty', '12']] }),
      w({ status: 400, outcome: { status: 400 }, fields: [['text', 'Refused one']] }),
    ];
    expect(sentValues(writes)).to.deep.equal(['Buy milk']);
  });

  it('reads which values the page shows; an unreadable page proves nothing (null)', async () => {
    const page = 'my notes: buy milk';
    /** @param {string} s */
    const observe = async (s) => {
      const quoted = [...s.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
      const missing = quoted.filter((q) => !page.includes(q.toLowerCase()));
      return { url: '', title: '', verified: missing.length === 0, missing };
    };
    expect(await shownOf(['Buy milk', 'Call mum'], observe)).to.deep.equal(['Buy milk']);
    expect(await shownOf(['Buy milk'], async () => ({ url: '', title: '', verified: null, missing: [] }))).to.equal(null);
  });

  it('a change the page no longer shows after settling is not verified: rolled back', () => {
    const o = judgeRun({ writes: [w(ok)], asksForChange: true, createdJobs: 0, rolledBack: ['Buy milk'] });
    expect(o.verdict).to.equal('not_verified');
    expect(o.reasons.map((r) => r.code)).to.deep.equal(['ROLLED_BACK']);
    expect(o.reasons[0].message).to.contain('"Buy milk"');
  });

  it('a value the page showed after its write, on the page the run ends on, and no longer shows at done was undone before done', () => {
    const writes = [w({ ...ok, fields: [['text', 'Buy milk']] })];
    const page = 'https://notes.test/';
    // The step that typed it, before any write: the value in a field is not the page showing the change.
    const typed = { text: 'textbox "Note" value "Buy milk"', writes: 0, url: page };
    const afterAdd = { text: '{"effects":{"appeared":["listitem Buy milk"]}}', writes: 1, url: page };
    expect(seenAfterItsWrite('Buy milk', writes, [typed], page)).to.equal(false);
    expect(seenAfterItsWrite('Buy milk', writes, [typed, afterAdd], page)).to.equal(true);
    // Shown on the page the write was made from, and the run ends on another (a confirmation page): not a rollback.
    expect(seenAfterItsWrite('Buy milk', writes, [afterAdd], 'https://notes.test/thanks')).to.equal(false);
    expect(seenAfterItsWrite('Call mum', writes, [afterAdd], page)).to.equal(false);
  });

  it('a change the user declined: not verified because the user declined, not "nothing sent" nor "steps failed"', () => {
    const o = judgeRun({ writes: [w({ sent: false })], asksForChange: true, createdJobs: 0, userDeclined: true });
    expect(o.verdict).to.equal('not_verified');
    expect(o.reasons.map((r) => r.code)).to.deep.equal(['USER_DECLINED_CHANGE']);
  });

  it('a 2xx whose text body could not be read is not verified; a 204 is', () => {
    const sent = { method: 'POST', url: 'https://x.test/a' };
    expect(readAnswer(sent, { status: 200, contentType: 'application/json' }).code).to.equal('ANSWER_UNREADABLE');
    expect(readAnswer(sent, { status: 204 }).verdict).to.equal('verified');
    expect(readAnswer(sent, { status: 200, contentType: 'application/json', body: '' }).verdict).to.equal('verified');
  });

  it('an error page served with a 200 is a refusal, in its own words', () => {
    const r = readAnswer({ method: 'POST', url: 'https://x.test/a' }, { status: 200, contentType: 'text/html', body: '<title>Error</title><h1>Something went wrong</h1><p>Your session has expired.</p>' });
    expect(r).to.deep.include({ verdict: 'failed', said: 'Your session has expired.' });
  });
});
