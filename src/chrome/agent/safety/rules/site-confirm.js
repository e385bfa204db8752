// A site the person asked to confirm every step on (Settings → Site permissions): every step that
// acts there asks.
/** @import { CallRule } from './rule.js' */
import { siteLabel } from '../scope.js';
import { matchesAny } from '../site-patterns.js';
import { siteStepRequest } from './cards.js';
import { ask, has } from './rule.js';

/** @type {CallRule} */
export const siteConfirm = {
  name: 'site_confirm',
  appliesTo: (f) => has(f, 'acts_on_page'),
  decide(f, m) {
    if (!matchesAny(m.confirmSites, siteLabel(f.url))) return null;
    return ask(siteStepRequest(m, f, { fallback: 'site', rule: 'site_confirm', severity: 'normal',
      reason: `You asked to confirm every step on ${siteLabel(f.url)} (Settings → Site permissions).` }));
  },
};
