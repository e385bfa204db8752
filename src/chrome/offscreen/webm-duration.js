// MediaRecorder writes a WebM as a live stream: its Segment Info has no Duration, so players show
// no length and cannot seek. This writes one in: the Info element is rebuilt with a Duration
// (EBML float, in the file's timecode units) and nothing after it moves relative to the Segment's
// start that matters (Chrome's recorder writes no SeekHead and no Cues; the Segment's size is
// "unknown"). Pure functions over bytes, so Node tests them (test/unit/webm-duration.test.js).

const ID = { EBML: 0x1a45dfa3, Segment: 0x18538067, Info: 0x1549a966, TimecodeScale: 0x2ad7b1, Duration: 0x4489 };

/** An EBML variable-length integer at pos: its length in bytes and its value (marker bit removed). @param {Uint8Array} b @param {number} pos */
export function readVint(b, pos) {
  const first = b[pos];
  if (first === undefined || first === 0) return null;
  let length = 1;
  while (!(first & (0x80 >> (length - 1)))) length++;
  if (pos + length > b.length) return null;
  let value = first & (0xff >> length);
  let unknown = value === (0xff >> length);
  for (let i = 1; i < length; i++) { value = value * 256 + b[pos + i]; if (b[pos + i] !== 0xff) unknown = false; }
  return { length, value, unknown };
}

/** An element id at pos (the marker bit kept, as ids are written). @param {Uint8Array} b @param {number} pos */
export function readId(b, pos) {
  const v = readVint(b, pos);
  if (!v) return null;
  let id = 0;
  for (let i = 0; i < v.length; i++) id = id * 256 + b[pos + i];
  return { length: v.length, id };
}

/** An element header at pos: id, where its data starts, its size (null when unknown). @param {Uint8Array} b @param {number} pos */
export function readElement(b, pos) {
  const id = readId(b, pos);
  if (!id) return null;
  const size = readVint(b, pos + id.length);
  if (!size) return null;
  return { id: id.id, start: pos, dataStart: pos + id.length + size.length, size: size.unknown ? null : size.value };
}

/** The children of a master element's data: [start, end); a child of unknown size (a live Cluster) is the last. @param {Uint8Array} b @param {number} start @param {number} end */
export function children(b, start, end) {
  const out = [];
  let pos = start;
  while (pos < end) {
    const el = readElement(b, pos);
    if (!el) break;
    out.push(el);
    if (el.size === null) break;
    pos = el.dataStart + el.size;
  }
  return out;
}

/** @param {Uint8Array} b @param {number} start @param {number} size */
function readUint(b, start, size) {
  let v = 0;
  for (let i = 0; i < size; i++) v = v * 256 + b[start + i];
  return v;
}

/** An 8-byte EBML size. @param {number} n */
function size8(n) {
  const out = new Uint8Array(8);
  out[0] = 0x01;
  let v = n;
  for (let i = 7; i >= 1; i--) { out[i] = v % 256; v = Math.floor(v / 256); }
  return out;
}

/**
 * The file's first bytes with a Duration in its Segment Info, or null when they hold no Info to fix
 * (not a WebM, or the Info lies beyond these bytes).
 * @param {Uint8Array} head the file's first bytes (64 kB is plenty) @param {number} durationMs
 * @returns {Uint8Array | null}
 */
export function patchDuration(head, durationMs) {
  const ebml = readElement(head, 0);
  if (!ebml || ebml.id !== ID.EBML || ebml.size === null) return null;
  const segment = readElement(head, ebml.dataStart + ebml.size);
  if (!segment || segment.id !== ID.Segment) return null;
  let pos = segment.dataStart;
  /** @type {ReturnType<typeof readElement>} */
  let info = null;
  while (pos < head.length) {
    const el = readElement(head, pos);
    if (!el || el.size === null) return null;
    if (el.id === ID.Info) { info = el; break; }
    pos = el.dataStart + el.size;
  }
  if (!info || info.size === null || info.dataStart + info.size > head.length) return null;
  const infoEnd = info.dataStart + info.size;
  const kids = children(head, info.dataStart, infoEnd);
  const scaleEl = kids.find((k) => k.id === ID.TimecodeScale);
  const scale = scaleEl && scaleEl.size ? readUint(head, scaleEl.dataStart, scaleEl.size) : 1_000_000;
  const value = (durationMs * 1_000_000) / scale;
  const duration = new Uint8Array(11);
  duration.set([0x44, 0x89, 0x88]);
  new DataView(duration.buffer).setFloat64(3, value);
  const kept = kids.filter((k) => k.id !== ID.Duration && k.size !== null);
  const body = concat(kept.map((k) => head.subarray(k.start, k.dataStart + /** @type {number} */ (k.size))).concat([duration]));
  const idBytes = head.subarray(info.start, info.start + (readId(head, info.start)?.length ?? 4));
  return concat([head.subarray(0, info.start), idBytes, size8(body.length), body, head.subarray(infoEnd)]);
}

/** @param {Uint8Array[]} parts */
function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** The duration in a file's first bytes, in milliseconds, or null. @param {Uint8Array} head */
export function readDurationMs(head) {
  const ebml = readElement(head, 0);
  if (!ebml || ebml.size === null) return null;
  const segment = readElement(head, ebml.dataStart + ebml.size);
  if (!segment) return null;
  for (const el of children(head, segment.dataStart, head.length)) {
    if (el.id !== ID.Info || el.size === null) continue;
    const kids = children(head, el.dataStart, el.dataStart + el.size);
    const scaleEl = kids.find((k) => k.id === ID.TimecodeScale);
    const scale = scaleEl && scaleEl.size ? readUint(head, scaleEl.dataStart, scaleEl.size) : 1_000_000;
    const d = kids.find((k) => k.id === ID.Duration);
    if (!d || !d.size) return null;
    const view = new DataView(head.buffer, head.byteOffset + d.dataStart, d.size);
    const v = d.size === 4 ? view.getFloat32(0) : view.getFloat64(0);
    return (v * scale) / 1_000_000;
  }
  return null;
}

/**
 * The recording with its duration written in (the blob unchanged when its head cannot be fixed).
 * @param {Blob} blob @param {number} durationMs @returns {Promise<Blob>}
 */
export async function withDuration(blob, durationMs) {
  const headSize = Math.min(blob.size, 65_536);
  const head = new Uint8Array(await blob.slice(0, headSize).arrayBuffer());
  const fixed = patchDuration(head, durationMs);
  return fixed ? new Blob([/** @type {BlobPart} */ (fixed), blob.slice(headSize)], { type: blob.type }) : blob;
}
