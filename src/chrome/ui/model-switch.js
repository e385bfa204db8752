// Which model answers, in the composer, and a quick switch between the configured providers
// (the choice is saved as the active provider, as Settings would).
/** @import { RouterReply, RouterRequest, Settings } from '../types/messages' */
import { kindInfo } from '../providers/presets.js';

/**
 * @param {object} deps
 * @param {HTMLSelectElement} deps.select
 * @param {(req: RouterRequest) => Promise<RouterReply>} deps.request
 * @param {(message: string) => void} deps.showStatus
 * @param {(s: Settings) => void} deps.onSaved
 * @param {(key: string) => string} deps.t
 */
export function createModelSwitch({ select, request, showStatus, onSaved, t }) {
  /** @type {Settings | null} */
  let current = null;

  /** @param {Settings} s */
  function show(s) {
    current = s;
    // Before the first run's choice the stored provider is only a default: naming it would name a
    // model that may not be installed.
    if (!s.onboarded) {
      select.replaceChildren(new Option(t('modelNotChosen'), ''));
      select.title = t('modelNotChosen');
      select.disabled = true;
      return;
    }
    const activeId = s.provider.id ?? 'default';
    // The provider in use is always named, also when it is not one of the saved ones (chosen at first
    // run, or saved alone, both without an id): otherwise the footer would name a saved one instead.
    const saved = s.providers ?? [];
    const same = (/** @type {typeof s.provider} */ p) => (p.id ?? 'default') === activeId && p.kind === s.provider.kind && p.model === s.provider.model && (p.baseUrl ?? '') === (s.provider.baseUrl ?? '');
    const list = saved.some(same) ? saved : [s.provider, ...saved.filter((p) => (p.id ?? 'default') !== activeId)];
    select.replaceChildren(...list.map((p) => {
      const o = document.createElement('option');
      o.value = p.id ?? 'default';
      o.textContent = `${p.name || kindInfo(p.kind)?.label || p.kind} · ${p.model}`;
      return o;
    }));
    select.value = list.some((p) => (p.id ?? 'default') === activeId) ? activeId : select.options[0]?.value ?? '';
    select.title = select.selectedOptions[0]?.textContent ?? '';
    select.disabled = list.length < 2;
  }

  select.addEventListener('change', async () => {
    if (!current?.providers?.length) return;
    const chosen = current.providers.find((p) => p.id === select.value);
    if (!chosen) return;
    // The stored keys come back through the provider list (settings.set restores redacted ones).
    const r = await request({ type: 'settings.set', settings: { provider: chosen, providers: current.providers } });
    if (r.ok) onSaved(/** @type {Settings} */ (r.data)); else { showStatus(r.message); show(current); }
  });

  return { show };
}
