// The states and value an outline line shows: [checked], [expanded], level=2, [focused], a
// field's value (a secret field's is the mask, content/secrets.js), read from ARIA attributes and
// the element's own properties. content/outline.js asks once per line.
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

/** @typedef {(name: string) => string | null} AttrOf */

/**
 * @param {Element} el @param {string} role @param {boolean} aria the element has aria-* attributes
 * @param {string} tag el.localName @param {Set<Element>} focused the focused elements (WalkCtx)
 * @returns {string[]}
 */
function states(el, role, aria, tag, focused) {
  const out = [];
  /** @type {AttrOf} */
  const a = aria ? (n) => el.getAttribute(n) : NO_ATTR;
  if (role === 'heading') out.push(`level=${/^h([1-6])$/.exec(tag)?.[1] ?? a('aria-level') ?? 2}`);
  if (role === 'textbox' && tag !== 'input' && multiline(el, tag)) out.push('multiline');
  const input = /** @type {HTMLInputElement} */ (tag === 'label' ? /** @type {HTMLLabelElement} */ (el).control ?? el : el);
  const inputTag = input === el ? tag : input.localName;
  const checked = checkedState(input, inputTag, a);
  if (checked) out.push(checked);
  const expanded = expandedState(el, tag, a);
  if (expanded) out.push(expanded);
  flags(out, el, tag, input, inputTag, a);
  if (focused.has(el)) out.push('focused');
  if (inputTag === 'input' && input.type === 'password') out.push('password');
  return out;
}

/**
 * A textarea or an editor takes line breaks (Enter is not submit): unlike a one-line input.
 * @param {Element} el @param {string} tag
 */
function multiline(el, tag) {
  const ml = el.getAttribute('aria-multiline'), ce = el.getAttribute('contenteditable');
  return tag === 'textarea' || ml === 'true' || (ml !== 'false' && ce !== null && ce !== 'false');
}

/**
 * A checkbox's or radio's own state (a label's control's), else aria-checked.
 * @param {HTMLInputElement} input @param {string} inputTag @param {AttrOf} a @returns {string}
 */
function checkedState(input, inputTag, a) {
  if (inputTag === 'input' && (input.type === 'checkbox' || input.type === 'radio')) {
    return input.indeterminate ? 'checked=mixed' : input.checked ? 'checked' : '';
  }
  const c = a('aria-checked');
  return c === 'true' ? 'checked' : c === 'mixed' ? 'checked=mixed' : '';
}

/**
 * aria-expanded, or a summary's details open or not.
 * @param {Element} el @param {string} tag @param {AttrOf} a @returns {string}
 */
function expandedState(el, tag, a) {
  const expanded = a('aria-expanded') ?? (tag === 'summary' ? String(!!(/** @type {HTMLDetailsElement | null} */ (el.parentElement))?.open) : null);
  return expanded === 'true' ? 'expanded' : expanded === 'false' ? 'collapsed' : '';
}

/**
 * selected, pressed, current, disabled, required and invalid, in that order.
 * @param {string[]} out @param {Element} el @param {string} tag @param {HTMLInputElement} input
 * @param {string} inputTag @param {AttrOf} a
 */
function flags(out, el, tag, input, inputTag, a) {
  if (a('aria-selected') === 'true' || (tag === 'option' && /** @type {HTMLOptionElement} */ (el).selected)) out.push('selected');
  if (a('aria-pressed') === 'true') out.push('pressed');
  if (a('aria-current') && a('aria-current') !== 'false') out.push('current');
  if (/** @type {any} */ (input).disabled || a('aria-disabled') === 'true') out.push('disabled');
  if (input.required || a('aria-required') === 'true') out.push('required');
  if (a('aria-invalid') === 'true' || (FIELDS.has(inputTag) && safeMatches(input, ':user-invalid'))) out.push('invalid');
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
