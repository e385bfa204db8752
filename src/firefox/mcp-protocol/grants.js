import { fail } from '../agent/error-codes.js';
// Which tabs a paired MCP client may use: chosen when it is paired, changeable in Settings.
// Browser-free: the background asks the browser for the tab and the active tab, this decides.

/**
 * - active: only the tab the user is looking at (the active tab of the last focused window), at
 *   the moment of each call
 * - group: the tabs of one tab group (Chrome's tab groups; Firefox's where it has them)
 * - all: every web page tab
 * @typedef {{ kind: 'active' } | { kind: 'group', groupId: number, label?: string } | { kind: 'all' }} Grant
 */

/** @type {Grant} */
export const DEFAULT_GRANT = Object.freeze({ kind: 'active' });

/**
 * A grant as stored or received, checked; null when it is not one.
 * @param {unknown} v @returns {Grant | null}
 */
export function parseGrant(v) {
  if (!v || typeof v !== 'object') return null;
  const g = /** @type {Record<string, unknown>} */ (v);
  if (g.kind === 'active' || g.kind === 'all') return { kind: g.kind };
  if (g.kind === 'group' && Number.isInteger(g.groupId) && /** @type {number} */ (g.groupId) >= 0) {
    return { kind: 'group', groupId: /** @type {number} */ (g.groupId), ...(typeof g.label === 'string' ? { label: g.label.slice(0, 200) } : {}) };
  }
  return null;
}

/** Only web pages are driven: never the browser's own pages nor an extension's. @param {string | undefined} url */
export function isWebPage(url) {
  return typeof url === 'string' && /^https?:\/\//i.test(url);
}

/**
 * May a client with this grant use this tab?
 * @param {Grant} grant
 * @param {{ id?: number, url?: string, groupId?: number } | null} tab
 * @param {number | null} activeTabId the active tab of the last focused window
 * @returns {{ ok: true } | { ok: false, code: 'TAB_NOT_GRANTED', message: string }}
 */
export function grantAllows(grant, tab, activeTabId) {
  if (!tab || typeof tab.id !== 'number') return fail('TAB_NOT_GRANTED', 'there is no such tab');
  if (!isWebPage(tab.url)) return fail('TAB_NOT_GRANTED', `tab ${tab.id} is not a web page, and MCP clients use web pages only`);
  if (grant.kind === 'all') return { ok: true };
  if (grant.kind === 'active') {
    return tab.id === activeTabId ? { ok: true }
      : fail('TAB_NOT_GRANTED', `it may use only the tab the user is looking at, tab ${activeTabId ?? 'none'}, not tab ${tab.id}`);
  }
  return tab.groupId === grant.groupId ? { ok: true }
    : fail('TAB_NOT_GRANTED', `it may use only the tabs of the group ${grant.label ? `"${grant.label}"` : grant.groupId}; tab ${tab.id} is not in it`);
}
