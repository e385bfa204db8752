// A recording whose stream lives in the side panel. Chrome hands a tab picked in its own share picker
// (getDisplayMedia) only to the document the person clicked in, and a MediaStream cannot move to
// another document; so the panel runs the MediaRecorder (ui/panel-capture.js) and sends each second's
// WebM chunk here over a BroadcastChannel, which only the extension's own pages can join. This
// document keeps the chunks, the caps and the status, as for a tab-capture recording, so neither the
// worker's stop nor the panel's closing loses what was recorded.
//
// The panel holds a Web Lock named for the recording while it records. This document asks for the
// same lock: Chrome grants it when the panel lets go or its document is gone (the panel closed), and
// then the recording ends with the chunks that arrived (at most the last second is missing).
// Messages, each naming the lock: here → panel 'go' | 'stop' | 'bye'; panel → here 'chunk' { bytes,
// mimeType } | 'end'. A chunk comes as its bytes, not a Blob: a Blob of a panel that closes may never
// reach the browser's blob store whole.

export const RELAY_CHANNEL = 'tabwright-recorder-relay';

/** How long a stop waits for the panel's last chunk before keeping what it has (a hang guard). */
const LAST_CHUNK_GUARD_MS = 10_000;

/**
 * Starts the panel's MediaRecorder and collects what it sends.
 * @param {string} lock the panel's lock for this recording
 * @param {{ chunk(blob: Blob): void, ended(): void }} sink chunks as they come; ended once the panel is done or gone
 * @returns {{ halt(): Promise<void>, release(): void }}
 */
export function relayedSource(lock, sink) {
  const channel = new BroadcastChannel(RELAY_CHANNEL);
  let done = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let guard;
  /** @type {() => void} */
  let over = () => {};
  const finished = new Promise((resolve) => { over = () => resolve(undefined); });

  function end() {
    if (done) return;
    done = true;
    clearTimeout(guard);
    channel.postMessage({ type: 'bye', lock });
    channel.close();
    over();
    sink.ended();
  }

  channel.onmessage = (e) => {
    const m = e.data;
    if (m?.lock !== lock || done) return;
    if (m.type === 'chunk' && m.bytes instanceof ArrayBuffer) sink.chunk(new Blob([m.bytes], { type: typeof m.mimeType === 'string' ? m.mimeType : 'video/webm' }));
    else if (m.type === 'end') end();
  };
  // Granted once the panel has let go (after 'bye') or is gone; the second case ends the recording.
  navigator.locks.request(lock, async () => end()).catch(() => {});
  channel.postMessage({ type: 'go', lock });

  return {
    halt() {
      if (!done) {
        channel.postMessage({ type: 'stop', lock });
        guard = setTimeout(end, LAST_CHUNK_GUARD_MS);
      }
      return finished;
    },
    // The stream's tracks are the panel's: it stops them itself.
    release() {},
  };
}
