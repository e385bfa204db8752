// The settings page: provider, model, key, default mode, step cap.
/** @import { Settings } from '../types/messages' */
import { t, localize } from './i18n.js';

const form = /** @type {HTMLFormElement} */ (document.getElementById('provider-form'));
const result = /** @type {HTMLElement} */ (document.getElementById('result'));
/** @param {string} id */
const input = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

async function load() {
  localize();
  const reply = await browser.runtime.sendMessage({ type: 'settings.get' });
  if (!reply.ok) { result.textContent = reply.message; return; }
  /** @type {Settings} */
  const s = reply.data;
  input('baseUrl').value = s.provider.baseUrl;
  input('model').value = s.provider.model;
  input('apiKey').value = s.provider.apiKey;
  input('defaultMode').value = s.defaultMode;
  input('maxSteps').value = String(s.maxSteps);
}

function collect() {
  return {
    provider: { kind: /** @type {'openai'} */ ('openai'), baseUrl: input('baseUrl').value.trim(), model: input('model').value.trim(), apiKey: input('apiKey').value },
    defaultMode: /** @type {'ask'|'act'} */ (input('defaultMode').value === 'ask' ? 'ask' : 'act'),
    maxSteps: Math.max(1, Number(input('maxSteps').value) || 100),
  };
}

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const reply = await browser.runtime.sendMessage({ type: 'settings.set', settings: collect() });
  result.textContent = reply.ok ? t('saved') : reply.message;
});

document.getElementById('test')?.addEventListener('click', async () => {
  result.textContent = t('testing');
  await browser.runtime.sendMessage({ type: 'settings.set', settings: collect() });
  const reply = await browser.runtime.sendMessage({ type: 'provider.models' });
  if (!reply.ok) { result.textContent = reply.message; return; }
  const list = /** @type {HTMLDataListElement} */ (document.getElementById('models'));
  list.replaceChildren(...reply.data.map((/** @type {string} */ m) => Object.assign(document.createElement('option'), { value: m })));
  result.textContent = t('connectionOk', [String(reply.data.length)]);
});

load();
