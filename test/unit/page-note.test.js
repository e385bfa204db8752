// Which pages the panel says it cannot read, and which tab it suggests instead.
import { expect } from 'chai';
import { readableUrl, readableTab } from '../../src/chrome/ui/page-note.js';

describe('page note', () => {
  it('reads web pages and local files, not browser, extension or store pages', () => {
    for (const url of ['https://example.com/a', 'http://127.0.0.1:8080/demo.html', 'file:///tmp/a.html']) expect(readableUrl(url), url).to.equal(true);
    for (const url of ['chrome-extension://abc/ui/welcome.html', 'moz-extension://u/ui/welcome.html', 'chrome://extensions/', 'about:addons', 'about:blank',
      'view-source:https://a.b/', 'https://chromewebstore.google.com/detail/x', 'https://addons.mozilla.org/en-US/firefox/', 'not a url']) {
      expect(readableUrl(url), url).to.equal(false);
    }
    // A tab whose address is not known yet is not called unreadable.
    expect(readableUrl(undefined)).to.equal(true);
  });

  it('suggests the most recently used readable tab other than this one', () => {
    const tabs = [
      { id: 1, url: 'chrome-extension://abc/ui/welcome.html', lastAccessed: 50 },
      { id: 2, url: 'http://127.0.0.1/demo.html', lastAccessed: 10 },
      { id: 3, url: 'https://example.com/', lastAccessed: 30 },
      { id: 4, url: 'chrome://settings', lastAccessed: 40 },
    ];
    expect(readableTab(tabs, 1)?.id).to.equal(3);
    expect(readableTab(tabs, 3)?.id).to.equal(2);
    expect(readableTab([tabs[0], tabs[3]], 1)).to.equal(undefined);
  });
});
