// What the server said about one write (agent/safety/answer-reading.js): a 2xx is not proof. Each
// shape a lying page's server uses to refuse, half-do, queue or ignore a write reads as failed or
// not verified; an honest acceptance reads as verified with what it echoed.
import { expect } from 'chai';
import { readAnswer, htmlError } from '../../src/chrome/agent/safety/answer-reading.js';

const API = 'https://shop.test/api/orders';
/** @param {Partial<import('../../src/chrome/agent/safety/answer-reading.js').SentWrite>} [x] */
const sent = (x = {}) => ({ method: 'POST', url: API, ...x });
/** @param {unknown} j */
const json = (j) => JSON.stringify(j);

describe('answer reading: status and who answered', () => {
  it('a network error or an error status is failed, with the server\'s words when the body has them', () => {
    expect(readAnswer(sent(), { error: 'net::ERR_CONNECTION_RESET' })).to.deep.include({ verdict: 'failed', code: 'WRITE_REFUSED', said: 'net::ERR_CONNECTION_RESET' });
    expect(readAnswer(sent(), { status: 500 })).to.deep.include({ verdict: 'failed', said: 'HTTP 500' });
    expect(readAnswer(sent(), { status: 422, body: json({ message: 'Email is taken' }) })).to.deep.include({ verdict: 'failed', said: 'Email is taken' });
    expect(readAnswer(sent(), { status: 409, body: json({ errors: [{ message: 'Version conflict' }] }) }).said).to.equal('Version conflict');
  });

  it('no answer yet is not verified', () => {
    expect(readAnswer(sent(), {})).to.deep.include({ verdict: 'not_verified', code: 'NO_ANSWER_YET' });
  });

  it('an answer from the page\'s service worker (or a cache) is not the server\'s: not verified', () => {
    expect(readAnswer(sent(), { status: 200, body: json({ ok: true, id: 7 }), answeredBy: 'service_worker' })).to.deep.include({ verdict: 'not_verified', code: 'ANSWERED_BY_PAGE' });
    expect(readAnswer(sent(), { status: 200, answeredBy: 'cache' }).code).to.equal('ANSWERED_BY_PAGE');
  });

  it('202, or a body that says queued/pending, is accepted but not confirmed', () => {
    expect(readAnswer(sent(), { status: 202 })).to.deep.include({ verdict: 'not_verified', code: 'ACCEPTED_NOT_CONFIRMED' });
    expect(readAnswer(sent(), { status: 202, body: json({ job: { id: 'j1', status: 'queued' } }) })).to.deep.include({ verdict: 'not_verified', said: 'status: queued' });
    expect(readAnswer(sent(), { status: 200, body: json({ status: 'pending', id: 3 }) })).to.deep.include({ verdict: 'not_verified', code: 'ACCEPTED_NOT_CONFIRMED' });
    expect(readAnswer(sent(), { status: 200, body: json({ queued: true }) }).code).to.equal('ACCEPTED_NOT_CONFIRMED');
  });

  it('a plain acceptance is verified, with the identifiers the server echoed', () => {
    expect(readAnswer(sent(), { status: 201, body: json({ id: 1001, status: 'created', order: { number: 'A-17' } }) })).to.deep.equal({ verdict: 'verified', code: null, echoed: ['id: 1001', 'order.number: A-17'] });
    expect(readAnswer(sent(), { status: 204 })).to.deep.include({ verdict: 'verified' });
    // A body the platform could not read leaves the status as the only evidence.
    expect(readAnswer(sent(), { status: 200 }).verdict).to.equal('verified');
  });
});

