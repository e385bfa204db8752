// The lying pages' verdicts, at unit level, under both models: each page of a kind with several
// pages runs in one of the browsers with one model (test/e2e/lies.e2e.js, behavioursOf), so both
// models run here. What the page sends when its button is clicked is read off its script
// (test/fixtures/lies/cases.js) and answered by the page's own server code (the case's `api`, the
// same functions test/fixtures/lies/server.js serves), then replayed through the real loop, policy,
// hold and write ledger with each model: obedient (accepts Tabwright's challenge and says it could not
// confirm) and stubborn (repeats done). A lie must end failed or not verified with no green check;
// an honest page must end verified with a receipt.
import { expect } from 'chai';
import { runAgent } from '../../src/chrome/agent/loop.js';
import { createPolicy } from '../../src/chrome/agent/safety/policy.js';
import { createTaskScope } from '../../src/chrome/agent/safety/scope.js';
import { CASES } from '../fixtures/lies/cases.js';
import { call, say } from './fake-provider.js';
import { fakeBrowser } from './fake-browser.js';
import { fakeInteraction } from './fake-interaction.js';

/** @import { AgentEvent, ChatMessage, ChatRequest, StreamEvent } from '../../src/chrome/types/core' */
/** @import { HeldRequest, WriteOutcome } from '../../src/chrome/types/safety' */
/** @import { Case } from '../fixtures/lies/cases.js' */

const SITE = 'https://lies.test';
/**
 * What each page sends on its button, in order, as its script does (path under /lies/<id>/api/, the
 * body, and how it leaves: a fetch or XHR, a beacon, or the form's own navigation).
 * @type {Record<string, { method: string, path: string, body: string, type: string }[]>}
 */
const SENDS = {
  'ok-false': [{ method: 'POST', path: 'save', body: '{"from":"ok-false"}', type: 'fetch' }],
  'status-error': [{ method: 'POST', path: 'save', body: '{"from":"status-error"}', type: 'fetch' }],
  'error-field': [{ method: 'POST', path: 'save', body: '{"from":"error-field"}', type: 'fetch' }],
  'success-false-xhr': [{ method: 'POST', path: 'invite', body: '{"email":"grace@example.com"}', type: 'xmlhttprequest' }],
  'graphql-null': [{ method: 'POST', path: 'graphql', body: '{"query":"mutation { createProject(name: \\"Apollo\\") { id } }"}', type: 'fetch' }],
  'graphql-partial': [{ method: 'POST', path: 'graphql', body: '{"query":"mutation { addMember(name: \\"Linus\\") { id } }"}', type: 'fetch' }],
  'accepted-202': [{ method: 'POST', path: 'exports', body: '{"report":"q3"}', type: 'fetch' }],
  'pending-200': [{ method: 'POST', path: 'save', body: '{"from":"pending-200"}', type: 'fetch' }],
  'form-303-flag': [{ method: 'POST', path: 'order', body: 'item=lamp', type: 'main_frame' }],
  'form-303-status': [{ method: 'POST', path: 'book', body: 'room=12', type: 'main_frame' }],
  'refused-then-beacon': [{ method: 'POST', path: 'account', body: '{"plan":"pro"}', type: 'fetch' }, { method: 'POST', path: 'analytics', body: '{"event":"save_clicked"}', type: 'beacon' }],
  'refused-then-success': [{ method: 'POST', path: 'newsletter', body: '{"weekly":true}', type: 'fetch' }, { method: 'POST', path: 'seen', body: '{"banner":"newsletter"}', type: 'fetch' }],
  'validation-rails': [{ method: 'POST', path: 'users', body: '{"email":"ada@"}', type: 'fetch' }],
  'validation-flag': [{ method: 'POST', path: 'save', body: '{"from":"validation-flag"}', type: 'fetch' }],
  'honest-json': [{ method: 'POST', path: 'orders', body: '{"item":"poster"}', type: 'fetch' }],
  'honest-form': [{ method: 'POST', path: 'sign', body: 'name=Ada', type: 'main_frame' }],
  'honest-graphql': [{ method: 'POST', path: 'graphql', body: '{"query":"mutation { createLabel(name: \\"urgent\\") { id } }"}', type: 'fetch' }],
};

/** @param {Case} c @param {string} path */
const apiUrl = (c, path) => `${SITE}/lies/${c.id}/api/${path}`;

/**
 * How the page's server answers a request: its own handler, and for a redirect the page it lands on.
 * @param {Case} c @param {Record<string, unknown>} store @param {HeldRequest} req @returns {WriteOutcome}
 */
function answerOf(c, store, req) {
  const url = new URL(req.url);
  const path = url.pathname.slice(`/lies/${c.id}/api/`.length);
  const reply = (/** @type {string} */ method, /** @type {string} */ p, /** @type {string} */ body, /** @type {URLSearchParams} */ query) => {
    const handler = c.api[`${method} ${p}`];
    if (!handler) throw new Error(`${c.id}: no handler for ${method} ${p}`);
    return handler({ body, query, store });
  };
  const r = reply(req.method, path, String(req.body ?? ''), url.searchParams);
  const text = (/** @type {typeof r} */ x) => (x.html ?? (x.json === undefined ? '' : JSON.stringify(x.json)));
  const type = (/** @type {typeof r} */ x) => (x.html !== undefined ? 'text/html' : 'application/json');
  if (r.status >= 300 && r.status < 400 && r.location) {
    const to = new URL(r.location, `${SITE}/lies/${c.id}/api/`);
    const landed = reply('GET', to.pathname.slice(`/lies/${c.id}/api/`.length), '', to.searchParams);
    return { status: r.status, finalUrl: to.href, finalStatus: landed.status, body: text(landed), contentType: type(landed) };
  }
  return { status: r.status, body: text(r), contentType: type(r) };
}

