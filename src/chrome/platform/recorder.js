// The tab recorder in Chrome: the offscreen document records (offscreen/recorder.js, so a recording
// outlives this worker), and the file is saved here through downloads: Tabwright/<site> <date>.webm.
// The offscreen document is the one source of truth on whether a recording is going on.
// Two ways to the tab's stream:
// - tabCapture, which Chrome allows only after the person invoked the extension on the tab (the
//   toolbar button through action.onClicked: platform/panel-toggle.js, or the "Record this tab" key,
//   manifest "record-tab"), until the tab goes to another site; the offscreen document records it.
// - Chrome's own share picker: a click in the side panel does not count as invoking, so when tabCapture
//   refuses, the panel asks getDisplayMedia itself (its click is the gesture), the person picks the tab,
//   and the panel holds a Web Lock named "tabwright-relay:<tabId>:<id>" while it has the stream. A start
//   for a tab with such a lock records the panel's stream (its MediaRecorder sends chunks to the
//   offscreen document: offscreen/relay.js) instead of asking tabCapture.
/** @import { RecordingFile, RecordingStatus, TabRecorder } from '../types/platform' */
import { askOffscreen, offscreenExists } from './offscreen.js';
import { CatalogError } from '../agent/error-codes.js';

/** An error with a catalog code the tools pass on, worded by the catalog. */
class RecorderError extends CatalogError {}

/** The manifest's command whose key records the tab it is pressed on. */
const COMMAND = 'record-tab';
/** The name the panel's lock starts with while it holds a picked stream (ui/panel-capture.js). */
const RELAY_LOCK = 'tabwright-relay';

/** @returns {TabRecorder} */
export function createRecorder() {
  /** @type {Set<(file: RecordingFile) => void>} */
  const listeners = new Set();
  /** @type {Set<(tabId: number) => void>} */
  const shortcutListeners = new Set();

  // Registered when the worker starts, so the key wakes a stopped worker; Chrome has granted the
  // tab to tabCapture before this event is dispatched.
  chrome.commands.onCommand.addListener((command, tab) => {
    if (command !== COMMAND || typeof tab?.id !== 'number') return;
    for (const l of shortcutListeners) l(tab.id);
  });

  // A recording that ended by itself (time or size cap, tab closed) is saved as soon as the offscreen
  // document says so; registered when the worker starts, so the message wakes a stopped worker.
  chrome.runtime.onMessage.addListener((/** @type {any} */ msg, /** @type {chrome.runtime.MessageSender} */ sender) => {
    if (msg?.type !== 'offscreen.recorder.finished' || sender.id !== chrome.runtime.id || !msg.file) return false;
    save(msg.file).then((file) => { for (const l of listeners) l(file); }, (err) => console.warn('Tabwright: could not save the recording', err));
    return false;
  });

  /** @param {{ url: string, bytes: number, ms: number, mimeType: string, reason: RecordingFile['reason'], tabId: number, startedAt: number }} f @returns {Promise<RecordingFile>} */
  async function save(f) {
    const tab = await chrome.tabs.get(f.tabId).catch(() => null);
    let site = 'tab';
    try { site = tab?.url ? new URL(tab.url).hostname || 'tab' : 'tab'; } catch { /* keep "tab" */ }
    const stamp = new Date(f.startedAt).toISOString().slice(0, 19).replace('T', ' ').replace(/:/g, '-');
    const filename = `Tabwright/${site.replace(/[^a-z0-9.-]/gi, '_')} ${stamp}.webm`;
    const downloadId = await chrome.downloads.download({ url: f.url, filename, conflictAction: 'uniquify', saveAs: false });
    // The bytes stay in the offscreen document until the download has them.
    whenDone(downloadId).then(() => askOffscreen({ type: 'offscreen.recorder.release', url: f.url }).catch(() => {}));
    return { tabId: f.tabId, filename, downloadId, bytes: f.bytes, seconds: f.ms / 1000, mimeType: f.mimeType, reason: f.reason };
  }

  return {
    async start(tabId, opts) {
      const now = await this.status();
      if (now.recording) throw new RecorderError('RECORDING_BUSY', now.tabId === tabId ? 'of this tab' : 'of another tab');
      const relay = await panelStream(tabId);
      if (relay) return begin({ relay, tabId, ...opts });
      let streamId;
      try {
        streamId = await chrome.tabCapture.getMediaStreamId({ targetTabId: tabId });
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        if (/invoked|activeTab|Chrome pages cannot be captured/i.test(why)) throw new RecorderError('RECORDING_NOT_ALLOWED', await notAllowed(tabId));
        throw new RecorderError('RECORDING_FAILED', why);
      }
      return begin({ streamId, tabId, ...opts });
    },
    async stop() {
      if (!(await offscreenExists())) throw new RecorderError('NOT_RECORDING');
      const reply = await askOffscreen({ type: 'offscreen.recorder.stop' });
      if (!reply.ok) throw RecorderError.passOn(reply.code ?? 'RECORDING_FAILED', reply.message);
      return save(reply.data);
    },
    /** @returns {Promise<RecordingStatus>} */
    async status() {
      if (!(await offscreenExists())) return { recording: false };
      const reply = await askOffscreen({ type: 'offscreen.recorder.status' }).catch(() => null);
      return reply?.ok ? reply.data : { recording: false };
    },
    onFinished(listener) { listeners.add(listener); },
    onShortcut(listener) { shortcutListeners.add(listener); },
  };
}

