// The download part of the hold: a download the held tab starts is shown with the type the server
// declared (an executable served as application/x-msdownload says so on the card), paused until the
// policy decides, and removed when declined.
import { expect } from 'chai';
import { createDownloadHold } from '../../src/chrome/service/download-hold.js';

/** @import { HeldRequest } from '../../src/chrome/types/safety' */

describe('download hold', () => {
  /** @type {any} */
  const g = globalThis;
  /** @type {unknown} */
  let saved;
  afterEach(() => { g.browser = saved; });

  it('names the MIME type of a download and cancels it when declined', async () => {
    saved = g.browser;
    /** @type {((item: any) => Promise<void>) | null} */
    let created = null;
    /** @type {string[]} */
    const calls = [];
    g.browser = {
      downloads: {
        onCreated: { addListener: (/** @type {any} */ l) => { created = l; } },
        pause: async (/** @type {number} */ id) => { calls.push(`pause ${id}`); },
        resume: async (/** @type {number} */ id) => { calls.push(`resume ${id}`); },
        cancel: async (/** @type {number} */ id) => { calls.push(`cancel ${id}`); },
        removeFile: async (/** @type {number} */ id) => { calls.push(`remove ${id}`); },
        erase: async () => [],
      },
      tabs: { get: async () => ({ url: 'https://files.test/list' }) },
    };
    /** @type {HeldRequest[]} */
    const seen = [];
    const release = createDownloadHold().arm(4, { wants: () => true, decide: async (req) => { seen.push(req); return false; } });
    await /** @type {any} */ (created)({ id: 9, url: 'https://files.test/setup.exe', referrer: 'https://files.test/list', filename: '/home/u/Downloads/setup.exe', mime: 'application/x-msdownload' });
    release();
    expect(seen).to.deep.equal([{ kind: 'download', method: 'GET', url: 'https://files.test/setup.exe', type: 'download', topLevel: false, filename: 'setup.exe', mime: 'application/x-msdownload' }]);
    expect(calls).to.deep.equal(['pause 9', 'cancel 9', 'remove 9']);
  });

  it('never holds the extension\'s own downloads (a tab recording) while a run holds the tab', async () => {
    saved = g.browser;
    /** @type {((item: any) => Promise<void>) | null} */
    let created = null;
    /** @type {string[]} */
    const calls = [];
    g.browser = {
      runtime: { id: 'tabwright-id', getURL: (/** @type {string} */ p) => `chrome-extension://tabwright-id/${p}` },
      downloads: {
        onCreated: { addListener: (/** @type {any} */ l) => { created = l; } },
        pause: async (/** @type {number} */ id) => { calls.push(`pause ${id}`); },
        resume: async () => {}, cancel: async () => {}, removeFile: async () => {}, erase: async () => [],
      },
      tabs: { get: async () => ({ url: 'https://shop.test/' }) },
    };
    /** @type {HeldRequest[]} */
    const seen = [];
    const release = createDownloadHold().arm(4, { wants: () => true, decide: async (req) => { seen.push(req); return false; } });
    await /** @type {any} */ (created)({ id: 1, url: 'blob:chrome-extension://tabwright-id/5a1e', byExtensionId: 'tabwright-id', filename: 'Tabwright/shop.test.webm' });
    await /** @type {any} */ (created)({ id: 2, url: 'blob:chrome-extension://tabwright-id/77aa', filename: 'Tabwright/export.json' });
    await /** @type {any} */ (created)({ id: 3, url: 'https://shop.test/invoice.pdf', referrer: 'https://shop.test/', filename: 'invoice.pdf', mime: 'application/pdf' });
    release();
    expect(seen.map((r) => r.url)).to.deep.equal(['https://shop.test/invoice.pdf']);
    expect(calls).to.deep.equal(['pause 3']);
  });
});
