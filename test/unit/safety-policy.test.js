// The policy alone (agent/safety/policy.js): every tool's declared effects reach it, every way of
// addressing a target gets the same verdict, and what it decides follows effects, not names.
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ALL_TOOLS } from '../../src/chrome/agent/tools/index.js';
import { proposePlanTool } from '../../src/chrome/agent/plan.js';
import { createPolicy, siteMatches } from '../../src/chrome/agent/safety/policy.js';
import { createTaskScope, dataInUrl, namedHosts } from '../../src/chrome/agent/safety/scope.js';
import { elementCategory } from '../../src/chrome/agent/safety/semantics.js';
import { effectsOf } from '../../src/chrome/agent/safety/effects.js';
import { createSecretVault } from '../../src/chrome/agent/safety/secrets.js';
import { ERROR_CODES } from '../../src/chrome/agent/error-codes.js';

/** @import { Mode } from '../../src/chrome/types/core' */
/** @import { CallFacts } from '../../src/chrome/agent/safety/policy.js' */
/** @import { HeldRequest } from '../../src/chrome/types/safety' */

const PAGE = 'https://shop.test/cart';
const KNOWN_EFFECTS = ['reads_page', 'acts_on_page', 'navigates', 'leaves_origin', 'writes_server', 'creates_jobs', 'touches_secrets', 'controls_run', 'reads_skills', 'saves_skills', 'runs_code', 'records_tab'];

/** Typical arguments for each tool, addressed by ref. @type {Record<string, Record<string, unknown>>} */
const ARGS = {
  click: { ref: 'e1' }, hover: { ref: 'e1' }, type: { ref: 'e1', text: 'hello' }, press_keys: { keys: ['Enter'] }, drag_drop: { from_ref: 'e1', to_ref: 'e2' },
  scroll: { direction: 'down' }, set_field: { ref: 'e1', value: '2026-01-01' }, select_option: { ref: 'e1', label: 'Red' }, check: { ref: 'e1' }, uncheck: { ref: 'e1' },
  upload_file: { ref: 'e1', files: [{ name: 'a.txt', content: 'x' }] }, handle_dialog: { accept: true }, navigate: { url: 'https://shop.test/orders' },
  tabs: { action: 'open', url: 'https://shop.test/help' }, fetch_url: { url: 'https://shop.test/api/cart' }, read_pdf: { url: 'https://shop.test/invoice.pdf' },
  schedule_task: { title: 'Check', prompt: 'Check the cart', schedule: 'once', after_seconds: 120 }, schedule_resume: { reason: 'wait', resume_instruction: 'go on', after_seconds: 120 },
};

/** @param {ReturnType<typeof createPolicy>} policy @param {string} name @param {Record<string, unknown>} args @param {Mode} [mode] @param {CallFacts['target']} [target] */
function verdict(policy, name, args, mode = 'act', target = null) {
  const tool = /** @type {import('../../src/chrome/types/core').Tool} */ (ALL_TOOLS.find((t) => t.name === name));
  return policy.checkCall({ tool: name, args, effects: effectsOf(tool, args), url: PAGE, target, mode });
}

