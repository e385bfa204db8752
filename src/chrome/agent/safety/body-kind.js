// Can a body be shown as text? A card that prints a protobuf or a gzip stream as mojibake shows the
// user nothing they can judge, so such a body is named for what it is (binary or compressed, its
// size and type) instead. Used for request bodies (the card) and response bodies (the write's
// outcome). Browser-free.

/** @typedef {{ bytes: number, contentType?: string, why: 'binary' | 'compressed' | 'too_large' | 'unavailable' }} OpaqueBody */

const MAX_TEXT = 64 * 1024;
/** Content types whose bytes are not text whatever they decode to. */
const BINARY_TYPES = /^(image|audio|video|font)\/|^application\/(octet-stream|(x-)?protobuf|vnd\.google\.protobuf|grpc|x-protobuffer|msgpack|x-msgpack|cbor|zip|pdf|wasm|x-tar|bson)/i;
const COMPRESSED_TYPES = /^application\/(gzip|x-gzip|x-brotli|zstd|x-bzip2|x-xz|x-7z-compressed)/i;

/**
 * Text, or why not. Compressed: a Content-Encoding (gzip, br, deflate, zstd) or gzip/zstd/zlib magic
 * bytes; binary: a binary content type, bytes that are not UTF-8, or control characters (protobuf
 * decodes as UTF-8 more often than not, but carries field tags below 0x20).
 * @param {Uint8Array} bytes @param {{ contentType?: string, contentEncoding?: string }} [meta]
 * @returns {{ text: string } | { opaque: OpaqueBody }}
 */
export function classifyBody(bytes, meta = {}) {
  const contentType = meta.contentType?.split(';')[0].trim().toLowerCase() || undefined;
  /** @param {OpaqueBody['why']} why */
  const opaque = (why) => ({ opaque: { bytes: bytes.byteLength, ...(contentType ? { contentType } : {}), why } });
  if (/\b(gzip|br|deflate|zstd|compress)\b/i.test(meta.contentEncoding ?? '') || compressedMagic(bytes) || COMPRESSED_TYPES.test(contentType ?? '')) return opaque('compressed');
  if (BINARY_TYPES.test(contentType ?? '')) return opaque('binary');
  const head = bytes.subarray(0, MAX_TEXT);
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head);
  } catch {
    // A multi-byte character cut at the cap is not a binary body: decode the part before it.
    if (bytes.byteLength <= MAX_TEXT) return opaque('binary');
    try { text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, MAX_TEXT - 4)); } catch { return opaque('binary'); }
  }
  return controlHeavy(text) ? opaque('binary') : { text };
}

/** Base64 chunks (Chrome's postDataEntries, Network.getResponseBody) to one byte array. @param {string[]} chunks */
export function base64ToBytes(chunks) {
  const parts = chunks.map((b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  return concatBytes(parts);
}

/** @param {(ArrayBuffer | Uint8Array)[]} parts */
export function concatBytes(parts) {
  const total = parts.reduce((n, p) => n + p.byteLength, 0);
  const all = new Uint8Array(total);
  let at = 0;
  for (const p of parts) { const b = p instanceof Uint8Array ? p : new Uint8Array(p); all.set(b, at); at += b.byteLength; }
  return all;
}

/** gzip (1f 8b), zstd (28 b5 2f fd), zlib (78 with a valid check byte). @param {Uint8Array} b */
function compressedMagic(b) {
  if (b.length < 2) return false;
  if (b[0] === 0x1f && b[1] === 0x8b) return true;
  if (b.length >= 4 && b[0] === 0x28 && b[1] === 0xb5 && b[2] === 0x2f && b[3] === 0xfd) return true;
  return b[0] === 0x78 && [0x01, 0x5e, 0x9c, 0xda].includes(b[1]);
}

/** A NUL, or more than one control character (other than tab, newline, return, form feed) in a hundred. @param {string} text */
function controlHeavy(text) {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return true;
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) n++;
  }
  return n > 0 && n * 100 >= text.length;
}
