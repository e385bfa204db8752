// An organization's policy over the safety policy: what an administrator forbids is refused before the
// person's own rules are asked. It only ever takes away: a call the organization allows still goes
// through every card of agent/safety/policy.js.
/** @import { Effect } from '../../types/safety' */
import { siteLabel } from './scope.js';
import { siteMatches } from './site-patterns.js';
import { say } from '../error-codes.js';

/** Effects that change something: refused on a blocked site, and in Ask-only. */
const CHANGES = /** @type {readonly Effect[]} */ (['acts_on_page', 'navigates', 'writes_server', 'creates_jobs', 'saves_skills', 'runs_code', 'records_tab', 'calls_page_tool']);

/** Effects that act on the page's site: refused where acting is blocked (reading and leaving are not). */
const ACTS_ON_SITE = /** @type {readonly Effect[]} */ (['acts_on_page', 'writes_server', 'runs_code', 'records_tab', 'calls_page_tool']);

/** Features the organization may switch off, by the effect a call declares. */
const FEATURE_OF = /** @type {Partial<Record<Effect, { feature: string, name: string }>>} */ ({
  creates_jobs: { feature: 'scheduler', name: 'Scheduled jobs' },
  records_tab: { feature: 'recorder', name: 'Tab recording' },
  runs_code: { feature: 'devTools', name: 'The developer tools' },
  calls_page_tool: { feature: 'webmcp', name: 'WebMCP page tools' },
});

/**
 * @typedef {object} OrgRules
 * @property {string[]} [blockSites] site patterns where acting is refused
 * @property {boolean} [askOnly] nothing acts, whatever mode the run asked for
 * @property {string[]} [off] features switched off
 */

/**
 * @template {{ checkCall: (f: any) => any, judgeRequest: (req: any, ctx: any) => any }} P
 * @param {P} policy @param {OrgRules | undefined} rules @returns {P}
 */
export function withOrgRules(policy, rules) {
  if (!rules) return policy;
  const blocked = (rules.blockSites ?? []).map((s) => s.toLowerCase());
  const off = new Set(rules.off ?? []);
  const isBlocked = (/** @type {string} */ url) => { const site = siteLabel(url); return Boolean(site) && blocked.some((p) => siteMatches(p, site.toLowerCase())); };
  return {
    ...policy,
    /** @param {{ tool: string, effects: readonly Effect[], url: string, dest?: string | null, args: Record<string, any> }} f */
    checkCall(f) {
      const v = orgVerdict(f, { isBlocked, off, askOnly: rules.askOnly === true });
      return v ?? policy.checkCall(f);
    },
    /** A write the page sends to a blocked site leaves no more than one the agent sends itself. */
    judgeRequest(/** @type {{ url: string, method: string }} */ req, /** @type {any} */ ctx) {
      if (!/^(GET|HEAD|OPTIONS)$/i.test(req.method) && isBlocked(req.url)) {
        return refusal('SITE_BLOCKED', `${siteLabel(req.url)}: this ${req.method} to it was not sent`);
      }
      return policy.judgeRequest(req, ctx);
    },
  };
}

/**
 * @param {{ tool: string, effects: readonly Effect[], url: string, dest?: string | null, args: Record<string, any> }} f
 * @param {{ isBlocked: (url: string) => boolean, off: Set<string>, askOnly: boolean }} o
 */
function orgVerdict(f, o) {
  for (const e of f.effects) {
    const feature = FEATURE_OF[e];
    if (feature && o.off.has(feature.feature)) return refusal('FEATURE_OFF', `${feature.name}, so ${f.tool} cannot run; do the task without it or tell the user`);
  }
  if (o.askOnly && f.effects.some((e) => CHANGES.includes(e))) return refusal('NOT_ALLOWED_IN_ASK_MODE', `your organization allows Ask mode only, and ${f.tool} would change something`);
  if (f.effects.some((e) => ACTS_ON_SITE.includes(e)) && o.isBlocked(f.url)) {
    return refusal('SITE_BLOCKED', `${siteLabel(f.url)}: ${f.tool} was not run; tell the user`);
  }
  return null;
}

/** The catalog's sentence for the code, then the specifics. @param {'SITE_BLOCKED' | 'FEATURE_OFF' | 'NOT_ALLOWED_IN_ASK_MODE'} code @param {string} detail */
function refusal(code, detail) { return { action: /** @type {const} */ ('refuse'), code, message: say(code, detail) }; }
