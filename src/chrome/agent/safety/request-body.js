// What a held request carries, for the card: its body as text and its fields, whatever the
// browser gave (Chrome: the post data string or its raw bytes; Firefox: parsed form data or raw bytes).
// Browser-free.

const MAX_BODY = 64 * 1024;
const MAX_FIELDS = 50;

/**
 * @param {{ text?: string, formData?: Record<string, string[]>, contentType?: string }} raw
 * @returns {{ body?: string, fields?: [string, string][] }}
 */
export function parseBody(raw) {
  if (raw.formData) {
    /** @type {[string, string][]} */
    const fields = [];
    for (const [k, vs] of Object.entries(raw.formData)) for (const v of vs) fields.push([k, String(v)]);
    const body = new URLSearchParams(fields).toString().slice(0, MAX_BODY);
    return { body, fields: fields.slice(0, MAX_FIELDS) };
  }
  const text = raw.text?.slice(0, MAX_BODY);
  if (!text) return {};
  const type = (raw.contentType ?? '').toLowerCase();
  const multipart = /boundary=("?)([^";]+)\1/.exec(raw.contentType ?? '');
  if (multipart || /^--[-\w]+\r?\n[Cc]ontent-[Dd]isposition/.test(text)) {
    const boundary = multipart?.[2] ?? text.slice(2, text.search(/\r?\n/));
    return { body: text, fields: multipartFields(text, boundary) };
  }
  if (type.includes('json') || /^\s*[[{]/.test(text)) {
    try { return { body: text, fields: jsonFields(JSON.parse(text)) }; } catch { /* not JSON after all */ }
  }
  if (type.includes('x-www-form-urlencoded') || /^[^=&\s]+=[^&\s]*(&[^=&\s]+=[^&\s]*)*$/.test(text)) {
    return { body: text, fields: [...new URLSearchParams(text)].slice(0, MAX_FIELDS) };
  }
  return { body: text };
}

/** Base64 (Chrome's postDataEntries) to text, as UTF-8. @param {string[]} chunks */
export function decodeBase64Chunks(chunks) {
  const parts = chunks.map((b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  return bytesToText(parts);
}

/** @param {(ArrayBuffer | Uint8Array)[]} parts */
export function bytesToText(parts) {
  const total = parts.reduce((n, p) => n + p.byteLength, 0);
  const all = new Uint8Array(Math.min(total, MAX_BODY));
  let at = 0;
  for (const p of parts) {
    if (at >= all.length) break;
    const b = p instanceof Uint8Array ? p : new Uint8Array(p);
    all.set(b.subarray(0, all.length - at), at);
    at += b.byteLength;
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(all);
}

/** @param {string} text @param {string} boundary @returns {[string, string][]} */
function multipartFields(text, boundary) {
  /** @type {[string, string][]} */
  const fields = [];
  for (const part of text.split(`--${boundary}`)) {
    const m = /content-disposition:[^\r\n]*\bname="([^"]*)"(?:;\s*filename="([^"]*)")?[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([\s\S]*?)\r?\n?$/i.exec(part);
    if (!m) continue;
    fields.push([m[1], m[2] !== undefined ? `<file ${m[2]} (${m[3].length} bytes)>` : m[3]]);
    if (fields.length >= MAX_FIELDS) break;
  }
  return fields;
}

/** Flat fields of a JSON value: nested keys dotted. @param {unknown} v @param {string} [prefix] @param {[string, string][]} [out] */
function jsonFields(v, prefix = '', out = []) {
  if (out.length >= MAX_FIELDS) return out;
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) jsonFields(x, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.push([prefix || 'value', typeof v === 'string' ? v : JSON.stringify(v)]);
  }
  return out;
}
