// save_skill: instructions the agent will be given in later runs. Always asked, at high severity,
// with all of it shown, since a page that talked the model into "remembering" something would
// speak in every later run.
/** @import { ConfirmRequest } from '../../../types/safety' */
/** @import { PolicyMemory } from '../policy-memory.js' */
/** @import { CallFacts, CallRule } from './rule.js' */
import { siteLabel } from '../scope.js';
import { ask, has } from './rule.js';

/** @type {CallRule} */
export const skillSave = {
  name: 'skill_save',
  appliesTo: (f) => has(f, 'saves_skills'),
  decide: (f, m) => ask(skillRequest(m, f)),
};

/** @param {PolicyMemory} m @param {CallFacts} f @returns {ConfirmRequest} */
function skillRequest(m, f) {
  const a = f.args;
  let host = '';
  try { host = new URL(f.url).hostname; } catch { /* no page */ }
  // What save_skill will store: the sites named, else this page's host (agent/tools/skills.js).
  const sites = Array.isArray(a.sites) && a.sites.length ? a.sites.map(String).join(', ') : host;
  return {
    category: 'skill', rule: 'skill_save', severity: 'high',
    action: `Save the skill "${String(a.name ?? '')}" for later runs`, site: siteLabel(f.url),
    details: [
      { label: 'title', value: m.mask(String(a.title ?? '')).slice(0, 200) },
      { label: 'used on', value: m.mask(sites).slice(0, 200) },
      { label: 'instructions', value: m.mask(String(a.prompt ?? '')) },
    ],
    reason: 'The agent wants to keep instructions that it will follow in later runs on these sites. Allow only what you would write yourself.',
  };
}
