// A write to a site outside the task: asked at high severity, unless "Allow for this task" covers
// its kind, or it is a page's own telemetry to a third party that carries nothing the agent brought
// and nothing the page showed. A write to the acting page's own site (a tab outside the task) is
// never telemetry.
/** @import { RequestRule } from './rule.js' */
import { originOf, siteLabel } from '../scope.js';
import { covers } from '../policy-memory.js';
import { judgedAsWrite, judgedUrl } from '../request-facts.js';
import { writeKind } from '../write-kind.js';
import { carriesTyped, pageDataIn, sentText } from './carried-data.js';
import { unreadableBody, writeRequest } from './cards.js';
import { allow, ask } from './rule.js';

/** @type {RequestRule} */
export const writeOutOfScope = {
  name: 'write_out_of_scope',
  appliesTo: ({ req, ctx }, m) => judgedAsWrite(req) && !m.scope.has(judgedUrl(req, ctx.pageUrl)),
  decide({ req, ctx }, m) {
    const unreadable = unreadableBody(req);
    const sent = sentText(req);
    const typed = carriesTyped(m, sent);
    const request = writeRequest(m, req, ctx, 'high');
    if (!unreadable && covers(m, writeKind(req), request.severity)) return allow();
    const thirdParty = originOf(judgedUrl(req, ctx.pageUrl)) !== originOf(ctx.pageUrl);
    const pageData = typed ? [] : pageDataIn(m, sent, ctx.pageUrl);
    if (thirdParty && !typed && !pageData.length && !unreadable && !req.topLevel) return allow();
    const what = typed ? 'what the agent typed' : pageData.length ? `data from the page (${[...new Set(pageData)].join(', ')})` : unreadable ? 'data it cannot show' : 'a change';
    return ask({ ...request, reason: `The page would send ${what} to ${siteLabel(req.url)}, which is not one of this task's sites.` });
  },
};
