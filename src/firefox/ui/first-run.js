// The first-run card: offers a local model found on this machine, or guides to an API key.
// Nothing is sent anywhere until the user picks: detection only probes localhost.
/** @import { Candidate, LocalServer } from './detect-local.js' */
import { t } from './i18n.js';
import { detectLocalModels } from './detect-local.js';
import { PROVIDER_KINDS } from '../providers/presets.js';
import { addModeChoice, saveModeChoice } from './first-run-mode.js';

/** The hosted providers the card offers a key field for; the rest are in Settings. */
const KEY_KINDS = /** @type {const} */ (['openai', 'anthropic', 'gemini', 'openrouter', 'groq', 'mistral', 'deepseek', 'xai']);

const NAMES = { ollama: 'Ollama', lmstudio: 'LM Studio', builtin: 'builtin' };

/**
 * @param {HTMLElement} card the #welcome section
 * @param {{ choose: (provider: { baseUrl: string, model: string, kind?: string, apiKey?: string }) => Promise<void>, openOptions: () => void,
 *   tryKey: (provider: { kind: string, baseUrl: string, model: string, apiKey: string }) => Promise<{ ok: true, models: string[] } | { ok: false, message: string }> }} actions
 */
export async function showFirstRun(card, actions) {
  card.hidden = false;
  // The mode new conversations start in is chosen here too (Ask suggested), saved with the provider.
  const pick = actions.choose;
  actions = { ...actions, choose: async (p) => { await saveModeChoice(card); await pick(p); } };
  await addModeChoice(card);
  const list = /** @type {HTMLElement} */ (card.querySelector('.candidates'));
  const status = /** @type {HTMLElement} */ (card.querySelector('.detect-status'));
  status.textContent = t('welcomeDetecting');
  const found = await detectLocalModels({ fetch: globalThis.fetch.bind(globalThis), builtin: /** @type {any} */ (globalThis).LanguageModel });
  list.replaceChildren(...found.map((c) => candidateRow(c, actions)));
  card.dataset.detected = found.filter((c) => c.found).map((c) => c.id).join(' ') || 'none';
  status.textContent = found.some((c) => c.found && c.id !== 'builtin') ? t('welcomeFound') : t('welcomeNothingFound');
  /** @type {HTMLButtonElement} */ (card.querySelector('.use-key')).onclick = actions.openOptions;
  keyForm(card, actions);
}

/**
 * A hosted model in three actions: pick the provider (OpenAI is chosen), paste the key, press Use this
 * key. The key is tried first (the provider's model list); only a key that works is saved.
 * @param {HTMLElement} card @param {Parameters<typeof showFirstRun>[1]} actions
 */
function keyForm(card, actions) {
  const form = /** @type {HTMLFormElement} */ (card.querySelector('.key-form'));
  const kind = /** @type {HTMLSelectElement} */ (form.querySelector('#fr-kind'));
  const key = /** @type {HTMLInputElement} */ (form.querySelector('#fr-key'));
  const status = /** @type {HTMLElement} */ (card.querySelector('.key-status'));
  const button = /** @type {HTMLButtonElement} */ (form.querySelector('button[type=submit]'));
  kind.replaceChildren(...KEY_KINDS.map((k) => new Option(PROVIDER_KINDS[k].label, k)));
  form.onsubmit = async (e) => {
    e.preventDefault();
    const apiKey = key.value.trim();
    if (!apiKey) { status.textContent = t('firstRunNoKey'); key.focus(); return; }
    const preset = PROVIDER_KINDS[/** @type {typeof KEY_KINDS[number]} */ (kind.value)];
    const provider = { kind: kind.value, baseUrl: preset.baseUrl, model: preset.model, apiKey };
    button.disabled = true;
    status.textContent = t('firstRunTrying');
    try {
      const tried = await actions.tryKey(provider);
      if (!tried.ok) { status.textContent = t('firstRunKeyFailed', [tried.message]); return; }
      // The preset's model when the key can use it, else the first the provider lists.
      const model = tried.models.includes(preset.model) || !tried.models.length ? preset.model : tried.models[0];
      status.textContent = '';
      await actions.choose({ ...provider, model });
    } finally {
      button.disabled = false;
    }
  };
}

/**
 * The provider saved when the person picks a local server's model: its own kind (so Settings and the
 * footer name it), at the address the kind speaks (Ollama's native API, LM Studio's /v1), with the
 * model that was found on it.
 * @param {LocalServer} server @param {string} model
 */
export function localChoice(server, model) {
  const baseUrl = server.id === 'ollama' ? server.baseUrl.replace(/\/v1\/?$/, '') : server.baseUrl;
  return { kind: server.id, baseUrl, model, apiKey: '' };
}

/** @param {Candidate} c @param {Parameters<typeof showFirstRun>[1]} actions */
function candidateRow(c, actions) {
  const li = document.createElement('li');
  li.dataset.candidate = c.id;
  li.dataset.found = String(c.found);
  const name = c.id === 'builtin' ? t('builtinModel') : NAMES[c.id];
  if (!c.found) { li.textContent = t('candidateMissing', [name]); return li; }
  if (c.id === 'builtin') {
    // Tabwright has no provider for the Prompt API yet, so it is reported, not offered.
    li.textContent = t('builtinFound');
    return li;
  }
  const server = /** @type {LocalServer} */ (c);
  if (!server.models.length) {
    li.textContent = server.note === 'origin' ? t('candidateOrigin', [name]) : t('candidateNoModels', [name]);
    return li;
  }
  const label = document.createElement('label');
  label.textContent = t('candidateFound', [name]);
  const select = document.createElement('select');
  select.append(...server.models.map((m) => Object.assign(document.createElement('option'), { value: m, textContent: m })));
  label.append(' ', select);
  const use = document.createElement('button');
  use.type = 'button';
  use.className = 'use';
  use.textContent = t('useThis');
  use.onclick = () => actions.choose(localChoice(server, select.value));
  li.append(label, ' ', use);
  return li;
}
