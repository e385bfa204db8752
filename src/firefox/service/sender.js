// Who may drive the router: only the extension's own pages. Content scripts and web pages carry
// a web URL as sender.url and are refused.

/**
 * @param {{ id?: string, url?: string }} sender runtime.MessageSender
 * @param {string} extensionId browser.runtime.id
 * @param {string} extensionBase browser.runtime.getURL('')
 */
export function isExtensionPage(sender, extensionId, extensionBase) {
  return sender.id === extensionId && typeof sender.url === 'string' && sender.url.startsWith(extensionBase);
}
