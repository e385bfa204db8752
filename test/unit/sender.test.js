import { expect } from 'chai';
import { isExtensionPage } from '../../src/chrome/service/sender.js';

describe('router sender check', () => {
  const id = 'abcdef';
  const base = 'chrome-extension://abcdef/';
  it('accepts the extension\'s own pages', () => {
    expect(isExtensionPage({ id, url: 'chrome-extension://abcdef/ui/panel.html?tabId=3' }, id, base)).to.equal(true);
  });
  it('refuses content scripts, which report the web page as their URL', () => {
    expect(isExtensionPage({ id, url: 'https://evil.example/' }, id, base)).to.equal(false);
  });
  it('refuses other extensions and senders without a URL', () => {
    expect(isExtensionPage({ id: 'other', url: 'chrome-extension://other/x.html' }, id, base)).to.equal(false);
    expect(isExtensionPage({ id }, id, base)).to.equal(false);
  });
});