describe('safety policy: every tool declares its effects', () => {
  it('no tool declares nothing, and every declared effect is a known one (a new tool cannot skip the gate)', () => {
    for (const t of [...ALL_TOOLS, proposePlanTool(() => {})]) {
      expect(t.effects, t.name).to.be.an('array').that.is.not.empty;
      for (const e of t.effects) expect(KNOWN_EFFECTS, `${t.name}: ${e}`).to.include(e);
      expect(t, t.name).to.not.have.property('readOnly');
    }
  });

  it('tools whose effects depend on their arguments say so per call', () => {
    const fetch = /** @type {any} */ (ALL_TOOLS.find((t) => t.name === 'fetch_url'));
    expect(effectsOf(fetch, { url: 'x', method: 'PUT' })).to.include('writes_server');
    const pdf = /** @type {any} */ (ALL_TOOLS.find((t) => t.name === 'read_pdf'));
    expect(effectsOf(pdf, {})).to.not.include('leaves_origin');
    const tabs = /** @type {any} */ (ALL_TOOLS.find((t) => t.name === 'tabs'));
    expect(effectsOf(tabs, { action: 'list' })).to.deep.equal(['reads_page']);
    expect(effectsOf(tabs, { action: 'close', tab_id: 3 })).to.include('acts_on_page');
  });

  it('gives every tool a verdict in Act and Ask mode: reading runs, changing is refused in Ask, jobs always ask', () => {
    const policy = createPolicy({ scope: createTaskScope(PAGE) });
    /** @type {Record<string, string>} */
    const act = {}, ask = {};
    for (const t of ALL_TOOLS) {
      const args = ARGS[t.name] ?? {};
      act[t.name] = verdict(policy, t.name, args).action;
      ask[t.name] = verdict(policy, t.name, args, 'ask').action;
    }
    for (const name of ['schedule_task', 'schedule_resume', 'save_skill', 'execute_js']) expect(act[name], name).to.equal('ask');
    for (const t of ALL_TOOLS) {
      const changes = effectsOf(t, ARGS[t.name] ?? {}).some((e) => ['acts_on_page', 'navigates', 'writes_server', 'creates_jobs', 'saves_skills', 'runs_code', 'records_tab'].includes(e));
      expect(ask[t.name], t.name).to.equal(changes ? 'refuse' : 'allow');
      if (!t.effects.includes('creates_jobs') && !t.effects.includes('saves_skills') && !t.effects.includes('runs_code')) expect(act[t.name], t.name).to.equal('allow');
    }
  });

  it('every way of addressing a target gets the same verdict (the resolved element decides)', () => {
    const policy = createPolicy({ scope: createTaskScope(PAGE), alwaysConfirm: ['shop.test'] });
    const target = { role: 'button', name: 'Place order' };
    for (const how of [{ ref: 'e4' }, { text: 'Place order' }, { selector: '#buy' }, { x: 10, y: 20 }, { ref: 'f3:e4' }, { selector: '#buy', frame_id: 3 }]) {
      const v = verdict(policy, 'click', how, 'act', target);
      expect(v.action, JSON.stringify(how)).to.equal('ask');
      if (v.action === 'ask') expect(v.request).to.deep.include({ rule: 'site_confirm', category: 'checkout', action: 'Click button "Place order"' });
    }
    const drag = verdict(policy, 'drag_drop', { from_selector: '.card', to_x: 5, to_y: 5 }, 'act', target);
    expect(drag.action).to.equal('ask');
  });
});

describe('safety policy: held requests', () => {
  const policy = createPolicy({ scope: createTaskScope(PAGE, 'also use payments.example') });
  /** @param {Partial<HeldRequest>} r @returns {HeldRequest} */
  const req = (r) => ({ kind: 'request', method: 'POST', url: 'https://shop.test/api/order', type: 'xhr', topLevel: false, ...r });
  const ctx = { pageUrl: PAGE, cause: 'click button "Add"', target: { role: 'button', name: 'Add' } };

  it('wants every write, beacon, download and top-level navigation; lets subresource GETs and preflights go', () => {
    expect(policy.wantsRequest(req({}))).to.equal(true);
    expect(policy.wantsRequest(req({ method: 'GET', type: 'ping' }))).to.equal(true);
    expect(policy.wantsRequest(req({ method: 'GET', type: 'document', topLevel: true }))).to.equal(true);
    expect(policy.wantsRequest(req({ kind: 'download', method: 'GET' }))).to.equal(true);
    expect(policy.wantsRequest(req({ method: 'GET', type: 'script' }))).to.equal(false);
    expect(policy.wantsRequest(req({ method: 'OPTIONS' }))).to.equal(false);
  });

  it('asks for a write to the task\'s site whatever the button is called, naming the fields', () => {
    for (const name of ['Add', 'Save', 'Follow', 'Create', 'Connect', 'Share', 'Unlock', 'Cancel booking', 'OK', '']) {
      const v = policy.judgeRequest(req({ fields: [['qty', '2']] }), { ...ctx, target: { role: 'button', name } });
      expect(v.action, name).to.equal('ask');
      if (v.action === 'ask') expect(v.request.details, name).to.deep.equal([{ label: 'qty', value: '2' }]);
    }
  });

  it('masks secret-looking fields and known secrets in a card', () => {
    const secrets = createSecretVault();
    secrets.add(['correct-horse-battery'], 'https://shop.test');
    const p = createPolicy({ scope: createTaskScope(PAGE), secrets });
    const v = p.judgeRequest(req({ fields: [['password', 'pw-in-clear'], ['note', 'is correct-horse-battery ok']] }), ctx);
    expect(v.action).to.equal('ask');
    if (v.action === 'ask') expect(v.request.details).to.deep.equal([{ label: 'password', value: '••••••' }, { label: 'note', value: 'is •••••• ok' }]);
  });

  it('downloads from the task\'s sites go; from elsewhere they ask', () => {
    expect(policy.judgeRequest(req({ kind: 'download', method: 'GET', url: 'https://shop.test/invoice.pdf' }), ctx).action).to.equal('allow');
    const v = policy.judgeRequest(req({ kind: 'download', method: 'GET', url: 'https://evil.example/report.pdf', filename: 'report.pdf' }), ctx);
    expect(v.action === 'ask' && v.request.rule).to.equal('leave_scope');
  });

  it('a named site is in scope (and its subdomains); an IP on another port is not', () => {
    const s = createTaskScope('http://127.0.0.1:4000/a', 'pay on https://payments.example/x and docs.example.org');
    expect(s.has('https://payments.example/y')).to.equal(true);
    expect(s.has('https://api.payments.example/y')).to.equal(true);
    expect(s.has('https://docs.example.org/')).to.equal(true);
    expect(s.has('http://127.0.0.1:4000/b')).to.equal(true);
    expect(s.has('http://127.0.0.1:4001/b')).to.equal(false);
    expect(s.has('http://localhost:4000/b')).to.equal(false);
    const mail = createTaskScope('https://mail.example.com/inbox');
    expect(mail.has('https://accounts.example.com/')).to.equal(true);
    expect(mail.has('https://example.com.evil.test/')).to.equal(false);
  });
});

