// The person's turn (agent/handoff/): which pages need them, when the run may go on, and the pause
// itself with the guard's person turn: the person's requests go unheld and off the run's ledger.
import { expect } from 'chai';
import { detectMoment, personCredentials } from '../../src/chrome/agent/handoff/detect.js';
import { judgeResume } from '../../src/chrome/agent/handoff/evidence.js';
import { watchHandoff } from '../../src/chrome/agent/handoff/watch.js';
import { createGuard } from '../../src/chrome/agent/safety/guard.js';
import { createPolicy } from '../../src/chrome/agent/safety/policy.js';
import { createTaskScope } from '../../src/chrome/agent/safety/scope.js';
import { fakeBrowser } from './fake-browser.js';
import { fakeClock } from './fake-clock.js';

/** @param {Partial<import('../../src/chrome/types/handoff').HandoffSignals>} over @returns {import('../../src/chrome/types/handoff').HandoffSignals} */
const page = (over = {}) => ({ url: 'https://app.test/orders', title: 'Orders', passwordFields: 0, newPasswordFields: 0, otpFields: 0, codeFields: 0, frames: [], marks: [], headings: [], text: '', ...over });
const loginForm = { passwordFields: 1, headings: ['Sign in'], text: 'User name Password Sign in' };

describe('handoff: which pages need the person', () => {
  it('a step that leads inside the site to its sign-in form: the session expired', () => {
    const m = detectMoment(page({ url: 'https://app.test/login?next=/orders', ...loginForm }), { urlBefore: 'https://app.test/orders' });
    expect(m).to.deep.include({ kind: 'session_expired', site: 'app.test' });
  });
  it('a sign-in wall met on the way in (another site, or a return address in the URL)', () => {
    expect(detectMoment(page({ url: 'https://id.test/signin', ...loginForm }), { urlBefore: 'https://app.test/' })?.kind).to.equal('sign_in');
    expect(detectMoment(page({ url: 'https://app.test/login?return_to=%2Freports', ...loginForm }), {})?.kind).to.equal('sign_in');
  });
  it('a sign-in form the run started on and never walked into is not a moment (the task may be about it)', () => {
    expect(detectMoment(page({ url: 'https://app.test/login.html', ...loginForm }), {})).to.equal(null);
    expect(detectMoment(page({ url: 'https://app.test/login.html', ...loginForm }), { urlBefore: 'https://app.test/login.html' })).to.equal(null);
  });
  it('the person gave the password: the agent may sign in, also after a 401', () => {
    const given = personCredentials('Sign in as alice with password hunter2');
    expect(given.password).to.equal(true);
    expect(detectMoment(page({ url: 'https://id.test/signin', ...loginForm }), { urlBefore: 'https://app.test/', given })).to.equal(null);
    expect(detectMoment(page({ url: 'https://app.test/x', status: 401, ...loginForm }), { given })).to.equal(null);
    expect(detectMoment(page(), { writeStatuses: [401], given })).to.equal(null);
    // While the person has the tab, a form still asks whatever they gave.
    expect(detectMoment(page({ url: 'https://app.test/login.html', ...loginForm }), { given, asking: true })?.kind).to.equal('sign_in');
  });
  it('a page that only shows a password field (an account box) is not a sign-in; a hash change is no move', () => {
    const account = page({ url: 'https://app.test/case/7', passwordFields: 1, headings: ['Harbour Café', 'Account'], title: 'Account' });
    expect(detectMoment(account, { urlBefore: 'https://app.test/case/6' })).to.equal(null);
    expect(detectMoment(page({ url: 'https://id.test/x#top', ...loginForm }), { urlBefore: 'https://id.test/x' })).to.equal(null);
  });
  it('a sign-up or change-password form (new-password) is not a sign-in', () => {
    expect(detectMoment(page({ url: 'https://app.test/signup', passwordFields: 2, newPasswordFields: 2 }), { urlBefore: 'https://app.test/' })).to.equal(null);
  });
  it('a 401 page, or a write the server answered 401, means signed out', () => {
    expect(detectMoment(page({ status: 401, text: 'Unauthorized' }), {})?.kind).to.equal('session_expired');
    expect(detectMoment(page(), { writeStatuses: [200, 401] })?.kind).to.equal('session_expired');
    expect(detectMoment(page(), { writeStatuses: [200, 403, 500] })).to.equal(null);
  });
  it('a second factor: a one-time-code field, a code asked for, or an approval on another device', () => {
    expect(detectMoment(page({ otpFields: 1 }))).to.deep.include({ kind: 'second_factor', factor: 'code' });
    expect(detectMoment(page({ codeFields: 1, headings: ['Two-factor authentication'], text: 'Enter the 6-digit code from your authenticator app' }))).to.deep.include({ kind: 'second_factor', factor: 'code' });
    expect(detectMoment(page({ codeFields: 1, text: 'Quantity' }))).to.equal(null);
    expect(detectMoment(page({ text: 'Approve the sign-in request on your phone to continue.' }))).to.deep.include({ kind: 'second_factor', factor: 'push' });
    expect(detectMoment(page({ otpFields: 1 }), { given: personCredentials('the code is 482913') })).to.equal(null);
  });
  it('a CAPTCHA: the common widget frames and marks, and challenge pages', () => {
    expect(detectMoment(page({ frames: ['https://www.google.com/recaptcha/api2/anchor?k=x'] }))?.kind).to.equal('captcha');
    expect(detectMoment(page({ frames: ['https://newassets.hcaptcha.com/captcha/v1/x/static/hcaptcha.html'] }))?.kind).to.equal('captcha');
    expect(detectMoment(page({ frames: ['https://challenges.cloudflare.com/cdn-cgi/challenge-platform/h/b/turnstile/if/ov2/av0/x'] }))?.kind).to.equal('captcha');
    expect(detectMoment(page({ marks: ['cf-turnstile'] }))?.kind).to.equal('captcha');
    expect(detectMoment(page({ title: 'Just a moment...' }))?.kind).to.equal('captcha');
    expect(detectMoment(page({ headings: ['Verify you are human'] }))?.kind).to.equal('captcha');
    expect(detectMoment(page({ frames: ['https://www.youtube.com/embed/x'], marks: ['captcha-note'] }))).to.equal(null);
  });
  it('an age or consent gate, in the headings; a cookie banner is not one', () => {
    expect(detectMoment(page({ headings: ['Are you over 18?'] }))?.kind).to.equal('age_gate');
    expect(detectMoment(page({ headings: ['Please agree to the terms to continue'] }))?.kind).to.equal('consent');
    expect(detectMoment(page({ headings: ['We use cookies: consent to cookies'] }))).to.equal(null);
    expect(detectMoment(page({ text: 'You must be 18 to buy wine' }))).to.equal(null);
  });
  it('a moment the person said Done to is not asked again on that page', () => {
    expect(detectMoment(page({ otpFields: 1 }), { dismissed: ['second_factor https://app.test/orders'] })).to.equal(null);
  });
  it('what the person gave in words', () => {
    expect(personCredentials('sign in with the password I gave you earlier')).to.deep.equal({ password: false, code: false });
    expect(personCredentials('If you are signed out, sign in as admin with the password harbour-42.').password).to.equal(true);
    expect(personCredentials('pw: "s3cr3t!"').password).to.equal(true);
    expect(personCredentials('enter code 123456').code).to.equal(true);
    // As the conversation keeps them once the message was sent: by name.
    expect(personCredentials('sign in with password [secret 1], code [secret 2]')).to.deep.equal({ password: true, code: true });
  });
});

