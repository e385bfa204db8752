// A tab recording seen from the panels: every open panel shows whether a tab is recorded, and the
// recorded tab's conversation says where the file went.
/** @import { RecordingFile, RecordingStatus } from '../../types/platform' */
/** @import { Session } from '../session.js' */

/**
 * @param {Map<number, Session>} sessions @param {RecordingStatus} status @param {RecordingFile} [file]
 */
export function announceRecording(sessions, status, file) {
  for (const s of sessions.values()) for (const l of s.listeners) l({ type: 'recording', status: { available: true, ...status }, ...(file ? { file } : {}) });
  if (file) sessions.get(file.tabId)?.apply(recordingNotice(file));
}

/**
 * The notice a saved recording leaves in its tab's conversation, with the values a translation takes.
 * @param {RecordingFile} file
 * @returns {{ type: 'notice', code: string, message: string, args: string[] }}
 */
export function recordingNotice(file) {
  // A short recording is a few hundred kilobytes: in megabytes it read "0.0 MB".
  const size = file.bytes < 1_048_576 ? `${Math.max(1, Math.round(file.bytes / 1024))} KB` : `${(file.bytes / 1_048_576).toFixed(1)} MB`;
  const why = file.reason === 'stopped' ? '' : ` It stopped by itself (${file.reason === 'max_duration' ? 'the length cap' : file.reason === 'max_size' ? 'the size cap' : 'the tab closed'}).`;
  return { type: 'notice', code: 'RECORDING_SAVED', message: `Recording saved to your downloads as ${file.filename} (${size}, ${Math.round(file.seconds)} s).${why}`,
    args: [file.filename, String(file.bytes), String(Math.round(file.seconds)), file.reason] };
}
