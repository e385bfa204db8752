// Ask mode and planning only read: a call that would change something is refused, and so is one
// that would send something to another site than the page's.
/** @import { Effect } from '../../../types/safety' */
/** @import { CallRule } from './rule.js' */
import { originOf, siteLabel } from '../scope.js';
import { destOf, has, refuse } from './rule.js';

/** Effects that change something (a page, a server, the person's jobs, skills or recordings). */
export const CHANGING_EFFECTS = /** @type {readonly Effect[]} */ (['acts_on_page', 'navigates', 'writes_server', 'creates_jobs', 'saves_skills', 'runs_code', 'records_tab']);

/** @type {CallRule} */
export const readOnlyChanges = {
  name: 'read_only_changes',
  appliesTo: (f) => f.mode !== 'act' && CHANGING_EFFECTS.some((e) => has(f, e)),
  decide: (f) => refuse('NOT_ALLOWED_IN_ASK_MODE', `${f.tool} would change something, and ${f.mode === 'plan' ? 'planning' : 'Ask mode'} only reads`),
};

/** @type {CallRule} */
export const readOnlyOtherSite = {
  name: 'read_only_other_site',
  appliesTo: (f) => f.mode !== 'act' && has(f, 'leaves_origin'),
  decide(f) {
    const dest = destOf(f);
    if (!dest || originOf(dest) === originOf(f.url)) return null;
    return refuse('NOT_ALLOWED_IN_ASK_MODE', `${siteLabel(dest)} is another site than the page's, ${siteLabel(f.url)}; Ask mode sends nothing off the page`);
  },
};
