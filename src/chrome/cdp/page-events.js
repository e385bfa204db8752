// The tab's own page events that the session answers itself: native dialogs, and main-frame
// navigations (typing must stop so no keystroke lands in the next page).

/**
 * A native dialog the page-world hooks did not catch. "Leave site?" (beforeunload) appears because
 * trusted clicks give the page user activation; the agent chose to leave, so leave. Others: OK for
 * an alert, Cancel for the rest (the safe answer), so the tab never hangs.
 * @param {any} p Page.javascriptDialogOpening's parameters
 */
export function acceptsDialog(p) {
  return p?.type === 'beforeunload' || p?.type === 'alert';
}

/**
 * Whether the event starts or makes a navigation of the top frame.
 * @param {string} method @param {any} p @param {string | undefined} mainFrame the top frame's CDP id
 */
export function isMainFrameNavigation(method, p, mainFrame) {
  if (!/^Page\.frame(RequestedNavigation|StartedLoading|StartedNavigating|Navigated)$/.test(method)) return false;
  const frameId = p?.frameId ?? p?.frame?.id;
  return Boolean(frameId && frameId === mainFrame);
}
