// UI strings come from _locales; elements name their message with data-i18n attributes.

/** @param {string} key @param {string | string[]} [subs] */
export function t(key, subs) {
  return browser.i18n.getMessage(key, subs) || key;
}

/** Fill every data-i18n, data-i18n-placeholder, data-i18n-title and data-i18n-aria-label under root. */
/** @param {ParentNode} [root] */
export function localize(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(/** @type {string} */ (el.getAttribute('data-i18n')));
  for (const attr of ['placeholder', 'title', 'aria-label']) {
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) el.setAttribute(attr, t(/** @type {string} */ (el.getAttribute(`data-i18n-${attr}`))));
  }
  const lang = browser.i18n.getUILanguage();
  document.documentElement.lang = lang;
  document.documentElement.dir = t('@@bidi_dir') === 'rtl' ? 'rtl' : 'ltr';
}
