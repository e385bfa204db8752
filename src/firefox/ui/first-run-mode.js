// The first run's choice of the mode new conversations start in: Ask (reads and answers, changes
// nothing) is suggested and chosen; Act is one click away. Saved as Settings → Default mode with the
// provider the person picks. Not shown when an organization set the mode.
/** @import { RouterReply } from '../types/messages' */
import { t } from './i18n.js';

/** @param {HTMLElement} card the first-run card */
export async function addModeChoice(card) {
  if (card.querySelector('.fr-mode')) return;
  const reply = /** @type {RouterReply<any>} */ (await browser.runtime.sendMessage({ type: 'settings.get' }).catch(() => ({ ok: false })));
  if (reply.ok && reply.data.managed?.locked.includes('defaultMode')) return;
  const box = document.createElement('fieldset');
  box.className = 'fr-mode';
  const legend = Object.assign(document.createElement('legend'), { textContent: t('firstRunModeLegend') });
  box.append(legend, option('ask', t('firstRunModeAsk'), true), option('act', t('firstRunModeAct'), false));
  // Last in the card: the provider choices keep their place.
  card.append(box);
}

/** @param {'ask' | 'act'} value @param {string} text @param {boolean} checked */
function option(value, text, checked) {
  const label = document.createElement('label');
  label.className = 'check';
  const input = Object.assign(document.createElement('input'), { type: 'radio', name: 'fr-mode', value, checked });
  label.append(input, ' ', text);
  return label;
}

/**
 * Saves the chosen mode (before the provider, whose save ends the first run) and puts the panel's
 * mode switch on it.
 * @param {HTMLElement} card
 */
export async function saveModeChoice(card) {
  const chosen = /** @type {HTMLInputElement | null} */ (card.querySelector('input[name=fr-mode]:checked'));
  if (!chosen) return;
  const mode = chosen.value === 'act' ? 'act' : 'ask';
  await browser.runtime.sendMessage({ type: 'settings.set', settings: { defaultMode: mode } }).catch(() => {});
  await browser.storage.local.set({ panelMode: mode });
  const radio = /** @type {HTMLInputElement | null} */ (document.querySelector(`input[name=mode][value=${mode}]`));
  if (radio) radio.checked = true;
}