/**
 * The lying pages' models, on the loop's own messages (test/fixtures/lies/policies.js speaks the mock
 * LLM's wire format): click the button, then done quoting the page; challenged, obedient says it could
 * not confirm, stubborn repeats done up to three times.
 * @param {'obedient' | 'stubborn'} behaviour
 */
function model(behaviour) {
  return (/** @type {ChatRequest} */ req) => {
    const results = req.messages.filter((m) => m.role === 'tool').length;
    if (results < 1) return call({ name: 'click', args: { ref: 'e1' } });
    const dones = results - 1;
    if (dones === 0 || (behaviour === 'stubborn' && dones < 3)) return call({ name: 'done', args: { summary: 'Done: the page says it worked.' } });
    return say('I could not confirm that the change was made: the server did not accept it, whatever the page says.');
  };
}

/** @param {'obedient' | 'stubborn'} behaviour @returns {import('../../src/chrome/types/core').Provider} */
function provider(behaviour) {
  const next = model(behaviour);
  let turns = 0;
  return {
    kind: 'fake', label: 'Fake provider', model: 'fake-1',
    async *chatStream(req) {
      if (++turns > 10) throw new Error('the model was asked more than ten times');
      for (const ev of /** @type {StreamEvent[]} */ (next(req))) { yield ev; await new Promise((r) => setTimeout(r, 0)); }
    },
    async listModels() { return ['fake-1']; },
  };
}

/** One page, one model, through the real loop. @param {Case} c @param {'obedient' | 'stubborn'} behaviour */
async function runPage(c, behaviour) {
  /** @type {Record<string, unknown>} */
  const store = {};
  const label = /** @type {[string, string]} */ (c.steps[0])[1];
  const b = fakeBrowser((msg) => {
    if (msg.type === 'content.snapshot') return { ok: true, data: { text: `- button "${label}" [e1]\n- status "Done"`, url: b.url, title: c.title } };
    if (msg.type === 'content.targetInfo') return { ok: true, data: { role: 'button', name: label } };
    if (msg.type === 'content.read') return { ok: true, data: `${c.title} Done` };
    return { ok: true, data: { clicked: true } };
  });
  b.url = `${SITE}/lies/${c.id}/`;
  b.causes['content.click'] = SENDS[c.id].map((s) => ({ kind: 'request', method: s.method, url: apiUrl(c, s.path), type: s.type, topLevel: s.type === 'main_frame', body: s.body }));
  b.answers = (req) => answerOf(c, store, req);
  /** @type {AgentEvent[]} */
  const events = [];
  /** @type {ChatMessage[]} */
  const messages = [{ role: 'system', content: 'sys' }, { role: 'user', content: c.task }];
  const policy = createPolicy({ scope: createTaskScope(b.url, c.task), alwaysAllow: ['lies.test'] });
  await runAgent({ mode: 'act', messages, provider: provider(behaviour), policy, interact: fakeInteraction({ confirm: 'yes' }), toolContext: { tabId: 1, browser: b }, emit: (e) => events.push(e) });
  const final = /** @type {any} */ (events.find((e) => e.type === 'final'));
  return { final, store };
}

describe('lying pages (recorded sends, the pages\' own server code) under both models', function () {
  this.timeout(30_000);
  it('covers every page of every kind with more than one page, but the read-only question', () => {
    const kinds = new Map();
    for (const c of CASES) kinds.set(c.lie, [...(kinds.get(c.lie) ?? []), c.id]);
    const several = [...kinds.values()].filter((ids) => ids.length > 1).flat().filter((id) => id !== 'honest-ask');
    expect(Object.keys(SENDS).sort()).to.deep.equal(several.sort());
  });

  for (const c of CASES.filter((x) => SENDS[x.id])) {
    for (const behaviour of /** @type {const} */ (['obedient', 'stubborn'])) {
      it(`${c.id} (${c.lie}), ${behaviour}: ${c.lie === 'honest' ? 'verified, with a receipt' : 'failed or not verified, nothing green'}`, async () => {
        const { final, store } = await runPage(c, behaviour);
        expect(final, 'a final answer').to.not.equal(undefined);
        if (c.lie === 'honest') {
          expect(c.done(store), 'the server did it').to.equal(true);
          expect(final.outcome.verdict).to.equal('verified');
          expect(final.outcome.receipt.length).to.be.at.least(1);
        } else {
          expect(c.done(store), 'the server did not do it').to.equal(false);
          expect(['failed', 'not_verified']).to.include(final.outcome.verdict);
          expect(final.check?.verified ?? false, 'the page check is not green').to.equal(false);
        }
      });
    }
  }
});
