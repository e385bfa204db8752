// One provider on the settings page: its fields, the connection test and the model picker.
/** @import { ProviderSettings, RouterRequest } from '../types/messages' */
import { t, localize } from './i18n.js';
import { PROVIDER_KINDS, kindInfo } from '../providers/presets.js';

/** @param {HTMLElement} card @param {string} cls */
const input = (card, cls) => /** @type {HTMLInputElement} */ (card.querySelector(`.${cls}`));

/** What the settings page says about a provider kind (UI strings live in _locales). @param {string} kind */
function kindNote(kind) {
  switch (kind) {
    case 'openai': return t('kindNoteOpenai');
    case 'ollama': return t('kindNoteOllama');
    case 'builtin': return t('kindNoteBuiltin');
    case 'azure': return t('kindNoteAzure');
    default: return kindInfo(kind)?.needsKey === false ? t('noKeyNeeded') : '';
  }
}

/**
 * Show what the card's kind needs; with fill, put the kind's default base URL and model in the card.
 * @param {HTMLElement} card @param {boolean} fill
 */
function applyKind(card, fill) {
  const kind = /** @type {HTMLSelectElement} */ (card.querySelector('.kind')).value;
  const info = kindInfo(kind) ?? PROVIDER_KINDS.openai;
  card.dataset.kind = kind;
  if (fill) {
    input(card, 'baseUrl').value = info.baseUrl;
    input(card, 'model').value = info.model;
    // A service whose models take no native tools gets them in the prompt (Perplexity's Sonar).
    /** @type {HTMLSelectElement} */ (card.querySelector('.toolMode')).value = info.noTools ? 'prompt' : 'native';
  }
  input(card, 'baseUrl').disabled = info.format === 'builtin';
  input(card, 'apiKey').disabled = !info.needsKey && !info.local;
  // Chat Completions or Responses: a choice of OpenAI's own API only.
  /** @type {HTMLElement} */ (card.querySelector('.api-choice')).hidden = kind !== 'openai';
  /** @type {HTMLElement} */ (card.querySelector('.kind-note')).textContent = kindNote(kind);
}

/**
 * @param {ProviderSettings} p
 * @param {boolean} active
 * @param {(r: RouterRequest) => Promise<any>} request
 * @param {(card: HTMLElement) => void} [onWorking] called when the card's provider answered a test
 * @returns {HTMLElement}
 */
