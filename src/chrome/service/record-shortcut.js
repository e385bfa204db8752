// The record key (Chrome's "Record this tab" command): pressed on a tab, it starts recording that
// tab with the caps from settings, or, while anything records, stops and saves. It is the gesture
// Chrome requires before tabCapture may take a tab (platform/recorder.js says why the panel's own
// click cannot be). A failure is told in the tab's conversation, where the person looks next.
/** @import { TabRecorder } from '../types/platform' */
/** @import { Settings } from '../types/messages' */
import { recordingLimits } from './recording-limits.js';

/**
 * @param {TabRecorder} recorder
 * @param {{ get(): Promise<Settings> }} settings
 * @param {(tabId: number, code: string, message: string) => void} tell a notice in the tab's conversation
 */
export function startRecordShortcut(recorder, settings, tell) {
  recorder.onShortcut?.(async (tabId) => {
    try {
      const now = await recorder.status();
      if (now.recording) await recorder.stop();
      else await recorder.start(tabId, recordingLimits(await settings.get()));
    } catch (err) {
      const code = /** @type {{ code?: string }} */ (err)?.code ?? 'RECORDING_FAILED';
      tell(tabId, code, err instanceof Error ? err.message : String(err));
    }
  });
}