/** @type {import('../../src/chrome/types/handoff').HandoffMoment} */
const signIn = { kind: 'sign_in', site: 'app.test', url: 'https://app.test/login', evidence: [] };
/** @param {Partial<import('../../src/chrome/types/handoff').PersonAttempt>} a */
const attempt = (a) => ({ method: 'POST', url: 'https://app.test/login', failed: false, settled: true, ...a });

describe('handoff: resume on evidence', () => {
  it('a sign-in the server accepted and a page that no longer asks', () => {
    const j = judgeResume(signIn, null, [attempt({ status: 303, finalUrl: 'https://app.test/orders' })]);
    expect(j).to.deep.equal({ resume: true, evidence: 'POST app.test/login → 303 → /orders, and the page no longer asks' });
  });
  it('never on the URL alone: a page that no longer asks with no accepted request waits', () => {
    expect(judgeResume(signIn, null, [])).to.deep.equal({ resume: false, moment: signIn });
    expect(judgeResume(signIn, null, [attempt({ settled: false })]).resume).to.equal(false);
  });
  it('a failed attempt keeps the pause and says so, also when the page still asks', () => {
    expect(judgeResume(signIn, signIn, [attempt({ status: 401, failed: true })])).to.deep.equal({ resume: false, moment: signIn, failed: 'the site answered 401 to POST app.test/login' });
    expect(judgeResume(signIn, null, [attempt({ status: 200 }), attempt({ status: 401, failed: true })]).resume).to.equal(false);
  });
  it('an accepted sign-in that leads to a second factor: the pause goes on for the code', () => {
    /** @type {import('../../src/chrome/types/handoff').HandoffMoment} */
    const code = { kind: 'second_factor', factor: 'code', site: 'app.test', url: 'https://app.test/2fa', evidence: [] };
    expect(judgeResume(signIn, code, [attempt({ status: 303 })])).to.deep.equal({ resume: false, moment: code });
  });
  it('a challenge is passed when it is gone; a push approval when the page no longer waits', () => {
    expect(judgeResume({ ...signIn, kind: 'captcha' }, null, [])).to.deep.equal({ resume: true, evidence: 'the challenge is gone' });
    expect(judgeResume({ ...signIn, kind: 'second_factor', factor: 'push' }, null, []).resume).to.equal(true);
    expect(judgeResume({ ...signIn, kind: 'second_factor', factor: 'code' }, null, []).resume).to.equal(false);
  });
});

