// The first bytes of what a held tab's navigations bring (Firefox): a download begins as one, and
// webRequest.filterResponseData sees its first chunk before the file is judged, so a program under
// a document's name and type is told by its magic number (agent/safety/executables.js). The chunk
// passes on unchanged, and the filter lets go of the rest of the stream at once.
import { createFirstBytes } from '../agent/safety/first-bytes.js';

/** How long a download's card waits for the first chunk of its request (a hang guard: it usually came first). */
const WAIT_MS = 2000;

const read = createFirstBytes();
/** URL → callbacks waiting for its first chunk. @type {Map<string, (() => void)[]>} */
const waiting = new Map();
/** URLs being read now. @type {Set<string>} */
const reading = new Set();

/** Read the first chunk of this request as it passes. @param {string} requestId @param {string} url */
export function readFirstBytes(requestId, url) {
  let filter;
  try { filter = browser.webRequest.filterResponseData(requestId); } catch { return; }
  reading.add(url);
  const done = () => {
    reading.delete(url);
    for (const fn of waiting.get(url) ?? []) fn();
    waiting.delete(url);
  };
  filter.ondata = (e) => {
    filter.write(e.data);
    filter.disconnect();
    read.note(url, new Uint8Array(e.data));
    done();
  };
  filter.onstop = () => { filter.close(); done(); };
  filter.onerror = done;
}

/** The first bytes (base64) of a download's URL, once its first chunk passed (or a bound). @param {string} url */
export async function downloadBytes(url) {
  if (reading.has(url) && !read.get(url)) {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, WAIT_MS);
      waiting.set(url, [...(waiting.get(url) ?? []), () => { clearTimeout(timer); resolve(undefined); }]);
    });
  }
  return read.get(url);
}
