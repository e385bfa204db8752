import { expect } from 'chai';
import { executableDownload, undeclaredDownload, downloadSite } from '../../../src/chrome/agent/safety/rules/download.js';
import { memoryOf, held, cardOf } from './facts.js';

const download = (/** @type {Partial<import('../../../src/chrome/types/safety').HeldRequest>} */ r) => held({ kind: 'download', method: 'GET', type: 'download', ...r });

describe('policy rules: downloads', () => {
  it('apply to downloads only', () => {
    const m = memoryOf();
    for (const rule of [executableDownload, undeclaredDownload, downloadSite]) {
      expect(rule.appliesTo(download({}), m), rule.name).to.equal(true);
      expect(rule.appliesTo(held({}), m), rule.name).to.equal(false);
    }
  });

  it('asks about a program at high severity, even on an always-allowed site in the task', () => {
    const m = memoryOf({ alwaysAllow: ['shop.test'] });
    const card = cardOf(executableDownload.decide(download({ url: 'https://shop.test/setup.exe', filename: 'setup.exe' }), m));
    expect(card).to.deep.include({ rule: 'executable_download', severity: 'high', action: 'Download "setup.exe" from https://shop.test/setup.exe' });
    expect(card.reason).to.contain('a program or script (.exe)');
    expect(executableDownload.decide(download({ url: 'https://shop.test/a.pdf', filename: 'a.pdf', mime: 'application/pdf' }), m)).to.equal(null);
  });

  it('asks when a document\'s server will not say what it is', () => {
    const m = memoryOf();
    const card = cardOf(undeclaredDownload.decide(download({ url: 'https://shop.test/invoice.pdf', filename: 'invoice.pdf', mime: 'application/octet-stream' }), m));
    expect(card).to.deep.include({ rule: 'executable_download', severity: 'normal' });
    expect(card.details).to.deep.equal([{ label: 'file', value: 'invoice.pdf' }, { label: 'type', value: 'application/octet-stream' }]);
    expect(undeclaredDownload.decide(download({ url: 'https://shop.test/invoice.pdf', mime: 'application/pdf' }), m)).to.equal(null);
  });

  it('lets a file from the task\'s sites go and asks about one from elsewhere, coverable by the site', () => {
    const m = memoryOf();
    expect(downloadSite.decide(download({ url: 'https://shop.test/a.pdf' }), m)).to.deep.equal({ action: 'allow' });
    const card = cardOf(downloadSite.decide(download({ url: 'https://files.test/a.pdf' }), m));
    expect(card).to.deep.include({ rule: 'leave_scope', scopeKey: 'https://files.test', reason: 'files.test is not one of this task\'s sites.' });
    expect(m.cardUrls.get(card)).to.equal('https://files.test/a.pdf');
  });
});
