// The developer tools' access to a tab (BrowserOps.devtools): evaluation and the request log come
// from the platform; the style sheets inject_css added are tracked here per tab, so New chat can
// take them all away and a new document (which has none) starts with an empty list.
/** @import { DevtoolsOps } from '../types/core' */
/** @import { Platform } from '../types/platform' */

/** @param {Platform} platform @returns {DevtoolsOps & { revert(tabId: number): Promise<number> }} */
export function createDevtools(platform) {
  /** @type {Map<number, { id: string, css: string }[]>} */
  const sheets = new Map();
  let counter = 0;

  // Sheets belong to the document: a navigation of the top frame leaves the next one without them.
  browser.webNavigation?.onCommitted?.addListener((/** @type {{ tabId: number, frameId: number }} */ d) => { if (d.frameId === 0) sheets.delete(d.tabId); });
  browser.tabs.onRemoved.addListener((/** @type {number} */ tabId) => sheets.delete(tabId));

  /** @param {number} tabId @param {string} [id] */
  async function removeCss(tabId, id) {
    const list = sheets.get(tabId) ?? [];
    const gone = id ? list.filter((s) => s.id === id) : list;
    for (const s of gone) await platform.removeCss(tabId, s.css).catch(() => {});
    const left = list.filter((s) => !gone.includes(s));
    if (left.length) sheets.set(tabId, left); else sheets.delete(tabId);
    return gone.length;
  }

  return {
    evaluate: (tabId, source, timeoutMs) => platform.evaluate(tabId, source, timeoutMs),
    network: platform.network,
    async addCss(tabId, css) {
      // The id rides in a comment so the same text added twice is still two sheets to remove.
      const id = `css${++counter}`;
      const text = `/* tabwright ${id} */\n${css}`;
      await platform.insertCss(tabId, text);
      sheets.set(tabId, [...(sheets.get(tabId) ?? []), { id, css: text }]);
      return id;
    },
    removeCss,
    listCss: (tabId) => (sheets.get(tabId) ?? []).map((s) => ({ id: s.id, chars: s.css.length })),
    revert: (tabId) => removeCss(tabId),
  };
}
