// The done card as the verdict sees it: the model's done is a claim, so "Finished the task" with a
// green tick stays only for a verified run (or a read-only answer with nothing to check); otherwise
// the card says the agent only said so, or that a change failed.
/** @import { Outcome } from '../../types/core' */
import { shownVerdict } from './receipt.js';

/**
 * @param {HTMLDetailsElement} card the done tool card
 * @param {Outcome | undefined} outcome the run's verdict
 * @param {(key: string, subs?: string | string[]) => string} t
 */
export function markDoneCard(card, outcome, t) {
  // Answers from before verdicts carry none: their card says only that the done call was taken.
  if (!outcome || !card.classList.contains('ok')) return;
  const verdict = shownVerdict(outcome);
  card.dataset.verdict = verdict;
  if (verdict === 'verified' || verdict === 'nothing') return;
  card.classList.remove('ok');
  card.classList.add(verdict === 'failed' ? 'failed' : 'unverified');
  const says = card.querySelector(':scope > summary .says');
  if (says) says.textContent = verdict === 'failed' ? t('toolSays_doneFailed') : t('toolSays_doneUnverified');
}
