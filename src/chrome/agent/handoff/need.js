// The message key that says what the site needs of the person (the panel's card, the jobs page, the
// notification), written literally so the locale test sees each one. Pure.
/** @import { HandoffMoment } from '../../types/handoff' */

/** @param {Pick<HandoffMoment, 'kind' | 'factor'>} m @returns {string} a _locales key taking the site as $1 */
export function needKey(m) {
  switch (m.kind) {
    case 'sign_in': return 'handoffNeed_sign_in';
    case 'session_expired': return 'handoffNeed_session_expired';
    case 'second_factor': return m.factor === 'push' ? 'handoffNeed_push' : 'handoffNeed_second_factor';
    case 'captcha': return 'handoffNeed_captcha';
    case 'age_gate': return 'handoffNeed_age_gate';
    case 'consent': return 'handoffNeed_consent';
  }
  return 'handoffNeed_sign_in';
}
