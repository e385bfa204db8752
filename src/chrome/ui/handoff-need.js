// What a site needs of the person, said on the "Your turn" card and the jobs page. Literal keys,
// so the locale test sees each one (the background's notification uses agent/handoff/need.js).
/** @import { HandoffMoment } from '../types/handoff' */

/**
 * @param {Pick<HandoffMoment, 'kind' | 'site' | 'factor'>} m
 * @param {(key: string, subs?: string | string[]) => string} t
 */
export function needText(m, t) {
  switch (m.kind) {
    case 'sign_in': return t('handoffNeed_sign_in', [m.site]);
    case 'session_expired': return t('handoffNeed_session_expired', [m.site]);
    case 'second_factor': return m.factor === 'push' ? t('handoffNeed_push', [m.site]) : t('handoffNeed_second_factor', [m.site]);
    case 'captcha': return t('handoffNeed_captcha', [m.site]);
    case 'age_gate': return t('handoffNeed_age_gate', [m.site]);
    case 'consent': return t('handoffNeed_consent', [m.site]);
  }
  return t('handoffNeed_sign_in', [m.site]);
}
