// Recording a tab the person picks in Chrome's own share picker, from the side panel. Chrome lets
// tabCapture take a tab only after the person invoked Tabwright on it (toolbar button or key); a
// click in the side panel is still a user gesture, and getDisplayMedia accepts it: Chrome shows its
// picker, tabs first, and the person chooses. The stream belongs to this document and cannot move,
// so the MediaRecorder runs here and sends each second's chunk to the offscreen document
// (offscreen/relay.js), which keeps the recording, its caps and its status. While it has the stream
// this panel holds a Web Lock named "tabwright-relay:<tabId>:<id>": the worker's start finds it and
// records this stream, and the offscreen document learns from it when the panel closes (the
// recording then ends and is saved with what arrived, at most the last second short).

const CHANNEL = 'tabwright-recorder-relay';
const MIME = ['video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8,opus', 'video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'];
/** How long the panel keeps its lock after its last chunk, waiting for the offscreen 'bye' (a hang guard). */
const BYE_GUARD_MS = 10_000;

/**
 * Chrome's picker, tabs offered first; the stream the person chose, or null when they closed the
 * picker without choosing. Call it straight from the click (it needs the gesture).
 * @param {boolean} audio whether settings ask for the tab's sound
 * @returns {Promise<MediaStream | null>}
 */
export async function pickTab(audio) {
  /** Chrome's screen-sharing options (the standard's hints; the DOM typings lack some). */
  const options = {
    video: { displaySurface: 'browser' },
    audio,
    // The tab beside this panel is the one a person most likely wants: keep it in the list.
    selfBrowserSurface: 'include',
    // Chrome's "share this tab instead" button moves the recording to another tab without a new picker.
    surfaceSwitching: 'include',
    systemAudio: 'exclude',
    monitorTypeSurfaces: 'exclude',
  };
  try {
    return await navigator.mediaDevices.getDisplayMedia(/** @type {DisplayMediaStreamOptions} */ (options));
  } catch (err) {
    // NotAllowedError: the person closed the picker (or Chrome refused without a gesture).
    if (err instanceof DOMException && err.name === 'NotAllowedError') return null;
    throw err;
  }
}

/**
 * Offers a picked stream for the tab: holds the lock, and records when the offscreen document says
 * 'go', until it says 'stop', the person stops sharing (Chrome's own bar), or the picked tab closes.
 * @param {MediaStream} stream @param {number} tabId
 * @returns {Promise<{ drop(): void }>} drop: the recording did not start; let the stream go
 */
export async function offerStream(stream, tabId) {
  const lock = `tabwright-relay:${tabId}:${crypto.randomUUID()}`;
  const channel = new BroadcastChannel(CHANNEL);
  /** @type {MediaRecorder | null} */
  let recorder = null;
  let closed = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let guard;
  /** @type {() => void} */
  let letGo = () => {};
  const held = new Promise((resolve) => { letGo = () => resolve(undefined); });
  await new Promise((granted) => { navigator.locks.request(lock, () => { granted(undefined); return held; }); });

  function finish() {
    if (closed) return;
    closed = true;
    clearTimeout(guard);
    for (const t of stream.getTracks()) t.stop();
    channel.close();
    letGo();
  }
  // Each chunk goes as its bytes, in order: a Blob made here may still be on its way to the browser's
  // blob store when the panel closes, and would reach the offscreen document broken; bytes in a
  // message arrive whole or not at all.
  let sending = Promise.resolve();
  /** @param {() => Promise<object>} make */
  const send = (make) => { sending = sending.then(make).then((m) => { if (!closed) channel.postMessage(m); }).catch(() => {}); return sending; };
  function begin() {
    const mimeType = MIME.find((m) => MediaRecorder.isTypeSupported(m) && (stream.getAudioTracks().length > 0 || !m.includes('opus'))) ?? 'video/webm';
    const rec = new MediaRecorder(stream, { mimeType, videoBitsPerSecond: 2_500_000 });
    rec.ondataavailable = (e) => {
      const blob = e.data;
      if (blob.size && !closed) send(async () => ({ type: 'chunk', lock, bytes: await blob.arrayBuffer(), mimeType: blob.type }));
    };
    rec.onstop = () => {
      if (closed) return;
      send(async () => ({ type: 'end', lock })).then(() => { guard = setTimeout(finish, BYE_GUARD_MS); });
    };
    rec.start(1000);
    recorder = rec;
  }
  function halt() {
    if (recorder && recorder.state !== 'inactive') recorder.stop();
    else if (!recorder) finish();
  }
  channel.onmessage = (e) => {
    const m = e.data;
    if (m?.lock !== lock) return;
    if (m.type === 'go' && !recorder) begin();
    else if (m.type === 'stop') halt();
    else if (m.type === 'bye') finish();
  };
  // The person pressed Chrome's "Stop sharing", or the picked tab closed.
  stream.getVideoTracks()[0]?.addEventListener('ended', halt);
  return { drop: finish };
}
