// The record key (Chrome's "Record this tab" command): each press starts a recording of the tab it was
// pressed on with the caps from settings, or stops the one going on; a refusal is told in that tab's
// conversation with the recorder's own code and sentence. The manifest gives the command its key.
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRecordShortcut } from '../../src/chrome/service/record-shortcut.js';

/** A recorder that records what it was asked, and refuses tabs listed in `refuse`. @param {number[]} [refuse] */
function fakeRecorder(refuse = []) {
  /** @type {((tabId: number) => void) | null} */
  let pressed = null;
  /** @type {number | null} */
  let recording = null;
  /** @type {string[]} */
  const calls = [];
  const recorder = {
    async start(/** @type {number} */ tabId, /** @type {{ audio: boolean, maxSeconds: number, maxBytes: number }} */ opts) {
      calls.push(`start ${tabId} ${opts.maxSeconds}s ${opts.maxBytes}B audio=${opts.audio}`);
      if (refuse.includes(tabId)) throw Object.assign(new Error('Press Alt+Shift+V on the tab.'), { code: 'RECORDING_NOT_ALLOWED' });
      recording = tabId;
      return { recording: true, tabId };
    },
    async stop() {
      calls.push(`stop ${recording}`);
      const tabId = /** @type {number} */ (recording);
      recording = null;
      return { tabId, filename: 'Tabwright/x.webm', downloadId: 1, bytes: 1, seconds: 1, mimeType: 'video/webm', reason: /** @type {const} */ ('stopped') };
    },
    async status() { return recording === null ? { recording: false } : { recording: true, tabId: recording }; },
    onFinished() {},
    onShortcut(/** @type {(tabId: number) => void} */ l) { pressed = l; },
  };
  /** @param {number} tabId */
  const press = async (tabId) => { /** @type {(t: number) => void} */ (pressed)(tabId); await new Promise((r) => setTimeout(r, 5)); };
  return { recorder, calls, press };
}

const settings = { get: async () => /** @type {any} */ ({ recorder: { maxSeconds: 60, maxMB: 2, audio: true } }) };

describe('the record key', () => {
  it('starts a recording of the tab it is pressed on with the caps from settings, and the next press stops it', async () => {
    const { recorder, calls, press } = fakeRecorder();
    /** @type {string[]} */
    const told = [];
    startRecordShortcut(recorder, settings, (tabId, code, message) => told.push(`${tabId} ${code} ${message}`));
    await press(7);
    await press(9);
    expect(calls).to.deep.equal(['start 7 60s 2097152B audio=true', 'stop 7']);
    expect(told).to.deep.equal([]);
  });

  it('tells a refusal in the tab\'s conversation, with the recorder\'s code and sentence', async () => {
    const { recorder, calls, press } = fakeRecorder([3]);
    /** @type {string[]} */
    const told = [];
    startRecordShortcut(recorder, settings, (tabId, code, message) => told.push(`${tabId} ${code} ${message}`));
    await press(3);
    expect(calls).to.deep.equal(['start 3 60s 2097152B audio=true']);
    expect(told).to.deep.equal(['3 RECORDING_NOT_ALLOWED Press Alt+Shift+V on the tab.']);
  });

  it('is the Chrome manifest\'s "record-tab" command, Alt+Shift+V, described in every language', async () => {
    const src = join(dirname(fileURLToPath(import.meta.url)), '../../src/chrome');
    const manifest = JSON.parse(await readFile(join(src, 'manifest.json'), 'utf8'));
    expect(manifest.commands['record-tab']).to.deep.equal({ suggested_key: { default: 'Alt+Shift+V' }, description: '__MSG_commandRecordTab__' });
    expect(manifest.permissions).to.include('tabCapture');
    const en = JSON.parse(await readFile(join(src, '_locales/en/messages.json'), 'utf8'));
    expect(en.commandRecordTab.message).to.equal('Record this tab (press again to stop)');
  });
});
