// What a user can act on, as real pages build it: semantic widgets, and also script-wired
// elements with no role (listener tracker, onclick), cursor:pointer leaves, contenteditable,
// tabindex, summary, labels that stand in for a visually hidden input; plus a usable name for
// icon-only controls.
import { roleOf, WIDGET, implicitRoleOf } from './roles.js';
import { clean, cap, style, isHidden, parentOf } from './dom.js';
import * as Accname from './accname.js';

/**
 * The role the outline shows: a label whose own input is visually hidden takes the input's role,
 * because custom checkboxes and radios hide the input and style the label (Bootstrap, Material).
 * Script-wired elements with no role are shown as buttons.
 * @param {Element} el @param {boolean} [marked] false when the caller knows el has none of the attributes of MARKED @param {string} [tag] el.localName, when the caller has it
 */
function roleFor(el, marked = true, tag = el.localName) {
  const role = marked ? roleOf(el) : implicitRoleOf(el, tag);
  if (tag === 'label') {
    const control = /** @type {HTMLLabelElement} */ (el).control;
    if (control && control.localName === 'input' && isHidden(control)) return roleOf(control);
  }
  return role;
}

/**
 * Why an element is actionable, or '' when it is not.
 * @param {Element} el @param {string} role @param {{ listeners: WeakSet<Element>, insideAction: boolean }} ctx
 * @param {boolean} [marked] false when the caller knows el has none of the attributes of MARKED @param {string} [tag] el.localName, when the caller has it
 */
function reason(el, role, ctx, marked = true, tag = el.localName) {
  if (WIDGET.has(role)) return tag === 'label' ? 'label' : 'role';
  if (ctx.insideAction) return '';
  if (tag === 'summary') return 'summary';
  if (!marked) return ctx.listeners.has(el) ? 'listener' : '';
  const ce = el.getAttribute('contenteditable');
  // The editing host only: its editable descendants are part of the same field.
  if (ce !== null && ce !== 'false' && !el.parentElement?.closest('[contenteditable]:not([contenteditable=false])')) return 'editable';
  if (el.hasAttribute('onclick') || ctx.listeners.has(el)) return 'listener';
  // Sortable lists and boards (SortableJS) mark their items draggable and wire only the list.
  if (el.getAttribute('draggable') === 'true') return 'draggable';
  const tabindex = el.getAttribute('tabindex');
  if (tabindex !== null && Number(tabindex) >= 0 && el !== el.ownerDocument.body) return 'tabindex';
  return '';
}

/**
 * Every attribute that role, reason and the outline's hidden test read. Most elements of real
 * pages carry none of them: one selector match answers for all seven reads.
 */
const MARKED = '[aria-hidden],[inert],[role],[contenteditable],[onclick],[draggable],[tabindex]';

/** Whether an element carries any attribute of MARKED. @param {Element} el */
function marked(el) {
  return el.hasAttributes() && el.matches(MARKED);
}

/** cursor:pointer set on this element, not inherited from its parent (in the flat tree): where a click target starts. @param {Element} el */
function pointerStart(el) {
  const s = style(el);
  if (!s || s.cursor !== 'pointer') return false;
  const parent = parentOf(el);
  const ps = parent ? style(parent) : null;
  return !ps || ps.cursor !== 'pointer';
}

/** Words that name nothing: framework and utility-class noise. */
const NOISE = new Set(['btn', 'button', 'icon', 'icons', 'ico', 'svg', 'img', 'image', 'wrapper', 'wrap', 'container', 'inner', 'outer',
  'item', 'link', 'active', 'selected', 'flex', 'grid', 'block', 'inline', 'hidden', 'visible', 'small', 'large', 'medium', 'primary',
  'secondary', 'default', 'component', 'element', 'root', 'main', 'content', 'box', 'col', 'row', 'clearfix', 'js', 'css', 'ng', 'jsx',
  'svelte', 'styled', 'sc', 'mui', 'chakra', 'tw', 'fa', 'fas', 'far', 'fab', 'material', 'symbols', 'outlined', 'rounded', 'glyphicon',
  'the', 'and', 'with', 'for', 'has', 'is', 'no', 'not', 'text', 'label', 'round', 'circle', 'ghost', 'plain', 'base', 'sm', 'md', 'lg', 'xl']);

/**
 * A hint from human-readable class or id words (icon-only controls on real pages: "btn-close",
 * "icon-search", "fa-trash"), never from generated hash names such as "css-1x2y3z" or "sc-bdVaJa".
 * @param {Element} el
 */
