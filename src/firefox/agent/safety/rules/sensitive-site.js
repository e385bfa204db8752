// A sensitive site (money, administration, account security: a high-risk site adapter,
// docs/ADAPTERS.md): every step that acts there asks, at high severity.
/** @import { CallRule } from './rule.js' */
import { siteStepRequest } from './cards.js';
import { ask, has } from './rule.js';

/** @type {CallRule} */
export const sensitiveSite = {
  name: 'sensitive_site',
  appliesTo: (f) => has(f, 'acts_on_page'),
  decide(f, m) {
    const sensitive = m.opts.sensitiveSite?.(f.url);
    if (!sensitive) return null;
    return ask(siteStepRequest(m, f, { fallback: 'sensitive', rule: 'sensitive_site', severity: 'high',
      reason: `${sensitive.name} is a sensitive site (money, administration or account security): Tabwright asks before every step there.` }));
  },
};
