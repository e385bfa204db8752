// A place the agent chose to open or fetch (navigate, a new tab, fetch_url, read_pdf), and a
// navigation a step started: asked when its address carries data to another site (high), or when
// it is not one of the task's sites ("Allow for this task" adds the site).
/** @import { PolicyMemory } from '../policy-memory.js' */
/** @import { CallFacts, CallRule, Verdict } from './rule.js' */
import { dataInUrl, originOf, siteLabel } from '../scope.js';
import { pageDataInUrl } from './carried-data.js';
import { destinationAsk, maskDetail, shorten } from './cards.js';
import { destOf, has } from './rule.js';

/** @type {CallRule} */
export const destination = {
  name: 'destination',
  appliesTo: (f) => (has(f, 'leaves_origin') || has(f, 'navigates')) && Boolean(destOf(f)),
  decide: (f, m) => destinationVerdict(m, destOf(f), f.url, `${f.tool.replace(/_/g, ' ')} ${siteLabel(destOf(f))}`, fetchedOrOpened(f)),
};

/**
 * A call that sends its own request to the address (leaves_origin: fetch_url, read_pdf by url)
 * fetches it; one that takes the tab there opens it.
 * @param {CallFacts} f @returns {'open' | 'fetch'}
 */
const fetchedOrOpened = (f) => (has(f, 'leaves_origin') ? 'fetch' : 'open');

/**
 * Is a URL inside the task, and free of data? null when it is.
 * @param {PolicyMemory} m @param {string} url @param {string} pageUrl @param {string} cause @param {'open' | 'fetch'} verb
 * @returns {Verdict | null}
 */
export function destinationVerdict(m, url, pageUrl, cause, verb) {
  const carried = originOf(url) !== originOf(pageUrl) ? [...dataInUrl(url, m.known), ...pageDataInUrl(m, url, pageUrl)] : [];
  const what = `${verb === 'fetch' ? 'Fetch' : 'Open'} ${m.mask(shorten(url))}`;
  if (carried.length) {
    return destinationAsk(m, url, { category: 'leave', rule: 'data_in_url', severity: 'high', action: what, site: siteLabel(url), details: carried.map((d) => maskDetail(m, d)), cause,
      reason: `The address carries data (${[...new Set(carried.map((c) => c.label))].join(', ')}) to ${siteLabel(url)}, another site than the page's.` });
  }
  if (!m.scope.has(url)) {
    const scopeKey = originOf(url) ?? undefined;
    return destinationAsk(m, url, { category: 'leave', rule: 'leave_scope', severity: 'normal', action: what, site: siteLabel(url), details: [], cause,
      reason: `${siteLabel(url)} is not one of this task's sites (${m.scope.list().map(siteLabel).join(', ') || 'none yet'}).`, scopeKey,
      scope: scopeKey ? { kind: 'site', site: siteLabel(url), severity: 'normal' } : undefined });
  }
  return null;
}