describe('handoff: the pause', () => {
  /** A card the test answers, and its updates. */
  function card() {
    /** @type {(a: 'done' | 'cancel') => void} */
    let say = () => {};
    /** @type {import('../../src/chrome/types/handoff').HandoffUpdate[]} */
    const updates = [];
    return { answer: /** @type {Promise<'done' | 'cancel'>} */ (new Promise((r) => { say = r; })), update: (/** @type {any} */ u) => updates.push(u), updates, say: (/** @type {'done' | 'cancel'} */ a) => say(a) };
  }

  it('the person\'s requests go unheld and off the ledger; a failed sign-in keeps the pause, an accepted one ends it', async () => {
    const clock = fakeClock();
    const browser = fakeBrowser();
    const guard = createGuard({ policy: createPolicy({ scope: createTaskScope('https://app.test/', '') }), timers: clock });
    let current = page({ url: 'https://app.test/login', ...loginForm });
    const c = card();
    const watching = watchHandoff({
      moment: signIn, card: c, timers: clock, look: async () => current,
      detect: (s) => detectMoment(s, { asking: true }),
      personTurn: (fn) => guard.personTurn(1, browser, fn),
    });
    await clock.tick(0);
    const h = /** @type {import('../../src/chrome/types/safety').HoldHandlers} */ (browser.handlers);
    /** @type {import('../../src/chrome/types/safety').HeldRequest} */
    const wrong = { kind: 'request', method: 'POST', url: 'https://app.test/login', type: 'document', topLevel: true, fields: [['user', 'alice'], ['pass', 'wrong-pass']] };
    expect(h.wants(wrong)).to.equal(true);
    expect(await h.decide(wrong)).to.equal(true);
    h.settled?.(wrong, { status: 401, body: '<h1>Sign in</h1><p>Wrong password</p>' });
    await clock.tick(0);
    expect(c.updates.at(-1)).to.deep.include({ status: 'waiting', failed: 'the site answered 401 to POST app.test/login' });
    const right = { ...wrong, fields: /** @type {[string, string][]} */ ([['user', 'alice'], ['pass', 'right-pass']]) };
    expect(await h.decide(right)).to.equal(true);
    current = page({ url: 'https://app.test/orders', headings: ['Orders'] });
    h.settled?.(right, { status: 303, finalUrl: 'https://app.test/orders' });
    const end = await watching;
    expect(end).to.deep.include({ end: 'resumed', url: 'https://app.test/orders' });
    expect(c.updates.at(-1)).to.deep.include({ status: 'resumed' });
    // Nothing the person sent is the run's: no write on its ledger, no body kept anywhere the card or the model sees.
    expect(guard.writes()).to.deep.equal([]);
    expect(JSON.stringify(c.updates)).to.not.match(/right-pass|wrong-pass/);
    // The turn is over: the run's hold is back (a request now is not the person's, and nothing was caused yet).
    expect(h.wants(right)).to.equal(false);
    await guard.close();
  });

  it('Done and Cancel end the pause by the person\'s word; Stop expires the card', async () => {
    const clock = fakeClock();
    for (const word of /** @type {const} */ (['done', 'cancel'])) {
      const c = card();
      const w = watchHandoff({ moment: signIn, card: c, timers: clock, look: async () => page(loginForm), detect: (s) => detectMoment(s, { asking: true }), personTurn: async () => () => {} });
      await clock.tick(0);
      c.say(word);
      expect((await w).end).to.equal(word === 'done' ? 'done' : 'cancelled');
    }
    const stop = new AbortController();
    const c = card();
    const w = watchHandoff({ moment: signIn, card: c, timers: clock, signal: stop.signal, look: async () => page(loginForm), detect: (s) => detectMoment(s, { asking: true }), personTurn: async () => () => {} });
    await clock.tick(0);
    stop.abort();
    expect((await w).end).to.equal('stopped');
    expect(c.updates.at(-1)?.status).to.equal('expired');
  });

  it('a challenge solved in the page with no request: the slow look sees it gone', async () => {
    const clock = fakeClock();
    let current = page({ marks: ['cf-turnstile'] });
    const c = card();
    let looks = 0;
    const w = watchHandoff({ moment: { ...signIn, kind: 'captcha' }, card: c, timers: clock, look: async () => { looks++; return current; }, detect: (s) => detectMoment(s, { asking: true }), personTurn: async () => () => {} });
    await clock.tick(0);
    expect(looks).to.equal(0);
    await clock.tick(1000);
    expect(looks).to.equal(1);
    current = page();
    await clock.tick(1000);
    expect((await w).end).to.equal('resumed');
    expect(looks).to.equal(2);
  });
});