describe('safety policy: parts', () => {
  it('element semantics in every UI language raise the category, not the gate', () => {
    expect(elementCategory('Jetzt kaufen')).to.equal('checkout');
    expect(elementCategory('Passer la commande')).to.equal('checkout');
    expect(elementCategory('Eliminar cuenta')).to.equal('delete');
    expect(elementCategory('送信する')).to.equal('send');
    expect(elementCategory('删除')).to.equal('delete');
    expect(elementCategory('Invite collaborator')).to.equal('sharing');
    expect(elementCategory('Unlock front door')).to.equal('device');
    expect(elementCategory('Save', 'https://x.test/settings/security')).to.equal('account');
    expect(elementCategory('Save', 'https://x.test/notes')).to.equal(null);
    expect(elementCategory('Repository')).to.equal(null);
  });

  it('data in URLs: e-mail addresses, tokens, long values and typed strings; not ordinary queries', () => {
    expect(dataInUrl('https://x.test/search?q=shoes&page=2')).to.deep.equal([]);
    expect(dataInUrl('https://x.test/?to=bob%40mail.test')[0].value).to.contain('(an e-mail address)');
    expect(dataInUrl('https://x.test/?k=sk-live-abcdefghijklmnopqrstu')[0].value).to.contain('(a token)');
    expect(dataInUrl('https://x.test/p?x=' + 'a'.repeat(40))[0].value).to.contain('(a long value)');
    expect(dataInUrl('https://x.test/p/Order-4471', ['order-4471'])[0].label).to.equal('path');
  });

  it('names the hosts a user typed, not files or abbreviations', () => {
    expect(namedHosts('Compare it with www.amazon.de and https://ebay.com/x, e.g. report.pdf')).to.deep.equal(['ebay.com', 'amazon.de']);
  });

  it('site patterns', () => {
    expect(siteMatches('*.bank.test', 'www.bank.test')).to.equal(true);
    expect(siteMatches('*.bank.test', 'bank.test:8443')).to.equal(true);
    expect(siteMatches('bank.test', 'evilbank.test')).to.equal(false);
  });
});

describe('error codes: one catalog', () => {
  it('every code a content script, tool, router or the loop returns is in agent/error-codes.js with a sentence', () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), '../../src/chrome');
    /** @type {Set<string>} */
    const used = new Set();
    /** @param {string} dir */
    const walk = (dir) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) { if (!['vendor', 'providers', '_locales'].includes(e.name)) walk(p); continue; }
        if (!e.name.endsWith('.js')) continue;
        for (const m of readFileSync(p, 'utf8').matchAll(/\bok: false, code: '([A-Z_0-9]+)'|\b(?:fail|errorOf|refuse|refusal)\('([A-Z_0-9]+)'/g)) used.add(m[1] ?? m[2]);
      }
    };
    walk(root);
    expect(used.size).to.be.above(40);
    const missing = [...used].filter((c) => !(c in ERROR_CODES));
    expect(missing).to.deep.equal([]);
    for (const [code, sentence] of Object.entries(ERROR_CODES)) expect(sentence, code).to.match(/^[A-Z].*\.$/);
  });
});
