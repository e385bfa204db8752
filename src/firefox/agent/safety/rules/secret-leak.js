// A request that would carry a known secret to another origin than the secret's own: asked at high
// severity (refused in strict secret mode), whatever else it is. It comes first.
/** @import { RequestRule } from './rule.js' */
import { originOf, siteLabel } from '../scope.js';
import { judgedUrl } from '../request-facts.js';
import { secretVerdict, writeRequest } from './cards.js';

/** @type {RequestRule} */
export const secretLeak = {
  name: 'secret_leak',
  appliesTo: (_, m) => Boolean(m.opts.secrets),
  decide({ req, ctx }, m) {
    const leaked = m.opts.secrets?.find(`${req.url}\n${req.body ?? ''}`) ?? [];
    const dest = originOf(judgedUrl(req, ctx.pageUrl));
    if (!leaked.some((h) => h.origin !== dest)) return null;
    return secretVerdict(m, { ...writeRequest(m, req, ctx), category: 'secret', rule: 'secret', severity: 'high', scopeKey: undefined, scope: undefined,
      reason: `It would send a secret from ${[...new Set(leaked.map((h) => siteLabel(h.origin)))].join(', ')} to ${siteLabel(req.url)}.` });
  },
};
