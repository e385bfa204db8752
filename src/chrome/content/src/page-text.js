// The page's visible text, plain and cheap: what the done check (agent/done-check.js) compares a
// summary's quoted words against. read_page's readable markdown is content/reader.js.
import { tw } from './tabwright.js';
import * as Secrets from './secrets.js';

/** @param {number} [maxChars] @returns {import('../../types/core').ToolResult} */
function readText(maxChars = 20_000) {
  const main = document.querySelector('main, article, [role=main]') ?? document.body;
  const text = (/** @type {HTMLElement} */ (main).innerText ?? '').replace(/\n{3,}/g, '\n\n').trim();
  const body = text.length > maxChars ? `${text.slice(0, maxChars)}\n[… truncated]` : text;
  // innerText holds no field values; token-looking strings (an API key shown as text) are masked.
  return { ok: true, data: Secrets.maskText(`# ${document.title}\n${location.href}\n\n${body}`) };
}

export { readText };
Object.assign(tw.handlers, {
  'content.read': (/** @type {{ maxChars?: number }} */ msg) => readText(msg.maxChars),
});
