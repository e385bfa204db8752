// recorder.*: the panel's record button and the settings page ask whether the browser can record,
// start and stop a recording of a tab (the same recorder record_tab uses, with the caps from settings).
/** @import { Handler } from './index.js' */
import { required, tabId } from './request-fields.js';
import { recordingLimits } from '../recording-limits.js';
import { fail } from '../../agent/error-codes.js';

/** @param {unknown} err */
function asReply(err) {
  const code = /** @type {{ code?: string }} */ (err)?.code;
  return { ok: /** @type {const} */ (false), code: code ?? 'RECORDING_FAILED', message: err instanceof Error ? err.message : String(err) };
}

/** @type {Handler[]} */
export const RECORDER_HANDLERS = [
  {
    type: 'recorder.status',
    fields: {},
    async handle(_msg, d) {
      if (!d.ops.recorder) return { ok: true, data: { available: false, recording: false } };
      // Switched off by the organization: the panel shows no record button, as where the browser cannot record.
      if ((await d.settings.get()).managed?.off.includes('recorder')) return { ok: true, data: { available: false, recording: false } };
      return { ok: true, data: { available: true, ...(await d.ops.recorder.status()) } };
    },
  },
  {
    type: 'recorder.start',
    fields: { tabId: required(tabId) },
    async handle(msg, d) {
      if (!d.ops.recorder) return fail('RECORDING_UNAVAILABLE');
      const conf = await d.settings.get();
      if (conf.managed?.off.includes('recorder')) return fail('FEATURE_OFF', 'tab recording');
      try {
        return { ok: true, data: await d.ops.recorder.start(msg.tabId, recordingLimits(conf)) };
      } catch (err) { return asReply(err); }
    },
  },
  {
    type: 'recorder.stop',
    fields: {},
    async handle(_msg, d) {
      if (!d.ops.recorder) return fail('RECORDING_UNAVAILABLE');
      try { return { ok: true, data: await d.ops.recorder.stop() }; } catch (err) { return asReply(err); }
    },
  },
];
