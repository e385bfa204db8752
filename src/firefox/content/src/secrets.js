// Secret fields, and the masking every value that leaves the content script goes through.
//
//   Tabwright.secrets.isSecretField(el)       was this field ever a secret? (WeakSet: once secret, always)
//   Tabwright.secrets.maskValue(el, value)    what may leave the page of el's value: MASK for a secret
//                                             field (empty stays empty), else value with tokens masked
//   Tabwright.secrets.maskText(s)             page text with token-looking strings masked
//   Tabwright.secrets.maskDeep(v)             maskText on every string of a response (content/main.js)
//   Tabwright.secrets.scrubClone(from, clone) a deep clone of from with its secret fields' values masked
//   content.secrets                           → { values: string[], origin }: this frame's secret field
//                                               values (length ≥ 4) and token-looking strings it shows
//   content.secretField { target }            → { secret: boolean, origin }
//
// A field is secret when it is, or ever was, a password (a "Show password" toggle flips type to text),
// or its autocomplete names a password, a one-time code or a card secret, or its name or id names one
// (agent/safety/secret-patterns.js, loaded before this file as content/secret-patterns.js). A field
// that was a password is remembered from three places: any check (outline, action, response), one
// MutationObserver on `type` attributes (with the old value), and capture-phase focus/input listeners
// that catch password fields inside shadow roots the observer does not see.
import { tw } from './tabwright.js';
import * as P from '../../agent/safety/secret-patterns.js';
import * as Dom from './dom.js';
import * as Input from './input.js';

const { MASK } = P;

/** Fields known to be (or to have been) secret. @type {WeakSet<Element>} */
const ever = new WeakSet();
/** Fields checked and found not secret by name or autocomplete (their type is looked at each time). @type {WeakSet<Element>} */
const plain = new WeakSet();

/** @param {Element} el */
function isField(el) {
  const n = el.localName;
  return n === 'input' || n === 'textarea' || n === 'select';
}

/** @param {unknown} el */
function notePassword(el) {
  if (el instanceof Element && el.localName === 'input' && /** @type {HTMLInputElement} */ (el).type === 'password') ever.add(el);
}

const observer = typeof MutationObserver === 'function' ? new MutationObserver(take) : null;
/** @param {MutationRecord[]} records */
function take(records) {
  for (const r of records) {
    if (r.oldValue !== null && r.oldValue.trim().toLowerCase() === 'password') ever.add(/** @type {Element} */ (r.target));
    else notePassword(r.target);
  }
}
observer?.observe(document.documentElement, { attributes: true, attributeFilter: ['type'], attributeOldValue: true, subtree: true });
/** Handle type changes the observer holds but has not delivered yet (a toggle in this same task). */
function flush() {
  if (observer) { const pending = observer.takeRecords(); if (pending.length) take(pending); }
}
// Password fields the page swaps in, or that live in a shadow root: marked as they are used.
const onUse = (/** @type {Event} */ e) => notePassword(e.composedPath()[0] ?? e.target);
addEventListener('focus', onUse, true);
addEventListener('input', onUse, true);
// Fields already on the page: a password now is remembered before any toggle.
for (const el of document.querySelectorAll('input[type=password]')) ever.add(el);

/** @param {Element} el @returns {boolean} */
function isSecretField(el) {
  if (!el || !isField(el)) return false;
  if (ever.has(el)) return true;
  flush();
  if (ever.has(el)) return true;
  if (el.localName === 'input' && /** @type {HTMLInputElement} */ (el).type === 'password') { ever.add(el); return true; }
  if (plain.has(el)) return false;
  if (P.isSecretAutocomplete(el.getAttribute('autocomplete')) || P.isSecretName(el.getAttribute('name')) || P.isSecretName(el.id)) { ever.add(el); return true; }
  // Name and autocomplete rarely change: looked at once. A later type=password is caught above.
  plain.add(el);
  return false;
}

