// The recording of a tab picked in Chrome's share picker: the panel's MediaRecorder
// (ui/panel-capture.js) sends its chunks to the offscreen document (offscreen/recorder.js through
// relay.js) over a real BroadcastChannel. Checked here: a stop waits for the panel's last chunk, the
// size cap stops the panel, and a panel that closes mid-recording leaves a saved recording of what
// arrived. The Web Lock manager and the MediaRecorder are small doubles (Node has neither).
import { expect } from 'chai';

/** An exclusive Web Lock manager: request, query, and a holder that can vanish (its document closed). */
function fakeLocks() {
  /** @type {Map<string, { release: () => void }>} */
  const held = new Map();
  /** @type {Map<string, Array<() => void>>} */
  const queue = new Map();
  function grant(name) {
    const next = queue.get(name)?.shift();
    if (next) next();
  }
  return {
    held,
    /** @param {string} name @param {() => Promise<unknown> | unknown} cb */
    request(name, cb) {
      return new Promise((resolve) => {
        const run = () => {
          let released = false;
          const release = () => { if (released) return; released = true; held.delete(name); grant(name); };
          held.set(name, { release });
          Promise.resolve().then(cb).then((v) => { release(); resolve(v); });
        };
        if (held.has(name)) queue.set(name, [...(queue.get(name) ?? []), run]); else run();
      });
    },
    async query() { return { held: [...held.keys()].map((name) => ({ name })), pending: [] }; },
    /** The holder's document is gone: Chrome releases its lock. @param {string} name */
    vanish(name) { held.get(name)?.release(); },
  };
}

/** A MediaRecorder double: chunks are emitted by the test; stop() emits the last one, then onstop. */
class FakeRecorder {
  /** @type {FakeRecorder[]} */
  static made = [];
  static isTypeSupported() { return true; }
  constructor() {
    this.state = 'inactive';
    this.mimeType = 'video/webm;codecs=vp9';
    /** @type {((e: { data: Blob }) => void) | null} */ this.ondataavailable = null;
    /** @type {(() => void) | null} */ this.onstop = null;
    FakeRecorder.made.push(this);
  }
  start() { this.state = 'recording'; }
  /** @param {string} text */
  emit(text) { this.ondataavailable?.({ data: new Blob([text], { type: this.mimeType }) }); }
  stop() {
    this.state = 'inactive';
    setTimeout(() => { this.emit('last'); this.onstop?.(); }, 0);
  }
}

function fakeStream() {
  /** @type {Array<() => void>} */
  const onEnded = [];
  const track = { stopped: false, stop() { this.stopped = true; }, addEventListener: (/** @type {string} */ _t, /** @type {() => void} */ f) => { onEnded.push(f); } };
  return { track, end: () => onEnded.forEach((f) => f()), getTracks: () => [track], getVideoTracks: () => [track], getAudioTracks: () => [] };
}

/** @param {() => any} fn @returns {Promise<any>} */
async function until(fn, what = 'the condition') {
  for (let i = 0; i < 500; i++) { const v = await fn(); if (v) return v; await new Promise((r) => setTimeout(r, 5)); }
  throw new Error(`never: ${what}`);
}

