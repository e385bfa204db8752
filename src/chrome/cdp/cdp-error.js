// The coded failures of chrome.debugger that the tools turn into a fallback or an error value.
import { CatalogError } from '../agent/error-codes.js';

/** A coded failure the tools turn into a fallback or an error value. */
export class CdpError extends CatalogError {
  /** @param {'DEBUGGER_UNAVAILABLE' | 'TAB_GONE' | 'CDP_FAILED'} code @param {string} [detail] the browser's reason */
  constructor(code, detail) { super(code, detail); this.name = 'CdpError'; }
}

/** @param {unknown} err */
export const reasonOf = (err) => (err instanceof Error ? err.message : String(err));

/**
 * What a failed attach means: the tab closed, or the debugger is taken ("Another debugger is already
 * attached": DevTools open, another extension) or forbidden by policy.
 * @param {unknown} err
 */
export function attachFailure(err) {
  const why = reasonOf(err);
  if (/no tab with/i.test(why)) return new CdpError('TAB_GONE');
  return new CdpError('DEBUGGER_UNAVAILABLE', why);
}

/**
 * What a failed command to a tab's page means, and whether the session is gone with it.
 * @param {unknown} err @param {string} method @returns {{ error: CdpError, gone: boolean }}
 */
export function commandFailure(err, method) {
  const why = reasonOf(err);
  if (/not attached|detached/i.test(why)) return { error: new CdpError('DEBUGGER_UNAVAILABLE', why), gone: true };
  if (/no tab with/i.test(why)) return { error: new CdpError('TAB_GONE'), gone: true };
  return { error: new CdpError('CDP_FAILED', `${method}: ${why}`), gone: false };
}
