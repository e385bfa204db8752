// The tab recorder's half in the offscreen document: it owns the MediaStream and the MediaRecorder,
// so a recording outlives the service worker (Chrome may stop the worker at any time). It stops by
// itself at the time or size cap, or when the tab's stream ends (the tab closed); then it tells the
// worker, which saves the file through downloads.
import { withDuration } from './webm-duration.js';
import { fail } from '../agent/error-codes.js';

/** @typedef {{ url: string, bytes: number, ms: number, mimeType: string, reason: 'stopped' | 'max_duration' | 'max_size' | 'tab_closed', tabId: number, startedAt: number }} Finished */

/** @type {{ recorder: MediaRecorder, stream: MediaStream, chunks: Blob[], bytes: number, tabId: number, startedAt: number, audio: boolean, timer: ReturnType<typeof setTimeout>, maxBytes: number, audioContext: AudioContext | null, stopping: Promise<Finished> | null, stopReason: Finished['reason'] } | null} */
let current = null;
/** The last recording that ended, until its file is saved. @type {Finished | null} */
let last = null;

const MIME = ['video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8,opus', 'video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'];

/** @param {{ streamId: string, tabId: number, audio: boolean, maxSeconds: number, maxBytes: number }} msg */
export async function start(msg) {
  if (current) return fail('RECORDING_BUSY', `of another tab, since ${new Date(current.startedAt).toLocaleTimeString()}`);
  const source = { mandatory: { chromeMediaSource: 'tab', chromeMediaSourceId: msg.streamId } };
  const stream = await navigator.mediaDevices.getUserMedia(/** @type {any} */ ({ video: source, audio: msg.audio ? source : false }));
  // Captured audio is muted in the tab unless it is played back here too.
  let audioContext = null;
  if (msg.audio && stream.getAudioTracks().length) {
    audioContext = new AudioContext();
    audioContext.createMediaStreamSource(stream).connect(audioContext.destination);
  }
  const mimeType = MIME.find((m) => MediaRecorder.isTypeSupported(m) && (msg.audio || !m.includes('opus'))) ?? 'video/webm';
  const recorder = new MediaRecorder(stream, { mimeType, videoBitsPerSecond: 2_500_000 });
  const rec = {
    recorder, stream, chunks: /** @type {Blob[]} */ ([]), bytes: 0, tabId: msg.tabId, startedAt: Date.now(), audio: audioContext !== null,
    timer: setTimeout(() => finishBySelf('max_duration'), msg.maxSeconds * 1000), maxBytes: msg.maxBytes, audioContext, stopping: null, stopReason: /** @type {Finished['reason']} */ ('stopped'),
  };
  current = rec;
  recorder.ondataavailable = (e) => {
    if (!e.data.size) return;
    rec.chunks.push(e.data);
    rec.bytes += e.data.size;
    if (rec.bytes >= rec.maxBytes) finishBySelf('max_size');
  };
  // The tab closed (or navigated to a page Chrome will not capture): the stream ends.
  stream.getVideoTracks()[0]?.addEventListener('ended', () => finishBySelf('tab_closed'));
  recorder.start(1000);
  return { ok: true, data: status() };
}

export function status() {
  return current ? { recording: true, tabId: current.tabId, startedAt: current.startedAt, bytes: current.bytes, audio: current.audio } : { recording: false };
}

/** @param {Finished['reason']} reason @returns {Promise<Finished>} */
function stopNow(reason) {
  const rec = /** @type {NonNullable<typeof current>} */ (current);
  rec.stopReason = rec.stopping ? rec.stopReason : reason;
  rec.stopping ??= new Promise((resolve) => {
    clearTimeout(rec.timer);
    rec.recorder.onstop = async () => {
      for (const t of rec.stream.getTracks()) t.stop();
      rec.audioContext?.close().catch(() => {});
      const ms = Date.now() - rec.startedAt;
      const blob = await withDuration(new Blob(rec.chunks, { type: rec.recorder.mimeType }), ms);
      if (current === rec) current = null;
      last = { url: URL.createObjectURL(blob), bytes: blob.size, ms, mimeType: blob.type || 'video/webm', reason: rec.stopReason, tabId: rec.tabId, startedAt: rec.startedAt };
      resolve(last);
    };
    if (rec.recorder.state === 'inactive') /** @type {any} */ (rec.recorder.onstop)(); else rec.recorder.stop();
  });
  return rec.stopping;
}

/** A cap or the tab ended the recording: the worker is told to save it. @param {Finished['reason']} reason */
async function finishBySelf(reason) {
  if (!current || current.stopping) return;
  const file = await stopNow(reason);
  chrome.runtime.sendMessage({ type: 'offscreen.recorder.finished', file }).catch(() => {});
}

/** The worker asks to stop: the file comes back in the answer. */
export async function stop() {
  if (!current) {
    return fail('NOT_RECORDING', last ? `the recording had already ended (${last.reason.replace('_', ' ')}) and was saved` : undefined);
  }
  return { ok: true, data: await stopNow('stopped') };
}

/** The file was saved: its bytes can go. @param {{ url: string }} msg */
export function release(msg) {
  if (last?.url === msg.url) last = null;
  URL.revokeObjectURL(msg.url);
  return { ok: true, data: null };
}
