// Under a final answer: what the observation after done found on the page.
/** @import { DoneCheck } from '../../types/core' */
/** @import { CardContext } from './card-context.js' */
import { el } from './card-context.js';

/** @param {DoneCheck} check @param {CardContext} ctx */
export function checkNote(check, ctx) {
  if (check.verified === null) return null;
  const note = el(`check ${check.verified ? 'verified' : 'unverified'}`, check.verified ? ctx.t('checkVerified') : ctx.t('checkMissing', check.missing.join('", "')));
  return note;
}
