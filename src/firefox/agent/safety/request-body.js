// What a held request carries, for the card: its body as text and its fields, whatever the
// browser gave (Chrome: the post data string or its raw bytes; Firefox: parsed form data or raw bytes).
// Browser-free.

const MAX_BODY = 64 * 1024;
/** Every field is shown on a card (a changed field past a cut would be hidden): this bounds only a hostile body. */
const MAX_FIELDS = 1000;

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
    return { body, fields: expandJson(fields) };
  }
  const text = raw.text?.slice(0, MAX_BODY);
  if (!text) return {};
  const type = (raw.contentType ?? '').toLowerCase();
  const multipart = /boundary=("?)([^";]+)\1/.exec(raw.contentType ?? '');
  if (multipart || /^--[-\w]+\r?\n[Cc]ontent-[Dd]isposition/.test(text)) {
    const boundary = multipart?.[2] ?? text.slice(2, text.search(/\r?\n/));
    return { body: text, fields: expandJson(multipartFields(text, boundary)) };
  }
  if (type.includes('json') || /^\s*[[{]/.test(text)) {
    try { return { body: text, fields: expandJson(jsonFields(JSON.parse(text))) }; } catch { /* not JSON after all */ }
  }
  if (type.includes('x-www-form-urlencoded') || /^[^=&\s]+=[^&\s]*(&[^=&\s]+=[^&\s]*)*$/.test(text)) {
    return { body: text, fields: expandJson([...new URLSearchParams(text)].slice(0, MAX_FIELDS)) };
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

/**
 * A field whose value is itself JSON (a form field carrying a JSON document, GraphQL "variables" sent
 * as a string) is shown as its own fields, dotted under its name: what it sets must be readable.
 * @param {[string, string][]} fields @returns {[string, string][]}
 */
export function expandJson(fields) {
  /** @type {[string, string][]} */
  const out = [];
  for (const [k, v] of fields) {
    const inner = /^\s*[[{]/.test(v) ? tryJson(v) : undefined;
    if (inner && typeof inner === 'object' && Object.keys(inner).length) out.push(...jsonFields(inner, k, []));
    else out.push([k, v]);
    if (out.length >= MAX_FIELDS) break;
  }
  return out.slice(0, MAX_FIELDS);
}

/** @param {string} s @returns {unknown} */
function tryJson(s) { try { return JSON.parse(s); } catch { return undefined; } }

/**
 * Is a body text that a person cannot read (binary, compressed, protobuf decoded as UTF-8)? U+FFFD
 * replacement characters or control characters other than tab and line breaks, past a few, say so.
 * @param {string} text @returns {boolean}
 */
export function unreadableText(text) {
  if (!text) return false;
  let bad = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xfffd || (c < 32 && c !== 9 && c !== 10 && c !== 13) || (c >= 0x7f && c < 0xa0)) bad++;
  }
  return bad >= 3 || bad * 50 > text.length;
}
