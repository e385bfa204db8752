import { expect } from 'chai';
import { urlFamily } from '../../src/chrome/agent/url-family.js';

describe('url families', () => {
  it('puts a GitHub file seen as blob page, raw file and contents API in one family', () => {
    const blob = urlFamily('https://github.com/acme/tool/blob/main/src/index.js');
    expect(urlFamily('https://raw.githubusercontent.com/acme/tool/main/src/index.js')).to.equal(blob);
    expect(urlFamily('https://raw.githubusercontent.com/acme/tool/refs/heads/main/src/index.js')).to.equal(blob);
    expect(urlFamily('https://api.github.com/repos/acme/tool/contents/src/index.js?ref=main')).to.equal(blob);
    expect(urlFamily('https://github.com/acme/tool/blob/v2/src/other.js')).to.not.equal(blob);
  });
  it('drops tracking parameters, fragments, www, trailing slashes and parameter order', () => {
    const a = urlFamily('https://www.shop.test/items/?b=2&a=1&utm_source=mail&gclid=x#reviews');
    expect(a).to.equal('shop.test/items?a=1&b=2');
    expect(urlFamily('http://shop.test/items?a=1&b=2&fbclid=zz')).to.equal(a);
    expect(urlFamily('https://shop.test/items?a=1&b=3')).to.not.equal(a);
  });
  it('maps blob: object URLs to the page origin and leaves non-URLs as they are', () => {
    expect(urlFamily('blob:https://app.test/0b9f-42')).to.equal('app.test/');
    expect(urlFamily('not a url')).to.equal('not a url');
  });
});
