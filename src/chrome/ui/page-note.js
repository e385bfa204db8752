// The line that says, in the answer area, that the panel's tab cannot be read (a browser page, an
// extension page, a store) and which tab to use instead. Without it a first question asked on the
// welcome tab fails every tool with PAGE_NOT_SCRIPTABLE and the hint hides in a collapsed card.

/**
 * Whether Tabwright's content scripts can run on a page with this address: web pages (http, https)
 * and local files; never browser, extension or store pages, whose scripting browsers refuse.
 * @param {string | undefined} url
 */
export function readableUrl(url) {
  if (!url) return true; // not known yet (a tab still loading): say nothing rather than guess
  let u;
  try { u = new URL(url); } catch { return false; }
  if (u.protocol === 'file:') return true;
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  // The extension stores refuse every extension's scripts.
  return !/^(chrome\.google\.com|chromewebstore\.google\.com|addons\.mozilla\.org)$/.test(u.hostname);
}

/**
 * The tab to suggest: in the same window, readable, the most recently used first.
 * @template {{ id?: number, url?: string, lastAccessed?: number }} T
 * @param {T[]} tabs @param {number} current
 * @returns {T | undefined}
 */
export function readableTab(tabs, current) {
  return tabs.filter((x) => x.id !== current && x.url && readableUrl(x.url))
    .sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))[0];
}

/**
 * @param {{ el: HTMLElement, t: (key: string, subs?: string | string[]) => string }} deps
 */
export function createPageNote({ el, t }) {
  const text = document.createElement('span');
  const go = document.createElement('button');
  go.type = 'button';
  go.className = 'ghost';
  el.replaceChildren(text, go);
  /** @type {number | undefined} */
  let target;
  go.addEventListener('click', () => { if (target !== undefined) browser.tabs.update(target, { active: true }); });

  return {
    /** Shows or hides the note for this tab. @param {number} tabId */
    async show(tabId) {
      const tab = await browser.tabs.get(tabId).catch(() => null);
      if (!tab || readableUrl(tab.url)) { el.hidden = true; return; }
      const other = readableTab(await browser.tabs.query({ windowId: tab.windowId }), tabId);
      target = other?.id;
      const title = other ? (other.title || other.url || '') : '';
      text.textContent = other ? t('pageNoteUseTab', [title]) : t('pageNoteOpenPage');
      go.textContent = t('pageNoteGo');
      go.hidden = !other;
      el.hidden = false;
    },
  };
}