describe('recorder relay: a tab picked in the share picker, recorded by the panel and kept by the offscreen document', () => {
  /** @type {ReturnType<typeof fakeLocks>} */ let locks;
  /** @type {any[]} */ let sent;
  /** @type {typeof import('../../src/chrome/offscreen/recorder.js')} */ let offscreen;
  /** @type {typeof import('../../src/chrome/ui/panel-capture.js')} */ let panel;
  const saved = { navigator: Object.getOwnPropertyDescriptor(globalThis, 'navigator'), MediaRecorder: /** @type {any} */ (globalThis).MediaRecorder };

  before(async () => {
    locks = fakeLocks();
    Object.defineProperty(globalThis, 'navigator', { value: { locks }, configurable: true, writable: true });
    /** @type {any} */ (globalThis).MediaRecorder = FakeRecorder;
    offscreen = await import('../../src/chrome/offscreen/recorder.js');
    offscreen.onFinished((file) => { sent.push({ type: 'offscreen.recorder.finished', file }); });
    panel = await import('../../src/chrome/ui/panel-capture.js');
  });
  beforeEach(() => { sent = []; FakeRecorder.made = []; });
  after(() => {
    if (saved.navigator) Object.defineProperty(globalThis, 'navigator', saved.navigator); else delete (/** @type {any} */ (globalThis)).navigator;
    /** @type {any} */ (globalThis).MediaRecorder = saved.MediaRecorder;
  });

  /** The panel offers a picked stream for tab 7; the offscreen document starts on its lock. */
  async function startPicked(maxBytes = 1_000_000) {
    const stream = fakeStream();
    await panel.offerStream(/** @type {any} */ (stream), 7);
    const lock = /** @type {string} */ ((await locks.query()).held.map((l) => l.name).find((n) => n.startsWith('tabwright-relay:7:')));
    expect(lock, 'the panel holds its lock while it has the stream').to.be.a('string');
    const started = await offscreen.start({ relay: lock, tabId: 7, audio: false, maxSeconds: 60, maxBytes });
    expect(started).to.deep.include({ ok: true });
    const rec = /** @type {FakeRecorder} */ (await until(() => FakeRecorder.made[0], 'the panel\'s MediaRecorder'));
    return { stream, lock, rec };
  }

  it('a stop asks the panel for its last chunk and keeps every chunk; the panel then lets its stream and lock go', async () => {
    const { stream, lock, rec } = await startPicked();
    rec.emit('first');
    await until(() => offscreen.status().bytes === 5, 'the first chunk');
    const stopped = /** @type {any} */ (await offscreen.stop());
    expect(stopped.ok).to.equal(true);
    expect(stopped.data).to.include({ bytes: 'firstlast'.length, reason: 'stopped', tabId: 7 });
    expect(offscreen.status()).to.deep.equal({ recording: false });
    await until(() => stream.track.stopped && !locks.held.has(lock), 'the panel to let go');
    offscreen.release({ url: stopped.data.url });
  });

  it('the size cap stops the panel\'s recorder; the file is saved with reason max_size', async () => {
    const { rec } = await startPicked(8);
    rec.emit('0123456789');
    const msg = await until(() => sent.find((m) => m.type === 'offscreen.recorder.finished'), 'the finished message');
    expect(msg.file).to.include({ reason: 'max_size', bytes: '0123456789last'.length });
    offscreen.release({ url: msg.file.url });
  });

  it('Chrome\'s "Stop sharing" ends the panel\'s stream: the recording is saved as stopped', async () => {
    const { stream, rec } = await startPicked();
    rec.emit('abc');
    stream.end();
    const msg = await until(() => sent.find((m) => m.type === 'offscreen.recorder.finished'), 'the finished message');
    expect(msg.file).to.include({ reason: 'stopped', bytes: 'abclast'.length });
    offscreen.release({ url: msg.file.url });
  });

  it('a panel that closes mid-recording (its lock released, no last word) leaves a saved recording of what arrived', async () => {
    // The panel's side played by hand, so it can vanish without saying 'end'.
    const lock = 'tabwright-relay:9:gone';
    const channel = new BroadcastChannel('tabwright-recorder-relay');
    channel.onmessage = (e) => { if (e.data?.type === 'go' && e.data.lock === lock) channel.postMessage({ type: 'chunk', lock, bytes: new TextEncoder().encode('sent-before-closing').buffer, mimeType: 'video/webm' }); };
    /** @type {() => void} */ let hold = () => {};
    locks.request(lock, () => new Promise((r) => { hold = () => r(undefined); }));
    expect((await offscreen.start({ relay: lock, tabId: 9, audio: false, maxSeconds: 60, maxBytes: 1_000_000 })).ok).to.equal(true);
    await until(() => offscreen.status().bytes === 'sent-before-closing'.length, 'the chunk');
    channel.close();
    locks.vanish(lock);
    const msg = await until(() => sent.find((m) => m.type === 'offscreen.recorder.finished'), 'the finished message');
    expect(msg.file).to.include({ reason: 'stopped', tabId: 9, bytes: 'sent-before-closing'.length });
    expect(offscreen.status()).to.deep.equal({ recording: false });
    hold();
    offscreen.release({ url: msg.file.url });
  });
});