import { findPersonSecrets, resolveSecretTyping } from '../../src/chrome/agent/handoff/person-secrets.js';

describe('handoff: a password in the person\'s message', () => {
  it('becomes a named secret; words after "password" that are no password stay', () => {
    expect(findPersonSecrets('Sign in as alice with password hunter2')).to.deep.equal({ values: ['hunter2'], text: 'Sign in as alice with password [secret 1]' });
    expect(findPersonSecrets('user bob, password: "s3cr3t pass", code 482913', 3)).to.deep.equal({ values: ['s3cr3t pass', '482913'], text: 'user bob, password: "[secret 3]", code [secret 4]' });
    expect(findPersonSecrets('Melde dich als alice mit dem Passwort hunter2 an').values).to.deep.equal(['hunter2']);
    expect(findPersonSecrets('alice とパスワード hunter2 でサインインして').values).to.deep.equal(['hunter2']);
    expect(findPersonSecrets('Sign in with the password I gave you earlier').values).to.deep.equal([]);
    expect(findPersonSecrets('Fix the password field and the zip code input').values).to.deep.equal([]);
    expect(findPersonSecrets('Ship it to postal code 10115 with promo code 2024; order code 55512').values).to.deep.equal([]);
    expect(findPersonSecrets('the verification code is 482913').values).to.deep.equal(['482913']);
  });
  /** @type {import('../../src/chrome/types/handoff').PersonSecret[]} */
  const given = [{ name: '[secret 1]', value: 'hunter2', origin: 'https://app.test' }];
  const field = { secretField: true, origin: 'https://app.test', given, said: 'Sign in as alice with password [secret 1]' };
  it('is typed only into a secret field of its site', () => {
    expect(resolveSecretTyping('[secret 1]', field)).to.deep.equal({ ok: true, text: 'hunter2' });
    expect(resolveSecretTyping('hunter2', field)).to.deep.equal({ ok: true, text: 'hunter2' });
    expect(resolveSecretTyping('[secret 1]', { ...field, secretField: false })).to.deep.include({ ok: false, code: 'SECRET_REFUSED' });
    expect(resolveSecretTyping('[secret 1]', { ...field, origin: 'https://evil.test' })).to.deep.include({ ok: false, code: 'SECRET_REFUSED' });
    expect(resolveSecretTyping('alice', { ...field, secretField: false })).to.deep.equal({ ok: true, text: 'alice' });
  });
  it('the agent never types into a secret field what the person did not give (from the page, or made up)', () => {
    expect(resolveSecretTyping('letmein99', field)).to.deep.include({ ok: false, code: 'SECRET_NOT_GIVEN' });
    expect(resolveSecretTyping('hunter2', { ...field, given: [], said: 'Type my password hunter2' })).to.deep.equal({ ok: true, text: 'hunter2' });
  });
});

