// Each run's tabs as one tab group named for its task: the tabs a run opens join the group of the
// tab it runs in, a job's tab gets a group named for the job, an MCP client's runs one named for the
// client. Where the browser has no tab groups (platform.groupTabs absent or failing) the set is kept
// here all the same, and the runs overview shows it as a labelled list of tabs.
/** @import { Platform } from '../types/platform' */

/** Tab group titles stay short: the tab strip shows a few words. */
const TITLE_MAX = 40;

/**
 * @typedef {object} RunGroup
 * @property {string} key who the group belongs to: `tab:<id>` (a run in a tab), `job:<id>`, `mcp:<client>`
 * @property {string} title
 * @property {number[]} tabs
 * @property {number | null} groupId the browser's tab group, or null where there is none (a labelled set)
 */

/** @param {string} text */
export function groupTitle(text) {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line;
}

/** @param {{ platform: Pick<Platform, 'groupTabs'>, onChange?: () => void }} deps */
export function createRunGroups({ platform, onChange = () => {} }) {
  /** @type {Map<string, RunGroup>} */
  const groups = new Map();
  /** The group each tab is in. @type {Map<number, string>} */
  const byTab = new Map();
  /** One change at a time per group: the browser's group id must exist before the next tab joins it. */
  /** @type {Map<string, Promise<void>>} */
  const chains = new Map();

  /**
   * Puts tabs into the group of key (made, and named title, on first use).
   * @param {string} key @param {string} title @param {number[]} tabIds
   */
  function join(key, title, tabIds) {
    const prev = chains.get(key) ?? Promise.resolve();
    const next = prev.then(() => place(key, title, tabIds));
    chains.set(key, next.catch(() => {}));
    return next;
  }

  /** @param {string} key @param {string} title @param {number[]} tabIds */
  async function place(key, title, tabIds) {
    let g = groups.get(key);
    if (!g) { g = { key, title: groupTitle(title), tabs: [], groupId: null }; groups.set(key, g); }
    const fresh = tabIds.filter((id) => !g.tabs.includes(id));
    for (const id of fresh) { g.tabs.push(id); byTab.set(id, key); }
    onChange();
    if (!fresh.length || !platform.groupTabs) return;
    const id = await platform.groupTabs(g.tabs, g.title, g.groupId ?? undefined).catch(() => null);
    if (id !== null) g.groupId = id;
    onChange();
  }

  return {
    join,
    /**
     * A tab a run's tab opened (the tabs tool, a link with target=_blank) joins the opener's group;
     * the first one makes the group, with the opener in it. Tabs no run opened stay where they are.
     * @param {number} openerTabId @param {number} tabId @param {(openerTabId: number) => string | null} runTitle the task of a run in that tab, if any
     */
    joinOpener(openerTabId, tabId, runTitle) {
      const key = byTab.get(openerTabId);
      if (key) return join(key, /** @type {RunGroup} */ (groups.get(key)).title, [tabId]);
      const title = runTitle(openerTabId);
      return title ? join(`tab:${openerTabId}`, title, [openerTabId, tabId]) : Promise.resolve();
    },
    /** The group a tab is in. @param {number} tabId @returns {RunGroup | null} */
    of(tabId) {
      const key = byTab.get(tabId);
      return key ? groups.get(key) ?? null : null;
    },
    /** A closed tab leaves its group; an empty group is forgotten. @param {number} tabId */
    forget(tabId) {
      const key = byTab.get(tabId);
      if (!key) return;
      byTab.delete(tabId);
      const g = groups.get(key);
      if (g) g.tabs = g.tabs.filter((id) => id !== tabId);
      if (g && !g.tabs.length) { groups.delete(key); chains.delete(key); }
      onChange();
    },
  };
}
