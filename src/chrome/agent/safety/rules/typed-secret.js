// Text the agent types that holds a known secret: asked (refused in strict secret mode), unless it
// goes into a secret field of the site the secret belongs to, which is how signing in works.
/** @import { CallRule } from './rule.js' */
import { originOf, siteLabel } from '../scope.js';
import { secretVerdict } from './cards.js';
import { has } from './rule.js';

/** @type {CallRule} */
export const typedSecret = {
  name: 'typed_secret',
  appliesTo: (f, m) => has(f, 'touches_secrets') && Boolean(m.opts.secrets),
  decide(f, m) {
    const text = typeof f.args.text === 'string' ? f.args.text : typeof f.args.value === 'string' ? f.args.value : '';
    const hits = text ? m.opts.secrets?.find(text) ?? [] : [];
    if (!hits.length) return null;
    const here = originOf(f.url);
    if (f.target?.secretField && hits.every((h) => h.origin === here)) return null;
    const field = f.target ? `${f.target.role} "${f.target.name}"` : 'a field';
    return secretVerdict(m, {
      category: 'secret', rule: 'secret', severity: 'high', action: `Type a secret into ${field}`, site: siteLabel(f.url),
      details: [{ label: 'text', value: m.mask(text) }],
      reason: `The text contains a secret from ${[...new Set(hits.map((h) => siteLabel(h.origin)))].join(', ')}, and this is not its own field.`,
    });
  },
};