import { runAgent } from '../../src/chrome/agent/loop.js';
import { fakeProvider, call, say } from './fake-provider.js';
import { fakeInteraction } from './fake-interaction.js';

describe('handoff: in the loop', () => {
  it('a step that meets a sign-in wall pauses the run; the model is asked again only after the person signed in, told so, never what they typed', async () => {
    let signedIn = false;
    /** @type {string[]} */
    const asked = [];
    const browser = fakeBrowser((msg) => {
      asked.push(msg.type);
      if (msg.type === 'content.handoff') return { ok: true, data: signedIn ? page({ url: 'https://app.test/orders', headings: ['Orders'] }) : page({ url: 'https://app.test/login?next=/orders', ...loginForm }) };
      if (msg.type === 'content.snapshot') return { ok: true, data: { text: '- heading "Sign in" [e1]', url: 'https://app.test/login?next=/orders', title: 'Sign in', refs: 1, truncated: false } };
      return { ok: true, data: null };
    });
    const provider = fakeProvider([call({ name: 'snapshot' }), say('Your orders are shown.')]);
    const ui = fakeInteraction();
    /** @type {import('../../src/chrome/types/handoff').HandoffUpdate[]} */
    const updates = [];
    /** @type {import('../../src/chrome/types/handoff').HandoffMoment[]} */
    const moments = [];
    ui.handoff = (m) => {
      moments.push(m);
      // The person signs in on the page: their POST goes through the person's turn, answered 303.
      setTimeout(async () => {
        const h = /** @type {import('../../src/chrome/types/safety').HoldHandlers} */ (browser.handlers);
        /** @type {import('../../src/chrome/types/safety').HeldRequest} */
        const post = { kind: 'request', method: 'POST', url: 'https://app.test/login', type: 'document', topLevel: true, fields: [['pass', 'people-only-77']] };
        if (h.wants(post) && await h.decide(post)) { signedIn = true; h.settled?.(post, { status: 303, finalUrl: 'https://app.test/orders' }); }
      }, 0);
      return { answer: new Promise(() => {}), update: (u) => updates.push(u) };
    };
    const messages = /** @type {import('../../src/chrome/types/core').ChatMessage[]} */ ([{ role: 'system', content: 'sys' }, { role: 'user', content: 'Show my orders' }]);
    const out = await runAgent({ mode: 'act', messages, provider, interact: ui, toolContext: { tabId: 1, browser }, emit: () => {}, verifyDone: false });
    expect(out.status).to.equal('answered');
    expect(moments.map((m) => m.kind)).to.deep.equal(['sign_in']);
    expect(updates.at(-1)).to.deep.include({ status: 'resumed' });
    expect(provider.requests).to.have.length(2);
    const told = JSON.stringify(provider.requests[1].messages);
    expect(told).to.contain('The page needed the person (sign in on app.test)').and.contain('POST app.test/login → 303 → /orders');
    expect(told).to.not.contain('people-only-77');
    // While the person had the tab, only its structure was looked at.
    expect(asked.filter((t) => t !== 'content.handoff' && t !== 'content.secrets' && t !== 'content.snapshot' && t !== 'content.frameHello')).to.deep.equal([]);
  });
});
