// Firefox opens the welcome tab itself when the add-on is installed: web-ext (`npm start -- --browser
// firefox`) loads its start page before it installs the add-on, so a moz-extension:// address given
// to it would never load, and an install from addons.mozilla.org has no other first page. A
// temporary install is web-ext's, whose demo page is the one to try first: the welcome tab then waits
// beside it (the sidebar, which Firefox opens at the install, answers about the tab in front).
// Chrome's welcome tab is opened by `npm start` (scripts/start.mjs).

/** Registered while the background starts, so the install event of this start reaches it. */
export function openWelcomeOnInstall() {
  browser.runtime.onInstalled.addListener(({ reason, temporary }) => {
    if (reason !== 'install') return;
    void openWelcome(!temporary);
  });
}

/** Opens the tab; a failure is tried once more a second later, then said in the console. @param {boolean} active */
async function openWelcome(active) {
  const url = browser.runtime.getURL('ui/welcome.html');
  for (let attempt = 1; ; attempt++) {
    try {
      await browser.tabs.create({ url, active });
      return;
    } catch (err) {
      if (attempt >= 2) { console.warn(`Tabwright could not open its welcome tab: ${err instanceof Error ? err.message : err}`); return; }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}
