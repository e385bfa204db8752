// The states and value an outline line shows: [checked], [expanded], level=2, [focused], a
// field's value (a secret field's is the mask, content/secrets.js), read from ARIA attributes and
// the element's own properties. content/outline.js asks once per line. Needs content/dom.js, secrets.js.
import { clean } from './dom.js';
import * as S from './secrets.js';

/** Fields the browser validates (:user-invalid). */
const FIELDS = new Set(['input', 'select', 'textarea']);

/**
 * Whether any aria-* state attribute is set: most lines (plain links and buttons) have none, and
 * one selector match spares a dozen attribute reads.
 * @param {Element} el
 */
function hasAria(el) {
  return el.hasAttributes() && el.matches(ARIA_STATES);
}
/** The aria-* attributes states() and valueOf() read. */
const ARIA_STATES = ['level', 'checked', 'expanded', 'selected', 'pressed', 'current', 'disabled', 'required', 'invalid', 'valuetext', 'valuenow'].map((a) => `[aria-${a}]`).join(',');
/** @returns {string | null} */
const NO_ATTR = () => null;

/**
 * @param {Element} el @param {string} role @param {boolean} aria the element has aria-* attributes
 * @param {string} tag el.localName @param {Set<Element>} focused the focused elements (WalkCtx)
 * @returns {string[]}
 */
function states(el, role, aria, tag, focused) {
  const out = [];
  const a = aria ? (/** @type {string} */ n) => el.getAttribute(n) : NO_ATTR;
  if (role === 'heading') out.push(`level=${/^h([1-6])$/.exec(tag)?.[1] ?? a('aria-level') ?? 2}`);
  // A textarea or an editor takes line breaks (Enter is not submit): unlike a one-line input.
  if (role === 'textbox' && tag !== 'input') {
    const ml = el.getAttribute('aria-multiline'), ce = el.getAttribute('contenteditable');
    if (tag === 'textarea' || ml === 'true' || (ml !== 'false' && ce !== null && ce !== 'false')) out.push('multiline');
  }
  const input = /** @type {HTMLInputElement} */ (tag === 'label' ? /** @type {HTMLLabelElement} */ (el).control ?? el : el);
  const inputTag = input === el ? tag : input.localName;
  if (inputTag === 'input' && (input.type === 'checkbox' || input.type === 'radio')) {
    if (input.indeterminate) out.push('checked=mixed'); else if (input.checked) out.push('checked');
  } else if (a('aria-checked') === 'true') out.push('checked');
  else if (a('aria-checked') === 'mixed') out.push('checked=mixed');
  const expanded = a('aria-expanded') ?? (tag === 'summary' ? String(!!(/** @type {HTMLDetailsElement | null} */ (el.parentElement))?.open) : null);
  if (expanded === 'true') out.push('expanded'); else if (expanded === 'false') out.push('collapsed');
  if (a('aria-selected') === 'true' || (tag === 'option' && /** @type {HTMLOptionElement} */ (el).selected)) out.push('selected');
  if (a('aria-pressed') === 'true') out.push('pressed');
  if (a('aria-current') && a('aria-current') !== 'false') out.push('current');
  if (/** @type {any} */ (input).disabled || a('aria-disabled') === 'true') out.push('disabled');
  if (/** @type {HTMLInputElement} */ (input).required || a('aria-required') === 'true') out.push('required');
  if (a('aria-invalid') === 'true' || (FIELDS.has(inputTag) && safeMatches(input, ':user-invalid'))) out.push('invalid');
  if (focused.has(el)) out.push('focused');
  if (inputTag === 'input' && input.type === 'password') out.push('password');
  return out;
}

/** @param {Element} el @param {string} sel */
function safeMatches(el, sel) {
  try { return el.matches(sel); } catch { return false; }
}

/**
 * A field's current value; a secret field's (password now or ever, one-time code, card number…,
 * content/secrets.js) is the mask. Token-looking strings are masked in the rendered text.
 * @param {Element} el @param {boolean} aria the element has aria-* attributes @param {string} tag el.localName
 */
function valueOf(el, aria, tag) {
  if (tag === 'input') {
    const input = /** @type {HTMLInputElement} */ (el);
    if (/^(checkbox|radio|button|submit|reset|image|file|hidden)$/.test(input.type)) return '';
    return S.maskValue(el, input.value.slice(0, 200));
  }
  if (tag === 'textarea') return S.maskValue(el, /** @type {HTMLTextAreaElement} */ (el).value.slice(0, 200));
  if (tag === 'select') return S.maskValue(el, [.../** @type {HTMLSelectElement} */ (el).selectedOptions].map((o) => clean(o.textContent)).join(', '));
  if (el.hasAttribute('contenteditable') && el.getAttribute('contenteditable') !== 'false') return clean(el.textContent).slice(0, 200);
  if (!aria) return '';
  if (el.getAttribute('aria-valuetext')) return el.getAttribute('aria-valuetext') ?? '';
  if (el.getAttribute('aria-valuenow')) return el.getAttribute('aria-valuenow') ?? '';
  return '';
}

export { hasAria, states, valueOf };
