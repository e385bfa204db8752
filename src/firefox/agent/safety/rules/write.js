// A write inside the task's sites: asked, unless "Allow for this task" covers its kind or the
// person always allows the site (Settings; not a sensitive site). Neither covers a write the person
// could not read (an unreadable body) or could misread (a lookalike value): those ask, saying why.
/** @import { RequestRule } from './rule.js' */
import { siteLabel } from '../scope.js';
import { covers } from '../policy-memory.js';
import { matchesAny } from '../site-patterns.js';
import { judgedAsWrite } from '../request-facts.js';
import { writeKind } from '../write-kind.js';
import { unreadableBody, writeRequest } from './cards.js';
import { allow, ask } from './rule.js';

/** @type {RequestRule} */
export const serverWrite = {
  name: 'server_write',
  appliesTo: ({ req }) => judgedAsWrite(req),
  decide({ req, ctx }, m) {
    const site = siteLabel(req.url);
    const unreadable = unreadableBody(req);
    const request = writeRequest(m, req, ctx);
    const trusted = matchesAny(m.allowSites, site) && !m.opts.sensitiveSite?.(req.url);
    const lookalike = request.details.find((d) => d.lookalike);
    if (!unreadable && (covers(m, writeKind(req), request.severity) || (trusted && !lookalike))) return allow();
    if (unreadable) return ask({ ...request, reason: `It sends data to ${site} that cannot be shown as text (${unreadable}): Tabwright cannot tell you what it changes.` });
    if (lookalike) return ask({ ...request, reason: `"${lookalike.value}" looks like "${lookalike.lookalike}" but is not the same: check it character by character. It changes data on ${site}.` });
    return ask({ ...request, reason: `It changes data on ${site}: a ${req.method} request the agent's step caused.` });
  },
};