export function createProviderCard(p, active, request, onWorking) {
  const tpl = /** @type {HTMLTemplateElement} */ (document.getElementById('provider-template'));
  const card = /** @type {HTMLElement} */ (/** @type {Element} */ (tpl.content.firstElementChild).cloneNode(true));
  localize(card);
  card.dataset.id = p.id ?? 'default';
  card.dataset.kind = p.kind;
  // Give every label its field, so each input has an accessible name.
  for (const label of card.querySelectorAll('label:not(.active-choice)')) {
    const next = label.nextElementSibling?.matches('input, select') ? label.nextElementSibling : label.nextElementSibling?.querySelector('input');
    if (next) { next.id = `${card.dataset.id}-${[...next.classList][0]}`; /** @type {HTMLLabelElement} */ (label).htmlFor = next.id; }
  }
  const kindSelect = /** @type {HTMLSelectElement} */ (card.querySelector('.kind'));
  kindSelect.append(...Object.entries(PROVIDER_KINDS).map(([id, k]) => Object.assign(document.createElement('option'), { value: id, textContent: k.label })));
  kindSelect.value = kindInfo(p.kind) ? p.kind : 'openai';
  kindSelect.addEventListener('change', () => applyKind(card, true));
  input(card, 'timeoutSec').value = String(Math.round((p.timeoutMs ?? 90_000) / 1000));
  /** @type {HTMLSelectElement} */ (card.querySelector('.toolMode')).value = p.toolMode === 'prompt' ? 'prompt' : 'native';
  /** @type {HTMLSelectElement} */ (card.querySelector('.toolTier')).value = p.toolTier ?? 'auto';
  /** @type {HTMLSelectElement} */ (card.querySelector('.api')).value = p.api === 'responses' ? 'responses' : 'chat';
  input(card, 'contextWindow').value = p.contextWindow ? String(p.contextWindow) : '';
  input(card, 'maxOutput').value = p.maxOutput ? String(p.maxOutput) : '';
  input(card, 'name').value = p.name ?? '';
  input(card, 'baseUrl').value = p.baseUrl;
  input(card, 'apiKey').value = p.apiKey;
  input(card, 'model').value = p.model;
  input(card, 'priceInput').value = p.pricing ? String(p.pricing.input) : '';
  input(card, 'priceOutput').value = p.pricing ? String(p.pricing.output) : '';
  // A new provider starts from its kind's preset: URL and model agree with the kind.
  applyKind(card, !p.baseUrl && !p.model);
  const radio = /** @type {HTMLInputElement} */ (card.querySelector('input[name=active]'));
  radio.checked = active;
  radio.setAttribute('aria-label', t('providerActive'));
  card.classList.toggle('active', active);
  radio.addEventListener('change', () => {
    for (const c of card.parentElement?.children ?? []) c.classList.toggle('active', c === card);
  });

  const list = /** @type {HTMLSelectElement} */ (card.querySelector('.model-list'));
  list.addEventListener('change', () => { if (list.value) input(card, 'model').value = list.value; });
  const out = /** @type {HTMLElement} */ (card.querySelector('.test-result'));
  /** Tests the card's provider: lists its models; the card remembers whether it works. */
  const test = async () => {
    out.classList.remove('failed');
    out.textContent = t('testing');
    const reply = await request({ type: 'provider.models', provider: readProviderCard(card) });
    card.dataset.working = reply.ok ? 'yes' : 'no';
    if (!reply.ok) { out.classList.add('failed'); out.textContent = reply.message; return false; }
    /** @type {string[]} */
    const models = reply.data;
    list.replaceChildren(
      Object.assign(document.createElement('option'), { value: '', textContent: t('pickModel') }),
      ...models.map((m) => Object.assign(document.createElement('option'), { value: m, textContent: m })),
    );
    list.value = models.includes(input(card, 'model').value) ? input(card, 'model').value : '';
    list.hidden = models.length === 0;
    out.textContent = t('connectionOk', [String(models.length)]);
    return true;
  };
  /** @type {HTMLButtonElement} */ (card.querySelector('.test')).addEventListener('click', () => { test().then((ok) => ok && onWorking?.(card)); });
  // A key pasted for a cloud provider is tried at once: the user learns now, not at the first message.
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let keyTimer;
  input(card, 'apiKey').addEventListener('input', () => {
    clearTimeout(keyTimer);
    const info = kindInfo(card.dataset.kind ?? '');
    if (!info?.needsKey || input(card, 'apiKey').value.trim().length < 8) return;
    keyTimer = setTimeout(() => { test().then((ok) => ok && onWorking?.(card)); }, 500);
  });
  return card;
}

/** @param {HTMLElement} card @returns {ProviderSettings} */
export function readProviderCard(card) {
  const price = (/** @type {string} */ cls) => input(card, cls).value.trim();
  /** @type {ProviderSettings} */
  const p = {
    kind: /** @type {import('../types/messages').ProviderKind} */ (kindInfo(card.dataset.kind ?? '') ? card.dataset.kind : 'openai'),
    id: card.dataset.id,
    name: input(card, 'name').value.trim(),
    baseUrl: input(card, 'baseUrl').value.trim(),
    model: input(card, 'model').value.trim(),
    apiKey: input(card, 'apiKey').value,
    timeoutMs: Math.min(600, Math.max(5, Number(input(card, 'timeoutSec').value) || 90)) * 1000,
    toolMode: /** @type {HTMLSelectElement} */ (card.querySelector('.toolMode')).value === 'prompt' ? 'prompt' : 'native',
  };
  if (p.kind === 'openai' && /** @type {HTMLSelectElement} */ (card.querySelector('.api')).value === 'responses') p.api = 'responses';
  const tier = /** @type {HTMLSelectElement} */ (card.querySelector('.toolTier')).value;
  if (tier === 'full' || tier === 'compact') p.toolTier = tier;
  // Empty: the provider's word, the table or a default decide (providers/limits.js). A wrong number is the schema's to name.
  const limit = (/** @type {string} */ cls) => { const v = input(card, cls).value.trim(); return v === '' ? undefined : Number(v); };
  const window = limit('contextWindow');
  const maxOutput = limit('maxOutput');
  if (window !== undefined) p.contextWindow = window;
  if (maxOutput !== undefined) p.maxOutput = maxOutput;
  if (price('priceInput') !== '' || price('priceOutput') !== '') {
    p.pricing = { input: Number(price('priceInput')) || 0, output: Number(price('priceOutput')) || 0 };
  }
  return p;
}
