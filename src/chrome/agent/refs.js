// Refs as the model sees them: "e12" for an element of the top frame, "f<frameId>:e12" for one
// inside another frame (frameId is the browser's). Browser-free; content/refs.js formats the same way.

const REF = /^(?:f(\d+):)?e(\d+)$/;

/**
 * @param {string} ref
 * @returns {{ frameId: number, n: number } | null} null when the text is not a ref
 */
export function parseRef(ref) {
  const m = REF.exec(String(ref).trim());
  return m ? { frameId: Number(m[1] ?? 0), n: Number(m[2]) } : null;
}

/** @param {number} frameId @param {number} n */
export function formatRef(frameId, n) {
  return frameId ? `f${frameId}:e${n}` : `e${n}`;
}
