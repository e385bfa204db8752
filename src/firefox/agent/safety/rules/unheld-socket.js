// A socket whose frames nothing can hold (a worker's, in Firefox) asks before it opens, on any
// site, at high severity; one opened before the run asks before each step that acts while it may
// be open. "Allow for this task" covers that socket only (the worker's kind and the exact URL): it
// opens, and steps act while it is open, without another card; its frames stay unseen, as the card
// says. Any other socket, and every write, still asks.
/** @import { ConfirmScope, HeldRequest } from '../../../types/safety' */
/** @import { PolicyMemory } from '../policy-memory.js' */
/** @import { RequestRule, Verdict } from './rule.js' */
import { siteLabel } from '../scope.js';
import { covers } from '../policy-memory.js';
import { withoutHash } from '../request-facts.js';
import { shorten } from './cards.js';
import { allow, ask } from './rule.js';

/** @type {RequestRule} */
export const unheldSocket = {
  name: 'unheld_socket',
  appliesTo: ({ req }) => Boolean(req.framesUnheld),
  decide: ({ req, ctx }, m) => unheldSocketVerdict(m, req, ctx),
};

/** @param {PolicyMemory} m @param {HeldRequest} req @param {{ cause: string }} ctx @returns {Verdict} */
export function unheldSocketVerdict(m, req, ctx) {
  const key = `socket ${req.source ?? 'worker'} ${withoutHash(req.url)}`;
  if (covers(m, key, 'high')) return allow();
  const site = siteLabel(req.url);
  const who = req.source === 'service_worker' ? 'the site\'s service or shared worker' : 'a worker of the page';
  const socket = m.mask(shorten(withoutHash(req.url)));
  /** @type {ConfirmScope} */
  const covered = { kind: 'write', site, socket, severity: 'high' };
  const details = [{ label: 'socket', value: socket }, ...(req.initiator ? [{ label: 'worker', value: m.mask(shorten(req.initiator)) }] : [])];
  const card = { category: /** @type {const} */ ('write'), rule: /** @type {const} */ ('server_write'), severity: /** @type {const} */ ('high'), site, details, cause: ctx.cause, scopeKey: key, scope: covered };
  if (req.openBefore) {
    return ask({ ...card, action: `Act on the page while ${who} keeps a WebSocket to ${socket} open`,
      reason: `Before this task began, ${who} opened a live connection to ${site}, and it may still be open. Tabwright cannot hold or show what a worker sends over it: allowed, anything this step makes it send goes unseen; declined, the step does not run.` });
  }
  return ask({ ...card, action: `Open a WebSocket to ${socket} from ${who}`,
    reason: `While the agent acts, ${who} opens a live connection to ${site}. Tabwright cannot hold or show what a worker sends over it: allowed, everything it sends goes unseen; declined, it never opens.` });
}
