// The first bytes of a file a held tab downloads (Firefox): a program served under a document's name
// and type is told by its magic number (agent/safety/executables.js). Firefox gives a download's own
// stream to no extension (filterResponseData on a navigation that turns into a download fails with
// "Invalid request ID"), so the first bytes are asked again of the server: the same GET with the
// same cookies, limited to its first bytes (a Range request; a server that ignores the range is cut
// off after the first chunk). A server that answers differently the second time is not told apart.
import { firstBytesOf } from '../agent/safety/first-bytes.js';

/** How long the second request may take (a hang guard; the download waits paused, and a card without its bytes asks). */
const WAIT_MS = 10_000;

/** The first bytes (base64) of a download's URL, or undefined. @param {string} url */
export async function downloadBytes(url) {
  if (!/^(https?|data):/i.test(url)) return undefined;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), WAIT_MS);
  try {
    const res = await fetch(url, { headers: { Range: 'bytes=0-63' }, credentials: 'include', cache: 'no-store', redirect: 'follow', signal: stop.signal });
    if (!res.ok || !res.body) return undefined;
    const reader = res.body.getReader();
    const { value } = await reader.read();
    reader.cancel().catch(() => {});
    return value?.byteLength ? firstBytesOf(value) : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
