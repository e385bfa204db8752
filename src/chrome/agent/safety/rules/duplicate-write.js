// The same write (method, URL and data) as one already sent during the task: asked at high
// severity, since sending it again may order, post or pay twice. A write the server refused is
// forgotten (policy.noteFailed): trying it again is a retry.
/** @import { RequestRule } from './rule.js' */
import { siteLabel } from '../scope.js';
import { judgedAsWrite, writeSignature } from '../request-facts.js';
import { writeRequest } from './cards.js';
import { ask } from './rule.js';

/** @type {RequestRule} */
export const duplicateWrite = {
  name: 'duplicate_write',
  appliesTo: ({ req }) => judgedAsWrite(req),
  decide({ req, ctx }, m) {
    if (!m.sentWrites.has(writeSignature(req))) return null;
    return ask({ ...writeRequest(m, req, ctx, 'high'), rule: 'duplicate_write', scopeKey: undefined, scope: undefined,
      reason: `The same ${req.method} to ${siteLabel(req.url)}, with the same data, was already sent during this task: sending it again may order, post or pay twice.` });
  },
};
