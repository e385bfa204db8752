import { expect } from 'chai';
import { createSettingsStore, DEFAULT_SETTINGS, redactSettings } from '../../src/chrome/service/settings.js';

function memoryArea() {
  /** @type {Record<string, any>} */
  const data = {};
  return {
    data,
    async get(/** @type {string} */ key) { return key in data ? { [key]: structuredClone(data[key]) } : {}; },
    async set(/** @type {Record<string, any>} */ items) { Object.assign(data, structuredClone(items)); },
  };
}

describe('settings', () => {
  it('defaults to a local Ollama, its kind, URL and model agreeing', async () => {
    const s = await createSettingsStore(memoryArea()).get();
    expect(s.provider).to.deep.include({ kind: 'ollama', baseUrl: 'http://localhost:11434', model: 'llama3.1' });
    expect(s).to.deep.equal(DEFAULT_SETTINGS);
  });
  it('merges a provider patch without losing the other fields', async () => {
    const store = createSettingsStore(memoryArea());
    await store.set({ provider: { kind: 'openai', baseUrl: 'http://x/v1', model: 'm', apiKey: 'k' } });
    const r = await store.set({ maxSteps: 7 });
    if (!r.ok) throw new Error(r.message);
    const s = r.settings;
    expect(s.provider).to.deep.equal({ kind: 'openai', baseUrl: 'http://x/v1', model: 'm', apiKey: 'k' });
    expect(s.maxSteps).to.equal(7);
  });
  it('redacts the key for display', () => {
    const r = redactSettings({ ...DEFAULT_SETTINGS, provider: { ...DEFAULT_SETTINGS.provider, apiKey: 'sk-secret' } });
    expect(JSON.stringify(r)).to.not.contain('sk-secret');
  });
});