describe('answer reading: a 2xx whose body says it failed', () => {
  for (const [what, body, said] of /** @type {[string, unknown, string][]} */ ([
    ['ok: false', { ok: false, error: 'Card declined' }, 'Card declined'],
    ['success: false', { success: false, message: 'Out of stock' }, 'Out of stock'],
    ['status: "error"', { status: 'error', message: 'Session expired' }, 'Session expired'],
    ['status: "failed"', { status: 'failed', reason: 'quota' }, 'quota'],
    ['an error string', { error: 'Not allowed' }, 'Not allowed'],
    ['an error object', { error: { code: 'E42', message: 'Bad coupon' } }, 'Bad coupon'],
    ['error: true', { error: true, message: 'Try later' }, 'Try later'],
    ['an errors list', { errors: ['Name is required', 'Email is invalid'] }, 'Name is required; Email is invalid'],
    ['field errors (Rails/Django)', { errors: { email: ['is invalid'], name: ["can't be blank"] } }, "email: is invalid; name: can't be blank"],
    ['validationErrors', { validationErrors: [{ field: 'zip', message: 'must be 5 digits' }] }, 'zip: must be 5 digits'],
    ['errorMessage', { errorMessage: 'Payment refused' }, 'Payment refused'],
    ['GraphQL errors with data null', { data: null, errors: [{ message: 'Not authorised', path: ['createOrder'] }] }, 'createOrder: Not authorised'],
    ['GraphQL errors and no data', { errors: [{ message: 'Syntax error' }] }, 'Syntax error'],
    ['a GraphQL mutation\'s userErrors', { data: { productUpdate: { product: null, userErrors: [{ field: ['title'], message: 'Title is too long' }] } } }, 'Title is too long'],
  ])) {
    it(`${what} is failed, with the server's words`, () => {
      const r = readAnswer(sent(), { status: 200, body: json(body), contentType: 'application/json' });
      expect(r.verdict, what).to.equal('failed');
      expect(r.said, what).to.contain(said);
    });
  }

  it('success flags that say it worked, and errors that are empty, are verified', () => {
    for (const body of [{ ok: true }, { success: true, id: 'x' }, { errors: [] }, { error: null, id: 2 }, { error: false }, { status: 'ok' }, { data: { createOrder: { id: 5, userErrors: [] } } }]) {
      expect(readAnswer(sent(), { status: 200, body: json(body) }).verdict, json(body)).to.equal('verified');
    }
  });
});

describe('answer reading: part of the write refused', () => {
  it('GraphQL errors beside partial data: not verified, with the error', () => {
    const r = readAnswer(sent(), { status: 200, body: json({ data: { a: { id: 1 }, b: null }, errors: [{ message: 'b: permission denied' }] }) });
    expect(r).to.deep.include({ verdict: 'not_verified', code: 'PARTLY_REFUSED', said: 'b: permission denied' });
  });

  it('items of a batch refused one by one: failed, naming how many', () => {
    const body = { results: [{ id: 1, ok: true }, { id: 2, ok: false, error: 'Duplicate SKU' }, { id: 3, status: 'rejected', message: 'Price below cost' }] };
    const r = readAnswer(sent(), { status: 200, body: json(body) });
    expect(r).to.deep.include({ verdict: 'failed', code: 'PARTLY_REFUSED' });
    expect(r.said).to.equal('2 of 3 refused: Duplicate SKU; Price below cost');
    expect(readAnswer(sent(), { status: 207, body: json([{ status: 201 }, { status: 409, error: 'exists' }]) }).said).to.equal('1 of 2 refused: exists');
    expect(readAnswer(sent(), { status: 200, body: json({ saved: 3, failed: 1 }) }).said).to.equal('failed: 1');
    expect(readAnswer(sent(), { status: 200, body: json({ rejected: [{ id: 4, reason: 'too late' }] }) }).verdict).to.equal('failed');
  });

  it('a count lower than what was sent: failed', () => {
    const items = { items: [{ sku: 'a' }, { sku: 'b' }, { sku: 'c' }] };
    expect(readAnswer(sent({ body: json(items) }), { status: 200, body: json({ saved: 2 }) })).to.deep.include({ verdict: 'failed', code: 'PARTLY_REFUSED', said: 'sent 3, the server says saved: 2' });
    expect(readAnswer(sent({ body: json(items) }), { status: 200, body: json({ items: [{ id: 1 }, { id: 2 }] }) }).said).to.equal('sent 3 items, the server returned 2');
    expect(readAnswer(sent({ body: json(items) }), { status: 200, body: json({ saved: 3 }) }).verdict).to.equal('verified');
  });

  it('a PUT whose echoed object lacks a field, or keeps another value: failed, naming the field', () => {
    const put = sent({ method: 'PUT', url: 'https://shop.test/api/profile', fields: [['name', 'Ada'], ['phone', '+44 20 7946 0000'], ['newsletter', 'true']] });
    const dropped = readAnswer(put, { status: 200, body: json({ id: 9, name: 'Ada', newsletter: true }) });
    expect(dropped).to.deep.include({ verdict: 'failed', code: 'FIELD_DROPPED' });
    expect(dropped.said).to.contain('phone not saved');
    const kept = readAnswer(put, { status: 200, body: json({ user: { id: 9, name: 'Ada', phone: '+44 20 0000 0000', newsletter: true } }) });
    expect(kept.said).to.contain('phone is "+44 20 0000 0000" (sent "+44 20 7946 0000")');
    // Echoed as sent (numbers, booleans, case and spacing aside): verified.
    expect(readAnswer(put, { status: 200, body: json({ id: 9, name: 'ada', phone: '+44 20  7946 0000', newsletter: true }) }).verdict).to.equal('verified');
    // Not an echo of the object (an id alone): nothing to compare.
    expect(readAnswer(put, { status: 200, body: json({ id: 9 }) }).verdict).to.equal('verified');
    // Secrets and form machinery are never echoed: not counted as dropped.
    const pw = sent({ method: 'PATCH', fields: [['email', 'a@b.test'], ['password', 'x'], ['csrf_token', 'y']] });
    expect(readAnswer(pw, { status: 200, body: json({ email: 'a@b.test' }) }).verdict).to.equal('verified');
  });
});

