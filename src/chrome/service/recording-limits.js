// The recorder's caps from settings, as the recorder takes them.
/** @import { Settings } from '../types/messages' */

/** @param {Settings} s @returns {{ maxSeconds: number, maxBytes: number, audio: boolean }} */
export function recordingLimits(s) {
  const r = s.recorder ?? { maxSeconds: 300, maxMB: 200, audio: false };
  return { maxSeconds: r.maxSeconds, maxBytes: r.maxMB * 1_048_576, audio: r.audio };
}
