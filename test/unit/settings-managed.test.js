// The organization's policy over the person's settings: what it sets wins and is locked, a save cannot
// change it, a provider it does not allow never runs, and the org rules refuse before the person's cards.
import { expect } from 'chai';
import { createSettingsStore } from '../../src/chrome/service/settings.js';
import { readPolicy, providerRefusal, assertProvidersAllowed, assertModeAllowed, jobControls } from '../../src/chrome/service/settings-managed.js';
import { withOrgRules } from '../../src/chrome/agent/safety/org-rules.js';
import { withoutLocked } from '../../src/chrome/ui/options-org.js';
import { createPolicy } from '../../src/chrome/agent/safety/policy.js';
import { createTaskScope } from '../../src/chrome/agent/safety/scope.js';

function memoryArea() {
  /** @type {Record<string, any>} */
  const data = {};
  return {
    data,
    async get(/** @type {string} */ key) { return key in data ? { [key]: structuredClone(data[key]) } : {}; },
    async set(/** @type {Record<string, any>} */ items) { Object.assign(data, structuredClone(items)); },
  };
}
/** @param {Record<string, any> | null} policy null: the area throws, as Firefox's does without a policy */
const managedArea = (policy) => ({ async get() { if (!policy) throw new Error('Managed storage manifest not found'); return structuredClone(policy); } });

const POLICY = {
  askOnly: true,
  disabledFeatures: ['devTools', 'mcp', 'webmcp', 'scheduler', 'recorder', 'nonsense'],
  strictSecrets: true,
  traceRetention: { keepDays: 7, keepRuns: 'many' },
  blockedSites: ['Bank.example'],
  confirmSites: ['hr.example'],
  allowedProviderKinds: ['openai', 'ollama'],
  allowedBaseUrls: ['https://llm.corp.example/v1', 'http://localhost:11434'],
  pauseAllJobs: true,
};