describe('answer reading: pages and redirects', () => {
  it('a form POST redirected to an error page is failed', () => {
    expect(readAnswer(sent(), { status: 303, finalUrl: 'https://shop.test/oops', finalStatus: 500, body: '<h1>Server error</h1>' })).to.deep.include({ verdict: 'failed', code: 'WRITE_REFUSED' });
    expect(readAnswer(sent(), { status: 302, finalUrl: 'https://shop.test/signup?error=taken', finalStatus: 200, body: '<p>Sign up</p>' }).verdict).to.equal('failed');
  });

  it('redirected back to the form with a validation message: failed, with the message', () => {
    const page = '<form method="post"><label>Email <input name="email" aria-invalid="true"></label><p class="field-error">Email is already registered</p></form>';
    const r = readAnswer(sent({ page: 'https://shop.test/signup' }), { status: 303, finalUrl: 'https://shop.test/signup', finalStatus: 200, body: page, contentType: 'text/html' });
    expect(r).to.deep.include({ verdict: 'failed', said: 'Email is already registered' });
  });

  it('redirected back to the same form, with no message: not verified', () => {
    const r = readAnswer(sent({ page: 'https://shop.test/signup' }), { status: 303, finalUrl: 'https://shop.test/signup?', finalStatus: 200, body: '<form method="post"><input name="email"></form>' });
    expect(r).to.deep.include({ verdict: 'not_verified', code: 'FORM_SHOWN_AGAIN' });
  });

  it('a 200 page with an alert is failed; a success page is verified; hidden error templates do not count', () => {
    expect(readAnswer(sent(), { status: 200, body: '<div role="alert">Your card was declined.</div>' })).to.deep.include({ verdict: 'failed', said: 'Your card was declined.' });
    expect(readAnswer(sent(), { status: 303, finalUrl: 'https://shop.test/thanks', finalStatus: 200, body: '<h1>Thank you</h1>' }).verdict).to.equal('verified');
    expect(htmlError('<div class="error" hidden>Something went wrong</div><h1>Saved</h1>')).to.equal(null);
    expect(htmlError('<div class="error" style="display:none">x y z</div>')).to.equal(null);
  });
});

describe('answer reading: WebSocket frames and their replies', () => {
  const frame = sent({ kind: 'channel', method: 'SEND', url: 'wss://chat.test/socket' });
  it('an error reply is failed, with its words', () => {
    expect(readAnswer(frame, { reply: json({ type: 'error', message: 'You cannot invite this user' }) })).to.deep.include({ verdict: 'failed', said: 'You cannot invite this user' });
    expect(readAnswer(frame, { reply: json({ type: 'ack', ok: false, error: 'rate limited' }) }).said).to.equal('rate limited');
    expect(readAnswer(frame, { reply: 'ERROR: denied' }).verdict).to.equal('failed');
  });

  it('no reply is not verified; an acknowledgement is verified; an unreadable reply is not verified', () => {
    expect(readAnswer(frame, {})).to.deep.include({ verdict: 'not_verified', code: 'NO_ANSWER_YET' });
    expect(readAnswer(frame, { reply: json({ type: 'ack', id: 'm-5' }) })).to.deep.include({ verdict: 'verified', echoed: ['id: m-5'] });
    expect(readAnswer(frame, { reply: 'pong' }).code).to.equal('ANSWER_UNREADABLE');
  });
});
