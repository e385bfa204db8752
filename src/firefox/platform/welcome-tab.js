// Firefox opens the welcome tab itself when the add-on is installed (from addons.mozilla.org, or as a
// temporary add-on by `npm start -- --browser firefox`): web-ext loads its start page before it
// installs the add-on, so a moz-extension:// address given to it would never load, and a store
// install has no other first page. Chrome's welcome tab is opened by `npm start` (scripts/start.mjs).

/** Registered while the background starts, so the install event of this start reaches it. */
export function openWelcomeOnInstall() {
  browser.runtime.onInstalled.addListener(({ reason }) => {
    if (reason !== 'install') return;
    browser.tabs.create({ url: browser.runtime.getURL('ui/welcome.html') }).catch(() => {});
  });
}
