// The tab recorder as the rest of Tabwright sees it (BrowserOps.recorder): the platform's recorder
// (Chrome) with what a person must see while it records: a badge on the recorded page (again after
// each navigation, until the recording ends) and the state pushed to every open panel.
/** @import { RecordingFile, RecordingStatus, TabRecorder } from '../types/platform' */

/**
 * @param {TabRecorder} inner
 * @param {{ badge(tabId: number, show: boolean, startedAt?: number): void }} page
 * @returns {TabRecorder & { onChange(l: (status: RecordingStatus, file?: RecordingFile) => void): void }}
 */
export function createRecording(inner, page) {
  /** @type {Set<(status: RecordingStatus, file?: RecordingFile) => void>} */
  const listeners = new Set();
  /** The tab whose page shows the badge, as this worker knows it. @type {number | null} */
  let badged = null;

  /** @param {RecordingStatus} status @param {RecordingFile} [file] */
  function changed(status, file) {
    if (badged !== null && (!status.recording || status.tabId !== badged)) { page.badge(badged, false); badged = null; }
    if (status.recording && status.tabId !== undefined) { badged = status.tabId; page.badge(status.tabId, true, status.startedAt); }
    for (const l of listeners) { try { l(status, file); } catch { /* a listener's own failure */ } }
  }

  inner.onFinished((file) => changed({ recording: false }, file));
  // A new document in the recorded tab gets the badge again (asked of the recorder, which outlives this worker).
  browser.webNavigation?.onCompleted?.addListener(async (/** @type {{ tabId: number, frameId: number }} */ d) => {
    if (d.frameId !== 0) return;
    const s = await inner.status().catch(() => null);
    if (s?.recording && s.tabId === d.tabId) { badged = d.tabId; page.badge(d.tabId, true, s.startedAt); }
  });

  return {
    async start(tabId, opts) {
      const status = await inner.start(tabId, opts);
      changed(status);
      return status;
    },
    async stop() {
      const recorded = await inner.status().catch(() => null);
      if (recorded?.tabId !== undefined) badged = recorded.tabId;
      try {
        const file = await inner.stop();
        changed({ recording: false }, file);
        return file;
      } catch (err) {
        changed({ recording: false });
        throw err;
      }
    },
    status: () => inner.status(),
    onFinished: (l) => inner.onFinished(l),
    onShortcut: (l) => inner.onShortcut?.(l),
    onChange: (l) => { listeners.add(l); },
  };
}
