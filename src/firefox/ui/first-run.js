// The first-run card: offers a local model found on this machine, or guides to an API key.
// Nothing is sent anywhere until the user picks: detection only probes localhost.
/** @import { Candidate, LocalServer } from './detect-local.js' */
import { t } from './i18n.js';
import { detectLocalModels } from './detect-local.js';

const NAMES = { ollama: 'Ollama', lmstudio: 'LM Studio', builtin: 'builtin' };

/**
 * @param {HTMLElement} card the #welcome section
 * @param {{ choose: (provider: { baseUrl: string, model: string }) => Promise<void>, openOptions: () => void }} actions
 */
export async function showFirstRun(card, actions) {
  card.hidden = false;
  const list = /** @type {HTMLElement} */ (card.querySelector('.candidates'));
  const status = /** @type {HTMLElement} */ (card.querySelector('.detect-status'));
  status.textContent = t('welcomeDetecting');
  const found = await detectLocalModels({ fetch: globalThis.fetch.bind(globalThis), builtin: /** @type {any} */ (globalThis).LanguageModel });
  list.replaceChildren(...found.map((c) => candidateRow(c, actions)));
  card.dataset.detected = found.filter((c) => c.found).map((c) => c.id).join(' ') || 'none';
  status.textContent = found.some((c) => c.found && c.id !== 'builtin') ? t('welcomeFound') : t('welcomeNothingFound');
  /** @type {HTMLButtonElement} */ (card.querySelector('.use-key')).onclick = actions.openOptions;
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
  use.onclick = () => actions.choose({ baseUrl: server.baseUrl, model: select.value });
  li.append(label, ' ', use);
  return li;
}
