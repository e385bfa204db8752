// A write the agent sends itself (fetch_url with a method that changes data): always asked, at high
// severity outside the task's sites, with every field of its body.
/** @import { CallRule } from './rule.js' */
import { siteLabel } from '../scope.js';
import { formFields } from '../request-facts.js';
import { bodyDetails, shorten } from './cards.js';
import { ask, destOf, has } from './rule.js';

/** @type {CallRule} */
export const fetchWrite = {
  name: 'fetch_write',
  appliesTo: (f) => has(f, 'writes_server'),
  decide(f, m) {
    const url = destOf(f);
    const method = String(f.args.method ?? 'GET').toUpperCase();
    const body = typeof f.args.body === 'string' ? f.args.body : '';
    return ask({
      category: 'write', rule: 'fetch_write', severity: m.scope.has(url) ? 'normal' : 'high', action: `${method} to ${m.mask(shorten(url))}`, site: siteLabel(url),
      details: bodyDetails(m, { kind: 'request', method, url, type: 'fetch', topLevel: false, body, fields: formFields(body) }),
      reason: `The agent itself would send a ${method} request, which changes data on ${siteLabel(url)}.`,
    });
  },
};
