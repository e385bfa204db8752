// A GET: a navigation the step started (a link, a GET form) asks when it leaves the task's sites or
// carries data; a subresource (an image, a script, a fetch, a WebSocket's handshake) asks when it
// carries page data or what the agent typed to another site.
/** @import { RequestRule } from './rule.js' */
import { originOf, siteLabel } from '../scope.js';
import { judgedUrl, readsOnly, withoutHash } from '../request-facts.js';
import { pageDataInUrl } from './carried-data.js';
import { maskDetail, shorten } from './cards.js';
import { destinationVerdict } from './destination.js';
import { allow, ask } from './rule.js';

/** @type {RequestRule} */
export const navigationRead = {
  name: 'navigation_read',
  appliesTo: ({ req }) => readsOnly(req) && req.topLevel,
  decide({ req, ctx }, m) {
    // A destination the person allowed on the step's own card (navigate) asks no second time.
    if (m.approvedUrls.delete(withoutHash(req.url))) return allow();
    return destinationVerdict(m, req.url, ctx.pageUrl, ctx.cause, 'open') ?? allow();
  },
};

/** @type {RequestRule} */
export const subresourceRead = {
  name: 'subresource_read',
  appliesTo: ({ req }) => readsOnly(req) && !req.topLevel,
  decide({ req, ctx }, m) {
    // A WebSocket's handshake goes to the site of its http(s) origin (judgedUrl).
    const at = judgedUrl(req, ctx.pageUrl);
    if (m.scope.has(at) || originOf(at) === originOf(ctx.pageUrl)) return allow();
    // Firefox sees a socket's handshake twice: the page's hook asked before it built the socket, then
    // its request leaves; the answer already given covers it.
    const socket = req.type === 'websocket' && !req.framesUnheld;
    if (socket && req.kind === 'request' && m.approvedUrls.delete(withoutHash(req.url))) return allow();
    const carried = pageDataInUrl(m, req.url, ctx.pageUrl);
    if (!carried.length) return allow();
    const what = socket ? 'open a WebSocket to' : `load ${req.type || 'a resource'} from`;
    const request = { category: /** @type {const} */ ('leave'), rule: /** @type {const} */ ('data_in_url'), severity: /** @type {const} */ ('high'), action: `${socket ? 'Open a WebSocket to' : `Load ${req.type || 'a resource'} from`} ${m.mask(shorten(req.url))}`, site: siteLabel(req.url),
      details: carried.map((d) => maskDetail(m, d)), cause: ctx.cause,
      reason: `The page would ${what} ${siteLabel(req.url)}, another site, with data in its address (${[...new Set(carried.map((c) => c.value.replace(/^.*\((.*)\)$/, '$1')))].join(', ')}).` };
    if (socket) m.cardUrls.set(request, withoutHash(req.url));
    return ask(request);
  },
};