/**
 * The offscreen document starts recording from a tab-capture stream id or the panel's stream.
 * @param {{ streamId?: string, relay?: string, tabId: number, audio: boolean, maxSeconds: number, maxBytes: number }} job
 * @returns {Promise<RecordingStatus>}
 */
async function begin(job) {
  const reply = await askOffscreen({ type: 'offscreen.recorder.start', ...job });
  if (!reply.ok) throw RecorderError.passOn(reply.code ?? 'RECORDING_FAILED', reply.message);
  return reply.data;
}

/**
 * The lock of a panel that holds a stream of this tab from Chrome's share picker, or null.
 * @param {number} tabId @returns {Promise<string | null>}
 */
async function panelStream(tabId) {
  const locks = await navigator.locks.query().catch(() => null);
  const prefix = `${RELAY_LOCK}:${tabId}:`;
  return locks?.held?.find((l) => l.name?.startsWith(prefix))?.name ?? null;
}

/** The key the person gave the record command ('' when none: Chrome leaves it unset on a clash). */
export async function recordShortcut() {
  const commands = await chrome.commands.getAll().catch(() => []);
  return commands.find((c) => c.name === COMMAND)?.shortcut ?? '';
}

/** What the person can do when Chrome refused the tab, with the key they have. @param {number} tabId */
async function notAllowed(tabId) {
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  if (tab?.url && !/^(https?|file|data):/i.test(tab.url)) {
    return 'Chrome does not let extensions record its own pages (chrome:// pages, the Web Store, other extensions); open a web page in this tab to record it';
  }
  const keys = await recordShortcut();
  return keys
    ? `Press ${keys} on the tab: recording starts at once, and ${keys} again stops and saves it`
    : 'Give Tabwright\'s "Record this tab" command a key at chrome://extensions/shortcuts, then press it on the tab: recording starts at once, and the same key again stops and saves it';
}

/** Resolves when a download has finished (or failed, or after a minute). @param {number} id */
function whenDone(id) {
  return new Promise((resolve) => {
    const timer = setTimeout(finish, 60_000);
    /** @param {chrome.downloads.DownloadDelta} d */
    function onChanged(d) { if (d.id === id && (d.state?.current === 'complete' || d.state?.current === 'interrupted')) finish(); }
    function finish() { clearTimeout(timer); chrome.downloads.onChanged.removeListener(onChanged); resolve(undefined); }
    chrome.downloads.onChanged.addListener(onChanged);
  });
}
