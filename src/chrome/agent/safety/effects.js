// Reading what tools declare they do (types/safety.d.ts). Modes and the policy ask these, never a list of names.
/** @import { Tool } from '../../types/core' */
/** @import { Effect } from '../../types/safety' */

/** Effects a reading mode allows (leaving the origin only to the page's own site: the policy checks). */
const READING = new Set(/** @type {Effect[]} */ (['reads_page', 'leaves_origin', 'reads_skills']));

/** The effects of one call. @param {Tool} tool @param {Record<string, any>} [args] @returns {readonly Effect[]} */
export function effectsOf(tool, args) {
  return (args && tool.effectsFor?.(args)) || tool.effects;
}

/** Only reads: offered in Ask mode. @param {Tool} tool */
export function onlyReads(tool) {
  return tool.effects.length > 0 && tool.effects.every((e) => READING.has(e));
}

/** Its results carry page content (fenced as untrusted). @param {Tool} tool */
export function carriesPageContent(tool) {
  return tool.effects.includes('reads_page') || tool.effects.includes('leaves_origin');
}
