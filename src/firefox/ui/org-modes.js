// The panel's mode switch under an organization's policy: with Ask only, Act and Plan are not
// offered (disabled, marked "Set by your organization") and Ask is chosen, so the person never
// starts a run the background would refuse. Without the policy every mode is offered again.
/** @import { Settings } from '../types/messages' */

/**
 * @param {Settings | null} settings @param {(key: string) => string} t
 * @returns {boolean} whether the chosen mode changed to Ask
 */
export function applyOrgModes(settings, t) {
  const askOnly = settings?.managed?.askOnly === true;
  let changed = false;
  for (const radio of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name=mode]'))) {
    const label = /** @type {HTMLElement | null} */ (radio.closest('label'));
    const off = askOnly && radio.value !== 'ask';
    radio.disabled = off;
    if (label) {
      label.hidden = off;
      if (off) label.dataset.org = 'locked'; else delete label.dataset.org;
    }
    if (askOnly && radio.value === 'ask' && !radio.checked) { radio.checked = true; changed = true; }
  }
  const modes = document.getElementById('modes');
  if (modes) modes.title = askOnly ? `${t('orgLocked')}: ${t('orgAskOnly')}` : '';
  return changed;
}
