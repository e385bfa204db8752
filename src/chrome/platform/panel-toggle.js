// The toolbar button (and its key, Alt+Shift+Y) opens and closes the side panel from
// action.onClicked rather than Chrome's openPanelOnActionClick: only a dispatched onClicked counts
// as the person invoking Tabwright on the tab, which Chrome requires before tabCapture may record it
// (with openPanelOnActionClick the panel opens and the tab is never granted). Chrome before 141 has
// no sidePanel.close nor onOpened/onClosed to toggle with, and keeps openPanelOnActionClick there.

const KEY = 'panelToggle.openWindows';

/** @returns {boolean} whether the toolbar button now opens the panel through onClicked */
export function setupPanelToggle() {
  const panel = /** @type {any} */ (chrome.sidePanel);
  if (typeof panel.close !== 'function' || !panel.onOpened || !panel.onClosed) {
    chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => {});
    return false;
  }
  /** Windows whose side panel shows Tabwright, kept in storage.session so a new worker knows them. @type {Set<number>} */
  const open = new Set();
  const save = () => { chrome.storage.session.set({ [KEY]: [...open] }).catch(() => {}); };
  panel.onOpened.addListener((/** @type {{ windowId: number }} */ e) => { open.add(e.windowId); save(); });
  panel.onClosed.addListener((/** @type {{ windowId: number }} */ e) => { open.delete(e.windowId); save(); });
  // getContexts names no window for a side panel (windowId -1), so it only says whether any is open.
  let known = false;
  const seeded = Promise.all([chrome.storage.session.get(KEY), chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.SIDE_PANEL] })])
    .then(([stored, contexts]) => { if (contexts.length) for (const id of /** @type {number[]} */ (stored[KEY] ?? [])) open.add(id); }, () => {})
    .finally(() => { known = true; });
  chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: false }).catch(() => {});
  chrome.action.onClicked.addListener((tab) => {
    const windowId = tab.windowId;
    if (known && open.has(windowId)) { panel.close({ windowId }).catch(() => {}); return; }
    // open() must be called in the click's own turn (it needs the gesture). A click that woke the
    // worker comes before it knows the open panels: open now, and close if it was open already.
    chrome.sidePanel.open({ windowId }).catch(() => {});
    if (!known) seeded.then(() => { if (open.has(windowId)) panel.close({ windowId }).catch(() => {}); });
  });
  return true;
}
