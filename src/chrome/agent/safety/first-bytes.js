// The first bytes of a file a held tab downloads (browser-free): Chrome's request hold reads them
// before the download begins (Fetch's response stage; Firefox asks the server again for them,
// platform/download-bytes.js), so a program
// served under a document's name and type is told by its magic number (agent/safety/executables.js).
// Which responses are worth reading, and a small memory of what was read, by URL.

/** Types a browser shows rather than saves (a page, a picture, a film): not read, unless sent as an attachment. */
const SHOWN = /^(?:text\/(?:html|plain|css|javascript)|application\/(?:xhtml\+xml|xml|json|javascript)|image\/|video\/|audio\/|font\/)/i;
/** Bodies larger than this are not read whole (Chrome reads a paused response's body whole). */
export const MAX_READ_BYTES = 20_000_000;
/** How many bytes are kept: enough for every magic number the policy knows. */
const KEEP = 16;

/**
 * Would the browser save this response (a download), so its first bytes matter?
 * @param {{ name: string, value: string }[]} headers @param {number} status
 */
export function savedResponse(headers, status) {
  if (status < 200 || status >= 300) return false;
  const header = (/** @type {string} */ n) => headers.find((h) => h.name.toLowerCase() === n)?.value ?? '';
  const length = Number(header('content-length') || 0);
  if (length > MAX_READ_BYTES) return false;
  if (/^\s*attachment/i.test(header('content-disposition'))) return true;
  return !SHOWN.test(header('content-type').trim());
}

/** The first bytes, base64. @param {Uint8Array} bytes */
export function firstBytesOf(bytes) {
  let s = '';
  for (const b of bytes.subarray(0, KEEP)) s += String.fromCharCode(b);
  return btoa(s);
}

/** What was read, by URL (the latest 200). */
export function createFirstBytes() {
  /** @type {Map<string, string>} */
  const byUrl = new Map();
  return {
    /** @param {string} url @param {Uint8Array} bytes */
    note(url, bytes) {
      byUrl.delete(url);
      byUrl.set(url, firstBytesOf(bytes));
      if (byUrl.size > 200) byUrl.delete(/** @type {string} */ (byUrl.keys().next().value));
    },
    /** @param {string} url */
    get(url) { return byUrl.get(url); },
  };
}