function hintOf(el) {
  /** @type {string[]} */
  const words = [];
  const inside = el.querySelectorAll('svg, i, span, use, img');
  // The element and the first five icon-like elements inside it (a card holds hundreds).
  for (let i = -1; i < inside.length && i < 5; i++) {
    const s = i < 0 ? el : inside[i];
    const use = s.localName === 'use' ? (s.getAttribute('href') ?? s.getAttribute('xlink:href') ?? '') : '';
    for (const token of [s.id, ...(s.getAttribute('class') ?? '').split(/\s+/), use.replace(/^.*#/, '')]) {
      for (const w of wordsOf(token)) if (!words.includes(w)) words.push(w);
    }
    const src = s.localName === 'img' ? s.getAttribute('src') ?? '' : '';
    if (src) for (const w of wordsOf(src.replace(/^.*\//, '').replace(/\.\w+$/, ''))) if (!words.includes(w)) words.push(w);
  }
  return cap(words.slice(0, 3).join(' '), Accname.NAME_MAX);
}

/** @param {string} token @returns {string[]} */
function wordsOf(token) {
  if (!token || token.length > 40) return [];
  // The same class names come back on every line and every snapshot: the answer is kept.
  let words = WORDS.get(token);
  if (!words) {
    if (WORDS.size > 5000) WORDS.clear();
    words = readableWords(token);
    WORDS.set(token, words);
  }
  return words;
}

/** wordsOf's answers by token. @type {Map<string, string[]>} */
const WORDS = new Map();

/** @param {string} token @returns {string[]} */
function readableWords(token) {
  // Hash-like tokens: digits mixed into letters, or a short prefix and a random tail (css-1x2y3z, sc-bdVaJa, _3xk9a).
  if (/\d/.test(token.replace(/^(h[1-6]|x2|2x|3d)\b/, '')) && /[a-z]\d|\d[a-z]/i.test(token)) return [];
  if (/^(css|sc|jsx|svelte|emotion|styles?|_)[-_]/.test(token)) return [];
  return token
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[-_\s.:]+/)
    .map((w) => w.toLowerCase())
    .filter((w) => /^[a-z]{3,15}$/.test(w) && !NOISE.has(w) && /[aeiouy]/.test(w) && !/[bcdfghjklmnpqrstvwxz]{4}/.test(w));
}

/**
 * The accessible name, with fallbacks for what is actionable but unnamed: a hidden input's label,
 * the text of a script-wired element (words apart at box boundaries, hidden parts left out), an
 * editor's label or placeholder, then a class/id hint (marked as such by the caller). Every one
 * is capped at NAME_MAX with "…", so a ref's fingerprint matches what the outline showed.
 * @param {Element} el @param {string} role @param {string} [why] the reason it is actionable (see reason())
 * @param {boolean} [shown] the caller knows it is rendered and not aria-hidden
 * @param {string} [tag] el.localName, when the caller has it @param {string} [ownRole] roleOf(el), when the caller has it
 * @returns {string}
 */
function nameFor(el, role, why = '', shown = false, tag = el.localName, ownRole = undefined) {
  let n = Accname.name(el, { shown, tag, role: ownRole });
  if (!n && (tag === 'label' || (why && !WIDGET.has(role)))) n = Accname.text(el);
  if (!n && (role === 'textbox' || role === 'searchbox' || why === 'editable')) n = editorName(el);
  return n;
}

/** Elements a label[for] names natively (the accessible name already has their label). */
const LABELABLE = new Set(['input', 'textarea', 'select', 'button', 'meter', 'output', 'progress']);

/**
 * An unnamed editor's name: a label[for] pointing at it (authors write one for contenteditable
 * editors too, though HTML associates none), else its placeholder: placeholder, aria-placeholder,
 * or data-placeholder, which rich editors set on the editor (Quill) or on its empty first
 * paragraph (ProseMirror, Tiptap) and draw with CSS.
 * @param {Element} el @returns {string}
 */
function editorName(el) {
  const max = Accname.NAME_MAX;
  if (el.id && !LABELABLE.has(el.localName)) {
    const root = /** @type {Document | ShadowRoot} */ (el.getRootNode());
    const label = [...root.querySelectorAll('label[for]')].find((l) => l.getAttribute('for') === el.id);
    const text = label ? Accname.text(label) : '';
    if (text) return text;
  }
  const inner = el.querySelector('[data-placeholder]');
  for (const ph of [el.getAttribute('placeholder'), el.getAttribute('aria-placeholder'), el.getAttribute('data-placeholder'), inner?.getAttribute('data-placeholder')]) {
    const text = clean(ph);
    if (text) return cap(text, max);
  }
  return '';
}

export { roleFor, reason, marked, pointerStart, hintOf, nameFor, wordsOf };