/** @param {Element} el @param {string} value @returns {string} */
function maskValue(el, value) {
  if (isSecretField(el)) return value ? MASK : '';
  return P.maskTokens(value);
}

/** @param {string} s */
function maskText(s) {
  return typeof s === 'string' ? P.maskTokens(s) : s;
}

/**
 * Token masking for every string of a response. Plain objects and arrays only; at most 8 deep.
 * @template T @param {T} v @param {number} [depth] @returns {T}
 */
function maskDeep(v, depth = 0) {
  if (typeof v === 'string') return /** @type {T} */ (/** @type {unknown} */ (P.maskTokens(v)));
  if (!v || typeof v !== 'object' || depth > 8) return v;
  if (Array.isArray(v)) return /** @type {T} */ (/** @type {unknown} */ (v.map((x) => maskDeep(x, depth + 1))));
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [k, x] of Object.entries(v)) out[k] = maskDeep(x, depth + 1);
  return /** @type {T} */ (/** @type {unknown} */ (out));
}

const FIELDS = 'input, textarea, select';

/**
 * Mask the secret fields of a deep clone (cloneNode(true) of `from`, same shape): the value
 * attribute (and the live value written out) of an input becomes MASK, a textarea's text and a
 * select's selected option text too.
 * @param {Element} from @param {Element} clone
 */
function scrubClone(from, clone) {
  const a = [...(from.matches(FIELDS) ? [from] : []), ...from.querySelectorAll(FIELDS)];
  const b = [...(clone.matches(FIELDS) ? [clone] : []), ...clone.querySelectorAll(FIELDS)];
  if (a.length !== b.length) return;
  for (let i = 0; i < a.length; i++) {
    const el = a[i], copy = b[i];
    if (!isSecretField(el)) continue;
    if (el.localName === 'input') {
      const filled = /** @type {HTMLInputElement} */ (el).value || el.getAttribute('value');
      if (filled) copy.setAttribute('value', MASK); else copy.removeAttribute('value');
    } else if (el.localName === 'textarea') {
      copy.textContent = /** @type {HTMLTextAreaElement} */ (el).value || el.textContent ? MASK : '';
    } else {
      for (const o of copy.querySelectorAll('option')) { o.textContent = MASK; o.setAttribute('value', MASK); o.removeAttribute('label'); }
    }
  }
}

/** Every field of this frame, open and closed shadow roots included. @returns {Element[]} */
function allFields() {
  const out = [];
  for (const el of Dom.deepElements(document)) if (isField(el)) out.push(el);
  return out;
}

/** The secret values of this frame, for the background's vault. @returns {string[]} */
function values() {
  /** @type {Set<string>} */
  const found = new Set();
  const add = (/** @type {string} */ v) => { if (v && v.length >= 4) found.add(v); };
  for (const el of allFields()) {
    const v = el.localName === 'select' ? /** @type {HTMLSelectElement} */ (el).value : /** @type {HTMLInputElement} */ (el).value;
    if (!v) continue;
    if (isSecretField(el)) add(v);
    else for (const t of P.findTokens(v)) add(t.text);
  }
  const text = /** @type {HTMLElement | null} */ (document.body)?.innerText ?? '';
  for (const t of P.findTokens(text)) add(t.text);
  return [...found].slice(0, 200);
}

/** The field a target names: the element, or a label's control. @param {Element} el */
function fieldOf(el) {
  if (el.localName === 'label') return /** @type {HTMLLabelElement} */ (el).control ?? el;
  return el;
}

export { isSecretField, maskValue, maskText, maskDeep, scrubClone, values, MASK };
Object.assign(tw.handlers, {
  'content.secrets': () => ({ ok: true, data: { values: values(), origin: location.origin } }),
  'content.secretField': (/** @type {{ target: import('../../types/core').ActionTarget }} */ msg) => {
    const f = Input.find(msg.target);
    if (!('el' in f)) return f;
    return { ok: true, data: { secret: isSecretField(fieldOf(f.el)), origin: location.origin } };
  },
});
