// The download part of the hold: a download the held tab starts is shown with the type the server
// declared (an executable served as application/x-msdownload says so on the card), paused until the
// policy decides, and removed when declined.
import { expect } from 'chai';
import { createDownloadHold } from '../../src/chrome/service/download-hold.js';
import { createFirstBytes, firstBytesOf, savedResponse, MAX_READ_BYTES } from '../../src/chrome/agent/safety/first-bytes.js';
import { executableKind } from '../../src/chrome/agent/safety/executables.js';
import { createPolicy } from '../../src/chrome/agent/safety/policy.js';
import { createTaskScope } from '../../src/chrome/agent/safety/scope.js';

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

  it('adds the first bytes the platform read to the type, so a program under a document\'s name and type asks', async () => {
    saved = g.browser;
    /** @type {((item: any) => Promise<void>) | null} */
    let created = null;
    g.browser = {
      downloads: {
        onCreated: { addListener: (/** @type {any} */ l) => { created = l; } },
        pause: async () => {}, resume: async () => {}, cancel: async () => {}, removeFile: async () => {}, erase: async () => [],
      },
      tabs: { get: async () => ({ url: 'https://files.test/list' }) },
    };
    /** @type {HeldRequest[]} */
    const seen = [];
    const mz = Buffer.from('MZ\x90\x00', 'latin1').toString('base64');
    const hold = createDownloadHold(async (url) => (url.endsWith('report.pdf') ? mz : undefined));
    const release = hold.arm(4, { wants: () => true, decide: async (req) => { seen.push(req); return false; } });
    await /** @type {any} */ (created)({ id: 1, url: 'https://files.test/report.pdf', filename: 'report.pdf', mime: 'application/pdf' });
    await /** @type {any} */ (created)({ id: 2, url: 'https://files.test/real.pdf', filename: 'real.pdf', mime: 'application/pdf' });
    release();
    expect(seen.map((r) => r.mime)).to.deep.equal([`application/pdf;base64,${mz}`, 'application/pdf']);
    const policy = createPolicy({ scope: createTaskScope('https://files.test/list', 'get the report') });
    const verdict = policy.judgeRequest(seen[0], { pageUrl: 'https://files.test/list', cause: 'click link "Report"' });
    expect(verdict.action === 'ask' && [verdict.request.rule, verdict.request.severity, verdict.request.reason]).to.deep.equal(['executable_download', 'high', 'The file is a program or script (its first bytes are those of one): opened, it runs with your rights on this computer.']);
    expect(policy.judgeRequest(seen[1], { pageUrl: 'https://files.test/list', cause: 'click link "Real"' }).action).to.equal('allow');
  });
});

describe('first bytes of a download (agent/safety/first-bytes.js)', () => {
  const h = (/** @type {Record<string, string>} */ o) => Object.entries(o).map(([name, value]) => ({ name, value }));
  it('reads what the browser saves: an attachment, or a type it does not show; never an error, a page or a huge body', () => {
    expect(savedResponse(h({ 'Content-Type': 'application/pdf' }), 200)).to.equal(true);
    expect(savedResponse(h({ 'content-type': 'text/html', 'content-disposition': 'attachment; filename="a.html"' }), 200)).to.equal(true);
    expect(savedResponse(h({ 'content-type': 'text/html; charset=utf-8' }), 200)).to.equal(false);
    expect(savedResponse(h({ 'content-type': 'image/png' }), 200)).to.equal(false);
    expect(savedResponse(h({ 'content-type': 'application/octet-stream' }), 404)).to.equal(false);
    expect(savedResponse(h({ 'content-type': 'application/octet-stream', 'content-length': String(MAX_READ_BYTES + 1) }), 200)).to.equal(false);
  });

  it('keeps the first 16 bytes by URL, the newest 200 URLs', () => {
    const bytes = createFirstBytes();
    bytes.note('https://a.test/x', new TextEncoder().encode('#!/bin/sh\necho this is longer than sixteen'));
    expect(Buffer.from(/** @type {string} */ (bytes.get('https://a.test/x')), 'base64').toString()).to.equal('#!/bin/sh\necho t');
    for (let i = 0; i < 200; i++) bytes.note(`https://a.test/${i}`, new Uint8Array([i]));
    expect(bytes.get('https://a.test/x')).to.equal(undefined);
    expect(bytes.get('https://a.test/199')).to.equal(firstBytesOf(new Uint8Array([199])));
  });

  it('tells every magic number the policy knows, and a zip only by a .jar or .apk name', () => {
    const b64 = (/** @type {number[]} */ b) => Buffer.from(b).toString('base64');
    /** @param {number[]} b @param {string} [name] */
    const kind = (b, name = 'file.dat') => executableKind({ kind: 'download', method: 'GET', url: `https://a.test/${name}`, type: 'download', topLevel: false, filename: name, mime: `application/octet-stream;base64,${b64(b)}` });
    for (const magic of [[0x4d, 0x5a], [0x7f, 0x45, 0x4c, 0x46], [0xcf, 0xfa, 0xed, 0xfe], [0xce, 0xfa, 0xed, 0xfe], [0xca, 0xfe, 0xba, 0xbe], [0x23, 0x21]]) {
      expect(kind([...magic, 0, 0]), magic.join(',')).to.contain('first bytes');
    }
    expect(kind([0x25, 0x50, 0x44, 0x46])).to.equal(null);
    expect(kind([0x50, 0x4b, 3, 4])).to.equal(null);
    expect(kind([0x50, 0x4b, 3, 4], 'tool.jar')).to.contain('.jar');
    expect(kind([0x50, 0x4b, 3, 4], 'app.apk')).to.contain('.apk');
  });
});
