// The tabs an MCP client may use, as a choice in Settings: the active tab, all tabs, or one tab
// group open now (a group that has closed stays listed while a client holds it).
/** @import { Grant } from '../mcp-protocol/grants.js' */
/** @typedef {(key: string, subs?: string | string[]) => string} Translate */

/**
 * The grants to choose from: the active tab, all tabs, and each tab group open now.
 * @param {Translate} t @returns {Promise<[string, Grant, string][]>}
 */
export async function grantChoices(t) {
  /** @type {[string, Grant, string][]} */
  const out = [['active', { kind: 'active' }, t('mcpGrantActive')], ['all', { kind: 'all' }, t('mcpGrantAll')]];
  const tabs = /** @type {any[]} */ (await browser.tabs.query({}).catch(() => []));
  /** @type {Map<number, string[]>} */
  const groups = new Map();
  for (const tab of tabs) if (typeof tab.groupId === 'number' && tab.groupId >= 0) groups.set(tab.groupId, [...(groups.get(tab.groupId) ?? []), String(tab.title ?? '')]);
  for (const [groupId, titles] of groups) {
    const label = `${titles[0].slice(0, 40)}${titles.length > 1 ? ` +${titles.length - 1}` : ''}`;
    out.push([`group:${groupId}`, { kind: 'group', groupId, label }, t('mcpGrantGroup', [label])]);
  }
  return out;
}

/** @param {HTMLSelectElement} select @param {[string, Grant, string][]} choices @param {Translate} t @param {Grant} [current] */
export function fillGrants(select, choices, t, current) {
  const value = current ? (current.kind === 'group' ? `group:${current.groupId}` : current.kind) : select.value || 'active';
  const list = current?.kind === 'group' && !choices.some(([v]) => v === value) ? [...choices, /** @type {[string, Grant, string]} */ ([value, current, t('mcpGrantGroup', [current.label ?? String(current.groupId)])])] : choices;
  select.replaceChildren(...list.map(([v, , label]) => Object.assign(document.createElement('option'), { value: v, textContent: label })));
  select.value = value;
  /** @type {any} */ (select).grants = new Map(list.map(([v, g]) => [v, g]));
}

/** @param {HTMLSelectElement} select @returns {Grant} */
export const chosenGrant = (select) => /** @type {any} */ (select).grants?.get(select.value) ?? { kind: 'active' };
