// The on-page indicator (content/indicator.js): shown while a run may act in the tab.

/** @param {ReturnType<typeof import('../browser-ops.js').createBrowserOps>} ops @param {number} tabId @param {boolean} show */
export function showIndicator(ops, tabId, show) {
  ops.sendToContent(tabId, { type: 'content.indicator', show })
    .catch(() => { /* pages Tabwright cannot script show no indicator */ });
}
