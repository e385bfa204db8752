import { expect } from 'chai';
import { validateSettings, settingsErrorMessage, MAX_IMPORT_BYTES } from '../../src/chrome/service/settings-schema.js';
import { DEFAULT_SETTINGS, createSettingsStore } from '../../src/chrome/service/settings.js';
import { parseImport } from '../../src/chrome/service/settings-io.js';

/** @param {Record<string, any>} patch */
const withDefaults = (patch) => JSON.parse(JSON.stringify({ ...DEFAULT_SETTINGS, ...patch }));
/** @param {Record<string, any>} provider */
const withProvider = (provider) => withDefaults({ provider: { ...DEFAULT_SETTINGS.provider, ...provider } });
/** The paths of the fields a validation refused. @param {unknown} value */
function badFields(value) {
  const r = validateSettings(value);
  return r.ok ? [] : r.errors.map((e) => e.path);
}

describe('settings schema: every field, every bad type', () => {
  it('accepts the defaults and a full, realistic configuration', () => {
    expect(validateSettings(withDefaults({})).ok).to.equal(true);
    const full = withDefaults({
      provider: { kind: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', model: 'claude-sonnet-4-5', apiKey: 'sk-ant', timeoutMs: 60_000, maxRetries: 2, toolMode: 'native', id: 'p1', name: 'Claude', pricing: { input: 3, output: 15 } },
      providers: [{ kind: 'ollama', baseUrl: 'http://localhost:11434', model: 'llama3.1', apiKey: '', id: 'p2' }],
      roles: { planner: { providerId: 'p1', model: '' }, executor: { providerId: 'p2', model: 'llama3.1' } },
      screenshotPolicy: 'auto', settleMs: 8_000, sites: { allow: ['example.com', '*.example.org'], confirm: ['bank.example'] }, strictSecrets: true, onboarded: true, defaultMode: 'plan', maxSteps: 1000,
    });
    const r = validateSettings(full);
    expect(r.ok).to.equal(true);
    if (r.ok) expect(r.settings).to.deep.equal(full);
  });

  const BAD = /** @type {[string, Record<string, any>, string][]} */ ([
    ['a number as provider kind', withProvider({ kind: 7 }), 'provider.kind'],
    ['a settle period under a second (it is never off)', withDefaults({ settleMs: 999 }), 'settleMs'],
    ['a settle period of no time', withDefaults({ settleMs: 0 }), 'settleMs'],
    ['a settle period over a minute', withDefaults({ settleMs: 60_001 }), 'settleMs'],
    ['an unknown provider kind', withProvider({ kind: 'skynet' }), 'provider.kind'],
    ['"soon" as a time-out', withProvider({ timeoutMs: 'soon' }), 'provider.timeoutMs'],
    ['a time-out of 5 ms', withProvider({ timeoutMs: 5 }), 'provider.timeoutMs'],
    ['negative retries', withProvider({ maxRetries: -1 }), 'provider.maxRetries'],
    ['fractional retries', withProvider({ maxRetries: 1.5 }), 'provider.maxRetries'],
    ['a base URL that is not http(s)', withProvider({ baseUrl: 'javascript:alert(1)' }), 'provider.baseUrl'],
    ['a base URL with a password in it', withProvider({ baseUrl: 'https://u:p@api.example.com/v1' }), 'provider.baseUrl'],
    ['a base URL that is a number', withProvider({ baseUrl: 42 }), 'provider.baseUrl'],
    ['a model that is not text', withProvider({ model: ['gpt'] }), 'provider.model'],
    ['a key that is not text', withProvider({ apiKey: { k: 1 } }), 'provider.apiKey'],
    ['an unknown tool mode', withProvider({ toolMode: 'telepathy' }), 'provider.toolMode'],
    ['negative prices', withProvider({ pricing: { input: -1, output: 2 } }), 'provider.pricing.input'],
    ['prices as text', withProvider({ pricing: { input: 1, output: 'cheap' } }), 'provider.pricing.output'],
    ['a provider that is a string', withDefaults({ provider: 'openai' }), 'provider'],
    ['a missing provider model', withDefaults({ provider: { kind: 'openai', baseUrl: '', apiKey: '' } }), 'provider.model'],
    ['an unknown mode', withDefaults({ defaultMode: 'yolo' }), 'defaultMode'],
    ['steps as text', withDefaults({ maxSteps: '100' }), 'maxSteps'],
    ['zero steps', withDefaults({ maxSteps: 0 }), 'maxSteps'],
    ['too many steps', withDefaults({ maxSteps: 5000 }), 'maxSteps'],
    ['providers that are not a list', withDefaults({ providers: { a: 1 } }), 'providers'],
    ['a bad provider in the list', withDefaults({ providers: [DEFAULT_SETTINGS.provider, { ...DEFAULT_SETTINGS.provider, kind: 3 }] }), 'providers[1].kind'],
    ['a role without its provider', withDefaults({ roles: { planner: { model: 'x' } } }), 'roles.planner.providerId'],
    ['an unknown screenshot policy', withDefaults({ screenshotPolicy: 'sometimes' }), 'screenshotPolicy'],
    ['sites as text', withDefaults({ sites: 'example.com' }), 'sites'],
    ['a site that is not a host', withDefaults({ sites: { allow: ['exa mple.com'], confirm: [] } }), 'sites.allow[0]'],
    ['a site that is a number', withDefaults({ sites: { allow: [], confirm: [5] } }), 'sites.confirm[0]'],
    ['strict secrets as "yes"', withDefaults({ strictSecrets: 'yes' }), 'strictSecrets'],
    ['onboarded as 1', withDefaults({ onboarded: 1 }), 'onboarded'],
  ]);
  for (const [what, value, path] of BAD) {
    it(`refuses ${what}, naming ${path}`, () => {
      expect(badFields(value)).to.deep.equal([path]);
    });
  }

  it('reports every bad field at once, in a sentence that names each and says nothing changed', () => {
    const r = validateSettings(withDefaults({ maxSteps: -3, defaultMode: 'yolo', provider: { ...DEFAULT_SETTINGS.provider, timeoutMs: 'soon' } }));
    expect(r.ok).to.equal(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.path)).to.have.members(['provider.timeoutMs', 'defaultMode', 'maxSteps']);
    const message = settingsErrorMessage(r.errors, 'were not saved');
    expect(message).to.match(/^The settings were not saved, and nothing was changed: /);
    expect(message).to.include('provider.timeoutMs must be a whole number from 1000 to 600000 milliseconds, not "soon"');
  });

  it('leaves out fields it does not know, and says which', () => {
    const r = validateSettings({ ...withDefaults({}), theme: 'dark', provider: { ...DEFAULT_SETTINGS.provider, colour: 'red' } });
    expect(r.ok).to.equal(true);
    if (!r.ok) return;
    expect(r.dropped).to.have.members(['theme', 'provider.colour']);
    expect(r.settings).to.not.have.property('theme');
  });

  it('takes a pasted address as its site', () => {
    const r = validateSettings(withDefaults({ sites: { allow: ['https://Shop.Example.com/cart'], confirm: ['*.Bank.example'] } }));
    expect(r.ok && r.settings.sites).to.deep.equal({ allow: ['shop.example.com'], confirm: ['*.bank.example'] });
  });

  it('stores nothing when a save holds a bad field', async () => {
    /** @type {Record<string, any>} */
    const data = {};
    const store = createSettingsStore({ get: async (k) => ({ [k]: data[k] }), set: async (o) => { Object.assign(data, o); } });
    const ok = await store.set({ maxSteps: 50 });
    expect(ok.ok).to.equal(true);
    const bad = await store.set({ maxSteps: /** @type {any} */ ('soon'), provider: /** @type {any} */ ({ kind: 9 }) });
    expect(bad).to.deep.include({ ok: false, code: 'INVALID_SETTINGS' });
    expect((await store.get()).maxSteps).to.equal(50);
    expect((await store.get()).provider.kind).to.equal(DEFAULT_SETTINGS.provider.kind);
  });

  it('judges only what a save changes: a bad value stored earlier does not block the fix; null clears a field', async () => {
    /** @type {Record<string, any>} */
    const data = { settings: { ...withDefaults({}), provider: { ...DEFAULT_SETTINGS.provider, kind: 'no-such-kind', pricing: { input: 1, output: 2 } } } };
    const store = createSettingsStore({ get: async (k) => ({ [k]: data[k] }), set: async (o) => { Object.assign(data, o); } });
    expect((await store.set({ maxSteps: 60 })).ok).to.equal(true);
    expect(data.settings.maxSteps).to.equal(60);
    expect(data.settings.provider.kind).to.equal('no-such-kind');
    const fixed = await store.set({ provider: /** @type {any} */ ({ kind: 'openai', pricing: null }) });
    expect(fixed.ok).to.equal(true);
    expect(data.settings.provider.kind).to.equal('openai');
    expect(data.settings.provider).to.not.have.property('pricing');
    expect(await store.set({ provider: /** @type {any} */ ({ kind: 'still-bad' }) })).to.deep.include({ ok: false, code: 'INVALID_SETTINGS' });
  });

  it('refuses an oversized import before reading it as JSON', () => {
    const huge = JSON.stringify({ format: 'tabwright-settings', version: 1, settings: { junk: 'x'.repeat(MAX_IMPORT_BYTES) } });
    const r = parseImport(huge, withDefaults({}));
    expect(r).to.deep.include({ ok: false, code: 'BAD_IMPORT' });
    if (!r.ok) expect(r.message).to.match(/at most 1 MB/);
  });
});
