// record_tab and stop_recording: a video of the tab (Chrome: tabCapture into the offscreen
// document's MediaRecorder, saved as WebM through downloads). Offered only where the browser can
// record (Tool.needs); where it cannot (Firefox) a call says why.
/** @import { Tool, ToolContext } from '../../types/core' */
import { fail } from '../error-codes.js';

/** @param {ToolContext} ctx */
function recorderOf(ctx) {
  return ctx.browser.recorder;
}

/** @type {Tool} */
export const recordTab = {
  name: 'record_tab',
  description: 'Start recording this tab to a video file (WebM) on the user\'s computer, for a bug report or a how-to: then act on the page, and call stop_recording when done. A recording stops by itself at the length and size set in Settings. audio: also record the tab\'s sound.',
  parameters: { type: 'object', properties: { audio: { type: 'boolean' } }, additionalProperties: false },
  effects: ['reads_page', 'records_tab'],
  says: (t) => t('toolSays_record_tab'),
  needs: 'recorder',
  async run(args, ctx) {
    const rec = recorderOf(ctx);
    if (!rec) return fail('RECORDING_UNAVAILABLE');
    const limits = ctx.recording ?? { maxSeconds: 300, maxBytes: 200 * 1_048_576, audio: false };
    try {
      const status = await rec.start(ctx.tabId, { ...limits, audio: args.audio ?? limits.audio });
      return { ok: true, data: { recording: true, audio: status.audio === true, stopsAfterSeconds: limits.maxSeconds, message: 'Recording. Call stop_recording when done.' } };
    } catch (err) {
      return recordingError(err);
    }
  },
};

/** @type {Tool} */
export const stopRecording = {
  name: 'stop_recording',
  description: 'Stop the tab recording that record_tab started and save it to the downloads folder; answers the file name, its size and length.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  effects: ['reads_page', 'records_tab'],
  says: (t) => t('toolSays_stop_recording'),
  needs: 'recorder',
  async run(_args, ctx) {
    const rec = recorderOf(ctx);
    if (!rec) return fail('RECORDING_UNAVAILABLE');
    try {
      const file = await rec.stop();
      return { ok: true, data: { saved: file.filename, bytes: file.bytes, seconds: Math.round(file.seconds * 10) / 10, type: file.mimeType } };
    } catch (err) {
      return recordingError(err);
    }
  },
};

/** The recorder throws errors with a catalog code; anything else is a failed recording. @param {unknown} err */
function recordingError(err) {
  const code = /** @type {{ code?: string }} */ (err)?.code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'RECORDING_NOT_ALLOWED' || code === 'RECORDING_BUSY' || code === 'NOT_RECORDING' || code === 'RECORDING_UNAVAILABLE') return fail(code, message || undefined);
  return fail('RECORDING_FAILED', `The recording failed: ${message}`);
}