describe('managed policy: the settings in force', () => {
  it('no policy (the area throws or is empty) changes nothing and carries no managed state', async () => {
    for (const area of [managedArea(null), managedArea({}), undefined]) {
      const s = await createSettingsStore(memoryArea(), area).get();
      expect(s.managed).to.equal(undefined);
      expect(s.defaultMode).to.equal('ask');
    }
  });

  it('lays the policy over the person\'s settings and lists what it locked; bad values are left out', async () => {
    const local = memoryArea();
    local.data.settings = { devTools: true, strictSecrets: false, defaultMode: 'act', sites: { allow: [], confirm: ['mine.example'] }, traces: { record: true, keepRuns: 50, keepDays: 90 } };
    const s = await createSettingsStore(local, managedArea(POLICY)).get();
    expect(s).to.deep.include({ defaultMode: 'ask', devTools: false, webmcp: false, strictSecrets: true });
    expect(s.mcp?.enabled).to.equal(false);
    expect(s.traces).to.deep.equal({ record: true, keepRuns: 50, keepDays: 7 }); // keepRuns 'many' ignored
    expect(s.sites?.confirm).to.deep.equal(['mine.example', 'hr.example']);
    expect(s.jobs?.pauseAll).to.equal(true);
    expect(s.managed?.locked).to.have.members(['defaultMode', 'devTools', 'webmcp', 'mcp', 'recorder', 'scheduler', 'strictSecrets', 'traces', 'jobs.pauseAll']);
    expect(s.managed?.off).to.have.members(['devTools', 'mcp', 'webmcp', 'scheduler', 'recorder']);
    expect(s.managed?.blockSites).to.deep.equal(['bank.example']);
    expect(readPolicy({ askOnly: 'yes', blockedSites: 'x' })).to.deep.equal({});
  });

  it('a save may resend a locked value but not change it; the lock is never stored as the person\'s', async () => {
    const local = memoryArea();
    const store = createSettingsStore(local, managedArea(POLICY));
    const same = await store.set({ strictSecrets: true, devTools: false, maxSteps: 12, sites: { allow: [], confirm: ['mine.example', 'hr.example'] } });
    expect(same.ok).to.equal(true);
    expect(local.data.settings.maxSteps).to.equal(12);
    expect(local.data.settings.strictSecrets).to.equal(false); // the person's own (the default), not the organization's
    expect(local.data.settings.sites.confirm).to.deep.equal(['mine.example']); // the organization's site is added on read
    const changed = await store.set({ devTools: true, maxSteps: 20 });
    expect(changed.ok).to.equal(false);
    if (!changed.ok) { expect(changed.code).to.equal('SET_BY_ORGANIZATION'); expect(changed.message).to.contain('devTools'); }
    expect(local.data.settings.maxSteps).to.equal(12); // nothing saved
    const jobs = await store.set({ jobs: { pauseAll: false } });
    expect(jobs.ok).to.equal(false);
    // Without the policy the person's own values come back.
    const free = await createSettingsStore(local, managedArea(null)).get();
    expect(free.strictSecrets).to.equal(false);
    expect(free.defaultMode).to.equal('ask');
  });

  it('providers: kinds and base URL prefixes, at a path boundary and the same origin', async () => {
    const store = createSettingsStore(memoryArea(), managedArea(POLICY));
    const m = (await store.get()).managed;
    expect(providerRefusal({ kind: 'openai', baseUrl: 'https://llm.corp.example/v1' }, m)).to.equal(null);
    expect(providerRefusal({ kind: 'openai', baseUrl: 'https://llm.corp.example/v1/' }, m)).to.equal(null);
    expect(providerRefusal({ kind: 'anthropic', baseUrl: 'https://llm.corp.example/v1' }, m)).to.contain('anthropic');
    expect(providerRefusal({ kind: 'openai', baseUrl: 'https://llm.corp.example.evil.test/v1' }, m)).to.contain('not one of them');
    expect(providerRefusal({ kind: 'openai', baseUrl: 'https://llm.corp.example/v10' }, m)).to.contain('not one of them');
    expect(providerRefusal({ kind: 'openai', baseUrl: 'https://api.openai.com/v1' }, m)).to.contain('not one of them');
    const refused = await store.set({ provider: { kind: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt', apiKey: 'k' } });
    expect(refused.ok).to.equal(false);
    if (!refused.ok) expect(refused.code).to.equal('PROVIDER_NOT_ALLOWED');
  });

  it('a run does not start with a provider the organization refuses (the active one or a role\'s), nor act under Ask only', async () => {
    const local = memoryArea();
    local.data.settings = { provider: { kind: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'm', apiKey: 'k' } };
    const s = await createSettingsStore(local, managedArea(POLICY)).get();
    expect(() => assertProvidersAllowed(s)).to.throw(/api\.openai\.com/);
    const ok = await createSettingsStore(memoryArea(), managedArea(POLICY)).get(); // the default local Ollama
    expect(() => assertProvidersAllowed(ok)).to.not.throw();
    const roles = { ...ok, providers: [{ ...ok.provider, id: 'x', kind: /** @type {const} */ ('gemini'), baseUrl: 'https://generativelanguage.googleapis.com' }], roles: { planner: { providerId: 'x', model: 'g' } } };
    expect(() => assertProvidersAllowed(roles)).to.throw(/gemini/);
    expect(() => assertModeAllowed(ok, 'act')).to.throw(/Ask mode only/);
    expect(() => assertModeAllowed(ok, 'ask')).to.not.throw();
  });

  it('the settings page leaves out what the organization set (a locked plan mode its select cannot show)', async () => {
    const s = await createSettingsStore(memoryArea(), managedArea({ defaultMode: 'plan', pauseAllJobs: true })).get();
    const form = { defaultMode: /** @type {const} */ ('act'), maxSteps: 9, jobs: { pauseAll: false, askBeforeRun: true } };
    expect(withoutLocked(form, s)).to.deep.equal({ maxSteps: 9, jobs: { askBeforeRun: true } });
    expect(withoutLocked(form, null)).to.equal(form);
  });

  it('job controls: the person\'s pause and ask-first, the organization\'s switch', () => {
    expect(jobControls(/** @type {any} */ ({ jobs: { askBeforeRun: true } }))).to.deep.equal({ paused: false, askFirst: true, off: false });
    expect(jobControls(/** @type {any} */ ({ jobs: { pauseAll: true } }))).to.deep.equal({ paused: true, askFirst: false, off: false });
    expect(jobControls(/** @type {any} */ ({ managed: { off: ['scheduler'] } }))).to.deep.equal({ paused: true, askFirst: false, off: true });
  });
});

describe('managed policy: org rules over the safety policy', () => {
  const base = () => createPolicy({ scope: createTaskScope('https://shop.example/', 'buy it'), alwaysAllow: ['bank.example', 'shop.example'] });
  /** @param {string} tool @param {string[]} effects @param {string} url */
  const call = (tool, effects, url) => ({ tool, args: {}, effects: /** @type {any} */ (effects), url, target: null, mode: /** @type {const} */ ('act') });

  it('refuses acting on a blocked site (and its subdomains with *.), even one the person always allows; reading passes', () => {
    const p = withOrgRules(base(), { blockSites: ['bank.example', '*.corp.example'] });
    const v = p.checkCall(call('click', ['acts_on_page'], 'https://bank.example/pay'));
    expect(v).to.deep.include({ action: 'refuse', code: 'SITE_BLOCKED' });
    expect(p.checkCall(call('type', ['acts_on_page'], 'https://hr.corp.example/')).action).to.equal('refuse');
    expect(p.checkCall(call('snapshot', ['reads_page'], 'https://bank.example/')).action).to.equal('allow');
    expect(p.checkCall(call('click', ['acts_on_page'], 'https://shop.example/')).action).to.equal('allow');
    const write = p.judgeRequest({ kind: 'request', topLevel: false, url: 'https://bank.example/api/transfer', method: 'POST', body: 'a=1', type: 'xhr' }, { pageUrl: 'https://shop.example/', cause: 'click' });
    expect(write).to.deep.include({ action: 'refuse', code: 'SITE_BLOCKED' });
  });

  it('Ask only refuses every change; switched-off features refuse by effect', () => {
    const ask = withOrgRules(base(), { askOnly: true });
    expect(ask.checkCall(call('click', ['acts_on_page'], 'https://shop.example/')).action).to.equal('refuse');
    expect(ask.checkCall(call('navigate', ['navigates'], 'https://shop.example/')).action).to.equal('refuse');
    const off = withOrgRules(base(), { off: ['scheduler', 'recorder', 'devTools'] });
    expect(off.checkCall(call('schedule_task', ['creates_jobs'], 'https://shop.example/'))).to.deep.include({ code: 'FEATURE_OFF' });
    expect(off.checkCall(call('record_tab', ['records_tab'], 'https://shop.example/'))).to.deep.include({ code: 'FEATURE_OFF' });
    expect(off.checkCall(call('execute_js', ['runs_code'], 'https://shop.example/'))).to.deep.include({ code: 'FEATURE_OFF' });
    expect(withOrgRules(base(), undefined).checkCall(call('schedule_task', ['creates_jobs'], 'https://shop.example/')).action).to.equal('ask');
  });
});
