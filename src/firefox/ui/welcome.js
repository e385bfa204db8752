// The welcome tab (npm start opens it in Chrome, Firefox at the add-on's install; also reachable from
// the settings page): one button that opens the panel. Chrome opens a side panel only in answer to
// a click, which is why this page exists.
import { t, localize } from './i18n.js';

localize();
const result = /** @type {HTMLElement} */ (document.getElementById('open-result'));
document.getElementById('open-panel')?.addEventListener('click', async () => {
  try {
    const c = /** @type {any} */ (globalThis).chrome;
    if (c?.sidePanel?.open) {
      const win = await c.windows.getCurrent();
      await c.sidePanel.open({ windowId: win.id });
    } else {
      await /** @type {any} */ (browser).sidebarAction.open();
    }
    result.textContent = t('welcomeOpened');
  } catch (err) {
    result.textContent = t('welcomeOpenFailed');
    console.warn('Tabwright: could not open the panel', err);
  }
});
