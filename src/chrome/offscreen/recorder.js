// The tab recorder's half in the offscreen document: it owns the recording's chunks, caps and status,
// so a recording outlives the service worker (Chrome may stop the worker at any time). The stream
// comes from one of two sources: tab capture (a stream id the worker got from tabCapture, recorded
// here), or the side panel's own MediaRecorder on a tab the person picked in Chrome's share picker
// (relay.js). It stops by itself at the time or size cap, or when the source ends (the tab closed,
// the person stopped sharing, the panel closed); then it tells the worker, which saves the file
// through downloads.
import { withDuration } from './webm-duration.js';
import { relayedSource } from './relay.js';
import { fail } from '../agent/error-codes.js';

/** @typedef {{ url: string, bytes: number, ms: number, mimeType: string, reason: 'stopped' | 'max_duration' | 'max_size' | 'tab_closed', tabId: number, startedAt: number }} Finished */
/** @typedef {{ halt(): Promise<void>, release(): void, mimeType?: string }} Source stops; resolves once every chunk is in */
/** @typedef {{ chunk(blob: Blob): void, ended(): void }} Sink */

/** @typedef {{ source: Source, chunks: Blob[], bytes: number, tabId: number, startedAt: number, audio: boolean, timer: ReturnType<typeof setTimeout>, maxBytes: number, stopping: Promise<Finished> | null, stopReason: Finished['reason'] }} Recording */

/** @type {Recording | null} */
let current = null;
/** The last recording that ended, until its file is saved. @type {Finished | null} */
let last = null;
/** Who is told of a recording that ended by itself (offscreen.js tells the worker). @type {(file: Finished) => void} */
let tell = () => {};

/** @param {(file: Finished) => void} listener */
export function onFinished(listener) { tell = listener; }

const MIME = ['video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8,opus', 'video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'];

/**
 * Tab capture: the stream id becomes a stream here, recorded here.
 * @param {{ streamId: string, audio: boolean }} msg @param {Sink} sink @returns {Promise<Source & { audio: boolean }>}
 */
async function capturedSource(msg, sink) {
  const source = { mandatory: { chromeMediaSource: 'tab', chromeMediaSourceId: msg.streamId } };
  const stream = await navigator.mediaDevices.getUserMedia(/** @type {any} */ ({ video: source, audio: msg.audio ? source : false }));
  // Captured audio is muted in the tab unless it is played back here too.
  /** @type {AudioContext | null} */
  let audioContext = null;
  if (msg.audio && stream.getAudioTracks().length) {
    audioContext = new AudioContext();
    audioContext.createMediaStreamSource(stream).connect(audioContext.destination);
  }
  const mimeType = MIME.find((m) => MediaRecorder.isTypeSupported(m) && (msg.audio || !m.includes('opus'))) ?? 'video/webm';
  const recorder = new MediaRecorder(stream, { mimeType, videoBitsPerSecond: 2_500_000 });
  recorder.ondataavailable = (e) => { if (e.data.size) sink.chunk(e.data); };
  // The tab closed (or navigated to a page Chrome will not capture): the stream ends.
  stream.getVideoTracks()[0]?.addEventListener('ended', () => sink.ended());
  const stopped = new Promise((resolve) => { recorder.onstop = () => resolve(undefined); });
  recorder.start(1000);
  return {
    mimeType: recorder.mimeType,
    audio: audioContext !== null,
    halt() { if (recorder.state !== 'inactive') recorder.stop(); return stopped; },
    release() { for (const t of stream.getTracks()) t.stop(); audioContext?.close().catch(() => {}); },
  };
}

/** @param {{ streamId?: string, relay?: string, tabId: number, audio: boolean, maxSeconds: number, maxBytes: number }} msg */
export async function start(msg) {
  if (current) return fail('RECORDING_BUSY', `of another tab, since ${new Date(current.startedAt).toLocaleTimeString()}`);
  /** The recording once it is set up; chunks that come before wait in early. @type {{ rec: Recording | null }} */
  const made = { rec: null };
  /** @type {Blob[]} */
  const early = [];
  /** @type {Sink} */
  const sink = {
    chunk(blob) {
      const rec = made.rec;
      if (!rec) { early.push(blob); return; }
      rec.chunks.push(blob);
      rec.bytes += blob.size;
      if (rec.bytes >= rec.maxBytes) finishBySelf('max_size');
    },
    // The tab-capture stream ended with its tab; the panel's stream ended because the person stopped
    // sharing (Chrome's own bar), the picked tab closed, or the panel closed.
    ended() { if (made.rec && current === made.rec) finishBySelf(msg.relay ? 'stopped' : 'tab_closed'); },
  };
  const source = msg.relay ? { ...relayedSource(msg.relay, sink), audio: msg.audio } : await capturedSource(/** @type {{ streamId: string, audio: boolean }} */ (msg), sink);
  /** @type {Recording} */
  const rec = {
    source, chunks: early, bytes: early.reduce((n, b) => n + b.size, 0), tabId: msg.tabId, startedAt: Date.now(), audio: source.audio,
    timer: setTimeout(() => finishBySelf('max_duration'), msg.maxSeconds * 1000), maxBytes: msg.maxBytes, stopping: null, stopReason: /** @type {Finished['reason']} */ ('stopped'),
  };
  made.rec = rec;
  current = rec;
  return { ok: true, data: status() };
}

export function status() {
  return current ? { recording: true, tabId: current.tabId, startedAt: current.startedAt, bytes: current.bytes, audio: current.audio } : { recording: false };
}

/** @param {Finished['reason']} reason @returns {Promise<Finished>} */
function stopNow(reason) {
  const rec = /** @type {NonNullable<typeof current>} */ (current);
  rec.stopReason = rec.stopping ? rec.stopReason : reason;
  rec.stopping ??= (async () => {
    clearTimeout(rec.timer);
    await rec.source.halt();
    rec.source.release();
    const ms = Date.now() - rec.startedAt;
    const type = rec.source.mimeType ?? rec.chunks[0]?.type ?? 'video/webm';
    const blob = await withDuration(new Blob(rec.chunks, { type }), ms);
    if (current === rec) current = null;
    last = { url: URL.createObjectURL(blob), bytes: blob.size, ms, mimeType: blob.type || 'video/webm', reason: rec.stopReason, tabId: rec.tabId, startedAt: rec.startedAt };
    return last;
  })();
  return rec.stopping;
}

/** A cap or the source ended the recording: the worker is told to save it. @param {Finished['reason']} reason */
async function finishBySelf(reason) {
  if (!current || current.stopping) return;
  tell(await stopNow(reason));
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
