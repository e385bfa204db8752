// The settings page: provider, model, key, default mode, step cap.
/** @import { Settings } from '../types/messages' */
import { t, localize } from './i18n.js';
import { PROVIDER_KINDS, kindInfo } from '../providers/presets.js';

const form = /** @type {HTMLFormElement} */ (document.getElementById('provider-form'));
const result = /** @type {HTMLElement} */ (document.getElementById('result'));
/** @param {string} id */
const input = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

const kindSelect = /** @type {HTMLSelectElement} */ (document.getElementById('kind'));
kindSelect.append(...Object.entries(PROVIDER_KINDS).map(([id, k]) => Object.assign(document.createElement('option'), { value: id, textContent: k.label })));

/** Show what the chosen kind needs; with fill, put its default base URL and model in the form. @param {boolean} fill */
function applyKind(fill) {
  const info = kindInfo(kindSelect.value) ?? PROVIDER_KINDS.openai;
  if (fill) { input('baseUrl').value = info.baseUrl; input('model').value = info.model; }
  input('baseUrl').required = info.format !== 'builtin';
  input('baseUrl').disabled = info.format === 'builtin';
  input('apiKey').disabled = !info.needsKey && !info.local;
  const note = /** @type {HTMLElement} */ (document.getElementById('kind-note'));
  note.textContent = info.note ?? (info.needsKey ? '' : t('noKeyNeeded'));
}
kindSelect.addEventListener('change', () => applyKind(true));

async function load() {
  localize();
  const reply = await browser.runtime.sendMessage({ type: 'settings.get' });
  if (!reply.ok) { result.textContent = reply.message; return; }
  /** @type {Settings} */
  const s = reply.data;
  kindSelect.value = s.provider.kind;
  applyKind(false);
  input('timeoutSec').value = s.provider.timeoutMs ? String(Math.round(s.provider.timeoutMs / 1000)) : '90';
  input('toolMode').value = s.provider.toolMode ?? 'native';
  input('baseUrl').value = s.provider.baseUrl;
  input('model').value = s.provider.model;
  input('apiKey').value = s.provider.apiKey;
  input('defaultMode').value = s.defaultMode;
  input('maxSteps').value = String(s.maxSteps);
}

function collect() {
  return {
    provider: {
      kind: /** @type {import('../types/messages').ProviderKind} */ (kindInfo(kindSelect.value) ? kindSelect.value : 'openai'),
      baseUrl: input('baseUrl').value.trim(), model: input('model').value.trim(), apiKey: input('apiKey').value,
      timeoutMs: Math.max(5, Number(input('timeoutSec').value) || 90) * 1000,
      toolMode: /** @type {'native' | 'prompt'} */ (input('toolMode').value === 'prompt' ? 'prompt' : 'native'),
    },
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
