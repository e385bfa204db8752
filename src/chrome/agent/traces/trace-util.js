// Small helpers of traces and workflows: a stable hash of an outline, where a provider sends its
// requests, the site of a URL.

/**
 * FNV-1a (32 bits) of the outline without its "Page: …" line, as 8 hex digits: two snapshots of
 * the same page state hash alike whatever the title says.
 * @param {string} text
 */
export function outlineHash(text) {
  const body = String(text).replace(/^Page: [^\n]*\n/, '');
  let h = 0x811c9dc5;
  for (let i = 0; i < body.length; i++) {
    h ^= body.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/**
 * The origin a provider's label names ("OpenAI-compatible (http://127.0.0.1:5000/v1)"), or ''.
 * @param {string} label
 */
export function providerOrigin(label) {
  const m = /(https?:\/\/[^\s)]+)/.exec(String(label ?? ''));
  if (!m) return '';
  try { return new URL(m[1]).origin; } catch { return ''; }
}

/** The host of a URL, '' when it has none. @param {string} url */
export function siteOf(url) {
  try { return new URL(url).host; } catch { return ''; }
}
