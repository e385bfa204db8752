import { expect } from 'chai';
import { exportSettings, parseImport, mergeProviderKeys, redactAll, REDACTED } from '../../src/chrome/service/settings-io.js';
import { DEFAULT_SETTINGS } from '../../src/chrome/service/settings.js';

/** @type {import('../../src/chrome/types/messages').Settings} */
const settings = {
  ...DEFAULT_SETTINGS,
  provider: { kind: 'openai', id: 'a', name: 'Cloud', baseUrl: 'https://api.example.com/v1', model: 'm1', apiKey: 'sk-live-aaa', pricing: { input: 3, output: 15 } },
  providers: [
    { kind: 'openai', id: 'a', name: 'Cloud', baseUrl: 'https://api.example.com/v1', model: 'm1', apiKey: 'sk-live-aaa' },
    { kind: 'openai', id: 'b', name: 'Local', baseUrl: 'http://localhost:11434/v1', model: 'llama', apiKey: '' },
  ],
  sites: { allow: ['example.com'], confirm: ['bank.example'] },
  screenshotPolicy: 'never',
  onboarded: true,
};

describe('settings export and import', () => {
  it('exports everything but the keys', () => {
    const text = exportSettings(settings);
    expect(text).to.not.contain('sk-live');
    const doc = JSON.parse(text);
    expect(doc.format).to.equal('tabwright-settings');
    expect(doc.settings.providers.map((/** @type {any} */ p) => p.apiKey)).to.deep.equal(['', '']);
    expect(doc.settings.sites).to.deep.equal(settings.sites);
    expect(doc.settings).to.not.have.property('onboarded');
  });

  it('imports an export, keeping the keys already stored for the same providers', () => {
    const doc = JSON.parse(exportSettings(settings));
    doc.settings.maxSteps = 12;
    const r = parseImport(JSON.stringify(doc), settings);
    if (!r.ok) throw new Error(r.message);
    expect(r.settings.maxSteps).to.equal(12);
    expect(r.settings.provider?.apiKey).to.equal('sk-live-aaa');
    expect(r.settings.providers?.map((p) => p.apiKey)).to.deep.equal(['sk-live-aaa', '']);
    expect(r.settings.screenshotPolicy).to.equal('never');
  });

  it('never imports a key from the file', () => {
    const doc = { format: 'tabwright-settings', version: 1, settings: { provider: { id: 'x', baseUrl: 'https://evil.example/v1', model: 'm', apiKey: 'sk-planted' }, maxSteps: 12 } };
    const r = parseImport(JSON.stringify(doc), settings);
    if (!r.ok) throw new Error(r.message);
    expect(r.settings.provider?.apiKey).to.equal('');
    expect(r.settings.maxSteps).to.equal(12);
  });

  it('refuses a file with invalid values, naming each field, instead of saying "Imported"', () => {
    const doc = { format: 'tabwright-settings', version: 1, settings: { provider: { id: 'x', baseUrl: 'https://evil.example/v1', model: 'm', apiKey: '' }, maxSteps: -3, defaultMode: 'yolo', screenshotPolicy: 'sometimes' } };
    const r = parseImport(JSON.stringify(doc), settings);
    expect(r.ok).to.equal(false);
    if (r.ok) return;
    expect(r.code).to.equal('INVALID_SETTINGS');
    for (const field of ['maxSteps', 'defaultMode', 'screenshotPolicy']) expect(r.message).to.include(field);
    expect(r.message).to.match(/nothing was changed/);
  });

  it('refuses a file that is not an export, with a sentence saying what to do', () => {
    for (const text of ['not json', '{"a":1}', 'null']) {
      const r = parseImport(text, settings);
      expect(r.ok).to.equal(false);
      if (!r.ok) { expect(r.code).to.equal('BAD_IMPORT'); expect(r.message).to.match(/Choose a file exported from Tabwright/); }
    }
  });

  it('redacts every key for pages and restores redacted keys on save', () => {
    const shown = redactAll(settings);
    expect(JSON.stringify(shown)).to.not.contain('sk-live');
    expect(shown.providers?.[0].apiKey).to.equal(REDACTED);
    expect(shown.providers?.[1].apiKey).to.equal('');
    const back = mergeProviderKeys(/** @type {any} */ (shown.providers), /** @type {any} */ (settings.providers));
    expect(back.map((p) => p.apiKey)).to.deep.equal(['sk-live-aaa', '']);
    // A key typed anew replaces the stored one; an unknown provider gets none.
    expect(mergeProviderKeys([{ ...settings.provider, apiKey: 'sk-new' }], /** @type {any} */ (settings.providers))[0].apiKey).to.equal('sk-new');
    expect(mergeProviderKeys([{ kind: 'openai', id: 'zz', baseUrl: 'x', model: 'm', apiKey: REDACTED }], /** @type {any} */ (settings.providers))[0].apiKey).to.equal('');
  });
});
