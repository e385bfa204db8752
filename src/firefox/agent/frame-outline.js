// Splices the outlines of cross-origin frames into their parent's: a parent line ending in
// "[frame=N]" is followed by frame N's own outline, indented one level deeper. Browser-free.

const FRAME_LINE = /^(\s*)- iframe.*\[frame=(\d+)\]$/;

/**
 * @param {string} text the parent frame's outline
 * @param {(frameId: number) => Promise<string | null>} outlineOf a frame's outline, or null when it cannot be read
 * @param {number} [depth] nesting guard
 * @returns {Promise<string>}
 */
export async function spliceFrames(text, outlineOf, depth = 0) {
  if (depth > 4 || !text.includes('[frame=')) return text;
  const out = [];
  for (const line of text.split('\n')) {
    out.push(line);
    const m = FRAME_LINE.exec(line);
    if (!m) continue;
    const child = await outlineOf(Number(m[2]));
    if (child === null) { out.push(`${m[1]}  (this frame could not be read)`); continue; }
    const inner = await spliceFrames(child, outlineOf, depth + 1);
    for (const l of inner.split('\n')) if (l) out.push(`${m[1]}  ${l}`);
  }
  return out.join('\n');
}
