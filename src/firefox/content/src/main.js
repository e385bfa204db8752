// The content script's message entry. Each module imported here registers the requests it answers
// in Tabwright.handlers (content/reader.js, injected on first use, adds its own); this file only
// dispatches. Every answer leaves with its token-looking strings masked (content/secrets.js),
// whatever handler made it; content.secrets alone answers raw values (for the background's vault,
// never the model).
import { tw } from './tabwright.js';
import * as Secrets from './secrets.js';
import { fail } from '../../agent/error-codes.js';
import './frames.js';
import './outline.js';
import './capabilities.js';
import './page-text.js';
import './handoff.js';
import './input.js';
import './pointer.js';
import './keys.js';
import './drag.js';
import './scroll.js';
import './widgets.js';
import './page-events.js';
import './styles.js';
import './picker.js';
import './indicator.js';
import './highlight.js';
import './recording-badge.js';
import './webmcp.js';

tw.listening = true;
// The reader (injected later, on its own) masks with this frame's secret fields.
tw.secrets = Secrets;

browser.runtime.onMessage.addListener((/** @type {any} */ msg, /** @type {any} */ _sender, /** @type {(r: unknown) => void} */ sendResponse) => {
  if (!msg || typeof msg.type !== 'string' || !msg.type.startsWith('content.')) return false;
  const handler = tw.handlers[msg.type];
  if (!handler) {
    sendResponse(fail('UNKNOWN_REQUEST', `"${msg.type}", in the page script`));
    return false;
  }
  const raw = msg.type === 'content.secrets';
  /** @param {unknown} r */
  const answer = (r) => sendResponse(raw ? r : Secrets.maskDeep(r));
  /** @param {unknown} err */
  const failed = (err) => answer(fail('CONTENT_ERROR', err instanceof Error ? err.message : String(err)));
  try {
    const result = handler(msg);
    // Handlers may be async (waiting for a re-render, a scroll, an option list to load).
    if (result && typeof (/** @type {any} */ (result)).then === 'function') {
      /** @type {Promise<unknown>} */ (result).then(answer, failed);
      return true;
    }
    answer(result);
  } catch (err) {
    failed(err);
  }
  return false;
});
