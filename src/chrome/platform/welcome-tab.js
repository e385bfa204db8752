// Chrome opens the welcome tab itself when Tabwright is installed from the Chrome Web Store (or by
// policy): its button is the click Chrome needs before it opens a side panel. An unpacked copy
// (`npm start`, the test browsers) is left alone: `npm start` opens the welcome tab over the DevTools
// pipe once the extension has loaded (scripts/start-cdp.mjs), and a developer's reload is no install.

/**
 * Whether this install is one a person made from a store or an administrator pushed.
 * @param {{ reason: string }} details the install event's
 * @param {string} installType chrome.management.getSelf()'s
 */
export function welcomesInstall(details, installType) {
  return details.reason === 'install' && installType !== 'development';
}

/** Registered while the worker starts, so the install event of this start reaches it. */
export function openWelcomeOnInstall() {
  chrome.runtime.onInstalled.addListener(async (details) => {
    const self = await chrome.management.getSelf().catch(() => null);
    if (!self || !welcomesInstall(details, self.installType)) return;
    await chrome.tabs.create({ url: chrome.runtime.getURL('ui/welcome.html') }).catch(() => {});
  });
}
