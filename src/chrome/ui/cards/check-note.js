// Under a final answer: what the observation after done found on the page.
/** @import { DoneCheck } from '../../types/core' */
/** @import { CardContext } from './card-context.js' */
import { el } from './card-context.js';

/** @param {DoneCheck} check @param {CardContext} ctx */
export function checkNote(check, ctx) {
  if (check.verified === null) return null;
  // Proven by what the server accepted (or a job created), where the page shows nothing quoted.
  if (check.refused?.length) return el('check unverified refused', ctx.t('checkRefused', check.refused.join('; ')));
  if (check.verified && check.evidence?.length) return el('check verified evidence', ctx.t('checkEvidence', check.evidence.join('; ')));
  const note = el(`check ${check.verified ? 'verified' : 'unverified'}`, check.verified ? ctx.t('checkVerified') : ctx.t('checkMissing', check.missing.join('", "')));
  return note;
}
